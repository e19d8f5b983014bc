import { describe, expect, it } from 'vitest';
import { toChatHistory } from './chat-history';

describe('toChatHistory', () => {
  it('ends a history that ends with a user message with an empty model response to fill', () => {
    expect(
      toChatHistory([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ text: 'Hi' }, { text: 'there' }] },
      ]),
    ).toEqual([
      { type: 'system', text: 'Be brief.' },
      { type: 'user', text: 'Hi\nthere' },
      { type: 'model', response: [] },
    ]);
  });

  it('folds an assistant turn with thoughts, calls and results into one model response that stays open', () => {
    const history = toChatHistory([
      { role: 'user', content: 'Weather in Paris and Tokyo?' },
      { role: 'assistant', content: '', reasoning_content: 'Two cities.' },
      { role: 'assistant', content: 'Let me look.' },
      {
        role: 'assistant',
        content: '',
        function_call: { name: 'w', arguments: '{"city": "Paris"}' },
        extra: { function_id: 'a' },
      },
      {
        role: 'assistant',
        content: '',
        function_call: { name: 'w', arguments: '{city: "Tokyo"}' },
        extra: { function_id: 'b' },
      },
      { role: 'function', name: 'w', content: '{"temp": 9}', extra: { function_id: 'b' } },
      { role: 'function', name: 'w', content: 'Paris: sunny', extra: { function_id: 'a' } },
    ]);
    expect(history).toEqual([
      { type: 'user', text: 'Weather in Paris and Tokyo?' },
      {
        type: 'model',
        response: [
          { type: 'segment', segmentType: 'thought', text: 'Two cities.', ended: true },
          'Let me look.',
          { type: 'functionCall', name: 'w', params: { city: 'Paris' }, result: 'Paris: sunny' },
          { type: 'functionCall', name: 'w', params: { city: 'Tokyo' }, result: { temp: 9 } },
        ],
      },
    ]);
  });

  it('matches results without ids in order, and keeps unparsable arguments as text', () => {
    const history = toChatHistory([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: '', function_call: { name: 'f', arguments: 'not json' } },
      { role: 'assistant', content: '', function_call: { name: 'g', arguments: '{}' } },
      { role: 'function', name: 'f', content: 'one' },
      { role: 'function', name: 'g', content: 'two' },
      { role: 'assistant', content: 'Done' },
      { role: 'user', content: 'again' },
    ]);
    expect(history).toEqual([
      { type: 'user', text: 'go' },
      {
        type: 'model',
        response: [
          { type: 'functionCall', name: 'f', params: 'not json', result: 'one' },
          { type: 'functionCall', name: 'g', params: {}, result: 'two' },
          'Done',
        ],
      },
      { type: 'user', text: 'again' },
      { type: 'model', response: [] },
    ]);
  });
});
