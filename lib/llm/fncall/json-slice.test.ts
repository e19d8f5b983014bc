import { describe, expect, it } from 'vitest';
import { extractFn, matchingClose, parseJson5, pyJsonDumps } from './json-slice';

describe('pyJsonDumps', () => {
  it('uses Python separators and keeps non-ASCII', () => {
    expect(pyJsonDumps({ name: 'x', arguments: { city: '北京', n: [1, 2], ok: true, none: null } })).toBe(
      '{"name": "x", "arguments": {"city": "北京", "n": [1, 2], "ok": true, "none": null}}',
    );
  });
  it('escapes quotes and control characters like json.dumps', () => {
    expect(pyJsonDumps('a"b\\c\nd\t\u0001')).toBe('"a\\"b\\\\c\\nd\\t\\u0001"');
  });
  it('writes empty containers compactly and NaN/Infinity like Python', () => {
    expect(pyJsonDumps({ a: {}, b: [], c: NaN, d: -Infinity })).toBe('{"a": {}, "b": [], "c": NaN, "d": -Infinity}');
  });
});

describe('parseJson5', () => {
  it('accepts JSON5 (single quotes, unquoted keys, trailing commas)', () => {
    expect(parseJson5("{city: 'Paris', n: [1,],}")).toEqual({ ok: true, value: { city: 'Paris', n: [1] } });
  });
  it('reports failure instead of throwing', () => {
    const r = parseJson5('{"a": ');
    expect(r.ok).toBe(false);
  });
});

describe('matchingClose', () => {
  it('skips brackets inside strings', () => {
    expect(matchingClose('{"a": "}{", "b": [1]} tail')).toBe(20);
  });
  it('returns -1 for an unclosed object', () => {
    expect(matchingClose('{"a": {"b": 1}')).toBe(-1);
  });
});

describe('extractFn', () => {
  it('slices name and arguments out of malformed JSON', () => {
    expect(extractFn('{"name": "get_weather", "arguments": {"city": "Paris"}} oops')).toEqual({
      name: 'get_weather',
      args: '{"city": "Paris"}',
    });
  });
  it('has no name until the name string is closed (streaming)', () => {
    expect(extractFn('\n{"name": "get_wea').name).toBe('');
    expect(extractFn('\n{"name": "get_weather"').name).toBe('get_weather');
  });
  it('keeps unfinished arguments as they are', () => {
    expect(extractFn('{"name": "f", "arguments": {"city": "Par')).toEqual({ name: 'f', args: '{"city": "Par' });
  });
  it('drops the wrapper brace from non-object arguments and empties tiny ones (upstream rule)', () => {
    expect(extractFn('{"name": "f", "arguments": "print(1)"}').args).toBe('"print(1)"');
    expect(extractFn('{"name": "f", "arguments": 1}').args).toBe('');
  });
  it('tolerates compact JSON without spaces', () => {
    expect(extractFn('{"name":"f","arguments":{"a":1}').name).toBe('f');
  });
});
