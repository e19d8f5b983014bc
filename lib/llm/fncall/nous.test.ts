import { describe, expect, it } from 'vitest';
import type { FunctionDef, Message } from '../schema';
import { nousFormat, renderNousCall } from './nous';
import type { RenderOptions } from './types';

const weather: FunctionDef = {
  name: 'get_weather',
  description: 'Weather for a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const clock: FunctionDef = {
  name: 'now',
  description: 'Current time.',
  parameters: { type: 'object', properties: {} },
};
const auto: RenderOptions = { lang: 'en', parallelFunctionCalls: true, functionChoice: 'auto' };
const opts = { parallelFunctionCalls: true };

function call(name: string, args: string, id: string): Message {
  return { role: 'assistant', content: '', function_call: { name, arguments: args }, extra: { function_id: id } };
}
function result(name: string, content: string, id: string): Message {
  return { role: 'function', name, content, extra: { function_id: id } };
}
function systemText(out: Message[]): string {
  expect(out[0]?.role).toBe('system');
  return out[0]!.content as string;
}

describe('nous render', () => {
  it('appends a # Tools section with one JSON line per tool and the exact call layout', () => {
    const out = nousFormat.render(
      [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
      ],
      [weather, clock],
      auto,
    );
    const sys = systemText(out);
    expect(sys.startsWith('Be brief.\n\n# Tools\n\n')).toBe(true);
    expect(sys).toContain(
      '<tools>\n' +
        '{"type": "function", "function": {"name": "get_weather", "description": "Weather for a city.", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}\n' +
        '{"type": "function", "function": {"name": "now", "description": "Current time.", "parameters": {"type": "object", "properties": {}}}}\n' +
        '</tools>\n\n',
    );
    expect(sys.endsWith('<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>')).toBe(
      true,
    );
    expect(out.slice(1)).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('inserts a system message when there is none', () => {
    const out = nousFormat.render([{ role: 'user', content: 'hi' }], [weather], auto);
    expect(out).toHaveLength(2);
    expect(systemText(out).startsWith('# Tools\n\n')).toBe(true);
  });

  it('renders past calls as <tool_call> text merged into one assistant message and results as one user message', () => {
    const out = nousFormat.render(
      [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: '', reasoning_content: 'first thought' },
        { role: 'assistant', content: 'Checking.', reasoning_content: 'second thought' },
        call('get_weather', '{"city": "北京"}', '1'),
        call('get_weather', "{city: 'Paris',}", '2'),
        result('get_weather', 'sunny', '1'),
        result('get_weather', 'rain', '2'),
        { role: 'assistant', content: 'Done.' },
        { role: 'user', content: 'thanks' },
      ],
      [weather],
      auto,
    );
    expect(out.slice(1)).toEqual([
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        reasoning_content: 'first thought',
        content:
          'Checking.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "北京"}}\n</tool_call>\n' +
          '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>',
      },
      { role: 'user', content: '<tool_response>\nsunny\n</tool_response>\n<tool_response>\nrain\n</tool_response>' },
      { role: 'assistant', content: 'Done.' },
      { role: 'user', content: 'thanks' },
    ]);
  });

  it('embeds unparsable arguments as a JSON string instead of throwing', () => {
    expect(renderNousCall('run', 'print("hi"')).toBe(
      '<tool_call>\n{"name": "run", "arguments": "print(\\"hi\\""}\n</tool_call>',
    );
  });

  it('folds a trailing assistant message into the last user message for continuation', () => {
    const out = nousFormat.render(
      [
        { role: 'user', content: 'Write a poem' },
        { role: 'assistant', content: 'Roses are' },
      ],
      [weather],
      auto,
    );
    expect(out.slice(1)).toEqual([{ role: 'user', content: 'Write a poem\n\nRoses are' }]);
  });

  it('refuses to force a specific tool', () => {
    expect(() =>
      nousFormat.render([{ role: 'user', content: 'x' }], [weather], { ...auto, functionChoice: 'get_weather' }),
    ).toThrow(/cannot force/);
  });

  it("turns past calls into user text for functionChoice 'none' and adds no tool section", () => {
    const out = nousFormat.render(
      [
        { role: 'user', content: 'Weather?' },
        call('get_weather', '{"city": "Rome"}', '1'),
        result('get_weather', 'sunny', '1'),
      ],
      [weather],
      { ...auto, functionChoice: 'none' },
    );
    expect(out).toHaveLength(1);
    expect(out[0]!.role).toBe('user');
    expect(out[0]!.content).toContain('{"city": "Rome"}');
    expect(out[0]!.content).toContain('sunny');
    expect(out[0]!.content).not.toContain('<tool');
  });

  it('does not mutate its input', () => {
    const input: Message[] = [{ role: 'user', content: 'q' }, call('now', '{}', '1'), result('now', '12:00', '1')];
    const copy = structuredClone(input);
    nousFormat.render(input, [clock], auto);
    expect(input).toEqual(copy);
  });
});

