import { describe, expect, it } from 'vitest';
import type { ChatModel, ChatRequest, LlmCallResult, LlmEventSink } from './model';
import { fromOaiMessages, quickChatOai, toOaiResponse } from './quick-chat-oai';

describe('fromOaiMessages', () => {
  it("splits an assistant message's text, reasoning and calls, and names each tool result", () => {
    const messages = fromOaiMessages([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Draw a cat and a dog' },
      {
        role: 'assistant',
        content: 'Drawing.',
        reasoning_content: 'two pictures',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'draw', arguments: '{"what":"cat"}' } },
          { id: 'c2', type: 'function', function: { name: 'paint', arguments: '{"what":"dog"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c2', content: 'dog.png' },
      { role: 'tool', name: 'draw', content: 'cat.png' },
    ]);
    expect(messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Draw a cat and a dog' },
      { role: 'assistant', content: 'Drawing.' },
      { role: 'assistant', content: '', reasoning_content: 'two pictures' },
      {
        role: 'assistant',
        content: '',
        function_call: { name: 'draw', arguments: '{"what":"cat"}' },
        extra: { function_id: 'c1' },
      },
      {
        role: 'assistant',
        content: '',
        function_call: { name: 'paint', arguments: '{"what":"dog"}' },
        extra: { function_id: 'c2' },
      },
      { role: 'function', name: 'paint', content: 'dog.png', extra: { function_id: 'c2' } },
      { role: 'function', name: 'draw', content: 'cat.png' },
    ]);
  });

  it('refuses a tool message that names no tool and answers no call', () => {
    expect(() => fromOaiMessages([{ role: 'tool', tool_call_id: 'nope', content: 'x' }])).toThrow(
      'messages[0]: a tool message needs a name or the tool_call_id of an earlier tool call.',
    );
  });
});

describe('toOaiResponse', () => {
  it("joins an answer's messages into one OpenAI message, numbering calls without an id as upstream", () => {
    const response = toOaiResponse([
      { role: 'assistant', content: '', reasoning_content: 'think' },
      { role: 'assistant', content: 'ok' },
      { role: 'assistant', content: '', function_call: { name: 'a', arguments: '{}' } },
      {
        role: 'assistant',
        content: '',
        function_call: { name: 'b', arguments: '{}' },
        extra: { function_id: 'call_9' },
      },
    ]);
    expect(response.choices[0].message).toEqual({
      role: 'assistant',
      content: 'ok',
      reasoning_content: 'think',
      tool_calls: [
        { id: '1', type: 'function', function: { name: 'a', arguments: '{}' } },
        { id: 'call_9', type: 'function', function: { name: 'b', arguments: '{}' } },
      ],
    });
  });
});

describe('quickChatOai', () => {
  /** A model that streams its pieces, then returns them as one message. */
  function model(pieces: string[], fail?: Error): ChatModel & { requests: ChatRequest[] } {
    const requests: ChatRequest[] = [];
    return {
      model: 'm',
      fncallMode: 'nous',
      requests,
      async chat(req: ChatRequest, onEvent: LlmEventSink = () => {}): Promise<LlmCallResult> {
        requests.push(req);
        for (const text of pieces) {
          await new Promise((r) => setTimeout(r, 1));
          onEvent({ type: 'text', text });
        }
        if (fail) throw fail;
        return {
          messages: [{ role: 'assistant', content: pieces.join('') }],
          finishReason: 'stop',
          durationMs: 1,
          parseErrors: [],
        };
      },
    };
  }

  it('yields a growing snapshot per piece, then the whole answer, and hands the tools to the model', async () => {
    const llm = model(['Hel', 'lo']);
    const tools = [
      { type: 'function' as const, function: { name: 't', description: 'd', parameters: { type: 'object' } } },
    ];
    const contents: string[] = [];
    for await (const r of quickChatOai(llm, [{ role: 'user', content: 'hi' }], tools))
      contents.push(r.choices[0].message.content);
    expect(contents).toEqual(['Hel', 'Hello', 'Hello']);
    expect(llm.requests[0]!.functions).toEqual([tools[0]!.function]);
  });

  it("rejects with the model's error after what streamed before it", async () => {
    const seen: string[] = [];
    const run = async () => {
      for await (const r of quickChatOai(model(['par'], new Error('server gone')), [{ role: 'user', content: 'hi' }]))
        seen.push(r.choices[0].message.content);
    };
    await expect(run()).rejects.toThrow('server gone');
    expect(seen).toEqual(['par']);
  });
});
