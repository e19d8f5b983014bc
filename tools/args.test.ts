import { describe, it, expect } from 'vitest';
import { checkSchema, parseToolArgs, validateToolArgs } from './args';
import { BaseTool } from './base-tool';
import { ToolArgumentsError } from './errors';

class Weather extends BaseTool {
  name = 'get_weather';
  description = 'weather';
  parameters: Record<string, unknown> = {
    type: 'object',
    properties: {
      city: { type: 'string' },
      unit: { type: 'string', enum: ['c', 'f'] },
      days: { type: 'integer', minimum: 1 },
      where: { type: 'object', properties: { lat: { type: 'number' } }, required: ['lat'] },
      tags: { type: 'array', items: { type: 'string' } },
    },
    required: ['city'],
  };
  async call() {
    return '';
  }
}

function argError(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(ToolArgumentsError);
    return (err as Error).message;
  }
  throw new Error('expected a ToolArgumentsError');
}

describe('parseToolArgs', () => {
  it('parses strict JSON', () => {
    expect(parseToolArgs('{"city": "Paris", "n": 2}')).toEqual({ city: 'Paris', n: 2 });
  });

  it('strips surrounding newlines and a ```json fence', () => {
    expect(parseToolArgs('\n\n```json\n{"city": "Paris"}\n```\n')).toEqual({ city: 'Paris' });
    expect(parseToolArgs('```\n{"a": 1}\n```')).toEqual({ a: 1 });
  });

  it('falls back to JSON5: single quotes, unquoted keys, trailing commas, comments', () => {
    expect(parseToolArgs("{'city': 'Paris', unit: 'c',}")).toEqual({ city: 'Paris', unit: 'c' });
    expect(parseToolArgs('{"a": [1, 2,], // note\n}')).toEqual({ a: [1, 2] });
  });

  it('rejects garbage with the exact upstream message', () => {
    expect(argError(() => parseToolArgs('city=Paris'))).toBe('Parameters must be formatted as a valid JSON!');
    expect(argError(() => parseToolArgs('{"city": "Paris"'))).toBe('Parameters must be formatted as a valid JSON!');
  });

  it('treats empty arguments as no arguments', () => {
    expect(parseToolArgs('')).toEqual({});
    expect(parseToolArgs('  \n')).toEqual({});
  });

  it('rejects JSON that is not an object', () => {
    expect(argError(() => parseToolArgs('[1, 2]'))).toBe('Parameters must be a JSON object, not an array.');
    expect(argError(() => parseToolArgs('42'))).toBe('Parameters must be a JSON object, not a number.');
  });

  it('unwraps arguments that were JSON-encoded twice', () => {
    expect(parseToolArgs(JSON.stringify(JSON.stringify({ city: 'Paris' })))).toEqual({ city: 'Paris' });
  });

  it('passes an object through unchanged', () => {
    const args = { city: 'Paris' };
    expect(parseToolArgs(args)).toBe(args);
  });

  it('keeps non-ASCII text', () => {
    expect(parseToolArgs('{"city": "北京"}')).toEqual({ city: '北京' });
  });
});

describe('validateToolArgs', () => {
  const tool = new Weather();

  it('accepts valid arguments', () => {
    expect(() => validateToolArgs(tool, { city: 'Paris', unit: 'c', days: 2 })).not.toThrow();
  });

  it('names a missing required property', () => {
    expect(argError(() => validateToolArgs(tool, { unit: 'c' }))).toBe("missing required property 'city'");
  });

  it('names the property with the wrong type', () => {
    expect(argError(() => validateToolArgs(tool, { city: 3 }))).toBe("property 'city' must be string");
  });

  it('lists the allowed enum values', () => {
    expect(argError(() => validateToolArgs(tool, { city: 'Paris', unit: 'k' }))).toBe(
      "property 'unit' must be one of: c, f",
    );
  });

  it('uses readable paths for nested properties and array items', () => {
    expect(argError(() => validateToolArgs(tool, { city: 'x', where: {} }))).toBe(
      "missing required property 'where.lat'",
    );
    expect(argError(() => validateToolArgs(tool, { city: 'x', tags: ['a', 1] }))).toBe(
      "property 'tags[1]' must be string",
    );
  });

  it('reports every problem at once', () => {
    const msg = argError(() => validateToolArgs(tool, { unit: 'k', days: 0 }));
    expect(msg).toContain("missing required property 'city'");
    expect(msg).toContain("property 'unit' must be one of: c, f");
    expect(msg).toContain("property 'days' must be >= 1");
  });

  it('reports arguments that are not an object', () => {
    expect(argError(() => validateToolArgs(tool, [1]))).toBe('the arguments must be object');
  });

  it('keeps one validator per instance, so instances with different schemas do not mix', () => {
    const a = new Weather();
    const b = new Weather();
    b.parameters = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
    expect(() => validateToolArgs(a, { city: 'x' })).not.toThrow();
    expect(argError(() => validateToolArgs(b, { city: 'x' }))).toBe("missing required property 'n'");
  });

  it('understands draft 2020-12 and older drafts named in $schema', () => {
    const t2020 = new Weather();
    t2020.parameters = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] } },
    };
    expect(argError(() => validateToolArgs(t2020, { pair: ['a', 'b'] }))).toBe("property 'pair[1]' must be number");
    const t04 = new Weather();
    t04.parameters = {
      $schema: 'http://json-schema.org/draft-04/schema#',
      type: 'object',
      properties: { a: { type: 'number' } },
    };
    expect(argError(() => validateToolArgs(t04, { a: 'x' }))).toBe("property 'a' must be number");
  });

  it('validates legacy list-style parameters through their converted schema', () => {
    const legacy = new Weather();
    (legacy as BaseTool).parameters = [{ name: 'q', type: 'string', required: true }];
    expect(argError(() => validateToolArgs(legacy, {}))).toBe("missing required property 'q'");
  });
});

describe('checkSchema', () => {
  const schema = () => ({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] });

  it('compiles a schema once, however many fresh copies of it the runs build', () => {
    const first = checkSchema(schema());
    const again = checkSchema(schema());
    expect(first.validate).toBeTypeOf('function');
    expect(again.validate).toBe(first.validate);
    expect(first.validate!({ city: 'Paris' })).toBe(true);
    expect(first.validate!({})).toBe(false);
  });

  it('says why a schema is unusable, every time it is asked', () => {
    const bad = () => ({ type: 'object', properties: { n: { type: 'nonsense' } } });
    expect(checkSchema(bad()).problem).toMatch(/not a valid JSON Schema/);
    expect(checkSchema(bad()).problem).toMatch(/not a valid JSON Schema/);
  });

  it('keeps a bounded number of schemas: the oldest is compiled again after many others', () => {
    const first = checkSchema({ type: 'object', properties: { evicted: { type: 'number' } } }).validate;
    for (let i = 0; i < 600; i++) checkSchema({ type: 'object', properties: { [`p${i}`]: { type: 'number' } } });
    const later = checkSchema({ type: 'object', properties: { evicted: { type: 'number' } } }).validate;
    expect(later).toBeTypeOf('function');
    expect(later).not.toBe(first);
  });
});