describe('nous parse', () => {
  it('keeps text before the first call and numbers the calls', () => {
    const r = nousFormat.parse(
      'Let me look.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "北京"}}\n</tool_call>\n' +
        '<tool_call>\n{"name": "now", "arguments": {}}\n</tool_call>',
      opts,
    );
    expect(r.messages).toEqual([
      { role: 'assistant', content: 'Let me look.\n' },
      call('get_weather', '{"city": "北京"}', '1'),
      call('now', '{}', '2'),
    ]);
    expect(r.errors).toEqual([]);
  });

  it('returns plain text untouched when there is no call', () => {
    expect(nousFormat.parse('Just an answer.', opts).messages).toEqual([
      { role: 'assistant', content: 'Just an answer.' },
    ]);
    expect(nousFormat.parse('', opts).messages).toEqual([]);
  });

  it('drops blank text before a call', () => {
    const r = nousFormat.parse('\n\n<tool_call>\n{"name": "now", "arguments": {}}\n</tool_call>', opts);
    expect(r.messages).toEqual([call('now', '{}', '1')]);
  });

  it('accepts JSON5 inside the block and re-serialises arguments as JSON', () => {
    const r = nousFormat.parse("<tool_call>\n{name: 'get_weather', arguments: {city: 'Paris',},}\n</tool_call>", opts);
    expect(r.messages[0]?.function_call).toEqual({ name: 'get_weather', arguments: '{"city": "Paris"}' });
  });

  it('falls back to slicing when the JSON is malformed, and notes it', () => {
    const r = nousFormat.parse(
      '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}\n</tool_call>',
      opts,
    );
    expect(r.messages).toEqual([call('get_weather', '{"city": "Paris"}', '1')]);
    expect(r.errors.join(' ')).toMatch(/not valid JSON/);
  });

  it('drops a block without name or arguments, with a note, and keeps numbering dense', () => {
    const r = nousFormat.parse(
      '<tool_call>\n{"tool": "now"}\n</tool_call>\n<tool_call>\n{"name": "now", "arguments": {}}\n</tool_call>',
      opts,
    );
    expect(r.messages).toEqual([call('now', '{}', '1')]);
    expect(r.errors).toHaveLength(1);
  });

  it('discards text after </tool_call>', () => {
    const r = nousFormat.parse(
      '<tool_call>\n{"name": "now", "arguments": {}}\n</tool_call>\nI made up a result.',
      opts,
    );
    expect(r.messages).toEqual([call('now', '{}', '1')]);
    expect(r.errors[0]).toMatch(/Discarded text/);
  });

  it('yields a provisional call for an unclosed block once the name is readable', () => {
    expect(nousFormat.parse('Ok.\n<tool_call>\n{"name": "get_wea', opts).messages).toEqual([
      { role: 'assistant', content: 'Ok.\n' },
    ]);
    const r = nousFormat.parse('Ok.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Par', opts);
    expect(r.messages[1]).toEqual(call('get_weather', '{"city": "Par', '1'));
  });

  it('does not parse calls inside an unclosed <think>, and parses only after </think>', () => {
    const open = '<think>maybe <tool_call>\n{"name": "now", "arguments": {}}\n</tool_call>';
    expect(nousFormat.parse(open, opts).messages).toEqual([{ role: 'assistant', content: open }]);
    const closed = '<think>hmm</think>\n<tool_call>\n{"name": "now", "arguments": {}}\n</tool_call>';
    expect(nousFormat.parse(closed, opts).messages).toEqual([
      { role: 'assistant', content: '<think>hmm</think>' },
      call('now', '{}', '1'),
    ]);
  });

  it('never throws on garbage', () => {
    for (const text of [
      '<tool_call>',
      '<tool_call></tool_call>',
      '<tool_call>\n[1,2]\n</tool_call>',
      '</tool_call><tool_call>{',
    ]) {
      expect(() => nousFormat.parse(text, opts)).not.toThrow();
    }
  });
});
