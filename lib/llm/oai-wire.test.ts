import { describe, expect, it } from 'vitest';
import { ToolCallAssembler, toWireMessages } from './oai-wire';

describe('OpenAI wire conversion', () => {
  it('merges consecutive assistant messages into one with tool_calls and sends results as role tool with tool_call_id', () => {
    const wire = toWireMessages([
      { role: 'user', content: 'weather?' },
      { role: 'assistant', content: '', reasoning_content: 'think' },
      { role: 'assistant', content: 'Let me check.' },
      {
        role: 'assistant',
        content: '',
        function_call: { name: 'get_weather', arguments: '{"city":"Paris"}' },
        extra: { function_id: 'call_1' },
      },
      {
        role: 'assistant',
        content: '',
        function_call: { name: 'add', arguments: '{"a":1}' },
        extra: { function_id: 'call_2' },
      },
      { role: 'function', name: 'get_weather', content: 'sunny', extra: { function_id: 'call_1' } },
      { role: 'function', name: 'add', content: [{ text: '2' }], extra: { function_id: 'call_2' } },
    ]);
    expect(wire).toEqual([
      { role: 'user', content: 'weather?' },
      {
        role: 'assistant',
        content: 'Let me check.',
        reasoning_content: 'think',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_2', type: 'function', function: { name: 'add', arguments: '{"a":1}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
      { role: 'tool', tool_call_id: 'call_2', content: '2' },
    ]);
  });

  it('concatenates the texts of merged assistant messages instead of overwriting (upstream quirk fixed)', () => {
    const wire = toWireMessages([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'first. ' },
      { role: 'assistant', content: 'second.' },
    ]);
    expect(wire[1]).toEqual({ role: 'assistant', content: 'first. second.' });
  });

  it("defaults a missing function_id to '1' and can leave reasoning out", () => {
    const wire = toWireMessages(
      [
        { role: 'assistant', content: '', reasoning_content: 'r', function_call: { name: 'f', arguments: '{}' } },
        { role: 'function', name: 'f', content: 'ok' },
      ],
      { sendReasoning: false },
    );
    expect(wire).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: '1', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: '1', content: 'ok' },
    ]);
  });

  it('sends images as image_url parts', () => {
    expect(
      toWireMessages([{ role: 'user', content: [{ text: 'what is this' }, { image: 'http://x/a.png' }] }])[0],
    ).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'what is this' },
        { type: 'image_url', image_url: { url: 'http://x/a.png' } },
      ],
    });
  });
});

describe('ToolCallAssembler', () => {
  it('assembles argument fragments by index, starts a new call on a new id, and continues the last call without id', () => {
    const a = new ToolCallAssembler();
    a.push({ index: 0, id: 'c1', function: { name: 'get_weather', arguments: '' } });
    a.push({ index: 0, function: { arguments: '{"city":' } });
    a.push({ index: 0, function: { arguments: ' "Paris"}' } });
    a.push({ index: 1, id: 'c2', function: { name: 'add', arguments: '{"a": 2' } });
    a.push({ function: { arguments: ', "b": 3}' } }); // no index, no id: continues the last call
    a.push({ index: 1, id: 'c3', function: { name: 'mul', arguments: '{}' } }); // same index, new id: a new call
    expect(a.result()).toEqual([
      { id: 'c1', name: 'get_weather', arguments: '{"city": "Paris"}' },
      { id: 'c2', name: 'add', arguments: '{"a": 2, "b": 3}' },
      { id: 'c3', name: 'mul', arguments: '{}' },
    ]);
  });

  it('tolerates null arguments in the first delta (upstream crashed on it)', () => {
    const a = new ToolCallAssembler();
    a.push({ index: 0, id: 'x', function: { name: 'f', arguments: null } });
    a.push({ index: 0, function: { arguments: '{}' } });
    expect(a.result()).toEqual([{ id: 'x', name: 'f', arguments: '{}' }]);
  });
});
