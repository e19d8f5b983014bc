import { describe, expect, it } from 'vitest';
import type { Message } from '../schema';
import { functionsToText } from './plain-text';
import { foldTrailingAssistant } from './content';

const call: Message = {
  role: 'assistant',
  content: '',
  function_call: { name: 'now', arguments: '{}' },
  extra: { function_id: '1' },
};

describe('functionsToText', () => {
  it('turns a call and its result into one user message after the assistant text', () => {
    const out = functionsToText(
      [
        { role: 'user', content: 'time?' },
        { role: 'assistant', content: 'Let me see.' },
        call,
        { role: 'function', name: 'now', content: '12:00' },
        { role: 'assistant', content: 'Noon.' },
      ],
      'en',
    );
    expect(out).toEqual([
      { role: 'user', content: 'time?' },
      { role: 'assistant', content: 'Let me see.' },
      { role: 'user', content: 'Tool call: "now" was run with these arguments:\n{}\n\nTool output:\n12:00' },
      { role: 'assistant', content: 'Noon.' },
    ]);
    expect(out.every((m) => m.role !== 'function' && !m.function_call)).toBe(true);
  });

  it('appends to the preceding user message and says when there was no result', () => {
    const out = functionsToText(
      [{ role: 'user', content: 'time?' }, call, { role: 'function', name: 'now', content: '' }],
      'en',
    );
    expect(out).toEqual([
      {
        role: 'user',
        content: 'time?\n\nTool call: "now" was run with these arguments:\n{}\n\nTool output:\nNo result.',
      },
    ]);
  });

  it('uses Chinese wording for zh', () => {
    const out = functionsToText(
      [{ role: 'user', content: '几点？' }, call, { role: 'function', name: 'now', content: [] }],
      'zh',
    );
    expect(out[0]!.content).toBe('几点？\n\n调用了工具"now"，所用参数如下：\n{}\n\n工具返回的内容：\n无结果。');
  });

  it("separates consecutive user messages with a '...' assistant", () => {
    const out = functionsToText(
      [
        { role: 'user', content: 'q' },
        call,
        { role: 'function', name: 'now', content: 'x' },
        { role: 'user', content: 'next' },
      ],
      'en',
    );
    expect(out.map((m) => [m.role, m.role === 'assistant' ? m.content : '']).slice(1)).toEqual([
      ['assistant', '...'],
      ['user', ''],
    ]);
    expect(out.at(-1)!.content).toBe('next');
  });

  it('keeps images of a tool result as items', () => {
    const out = functionsToText(
      [
        { role: 'user', content: [{ text: 'draw' }] },
        call,
        { role: 'function', name: 'now', content: [{ image: 'a.png' }] },
      ],
      'en',
    );
    expect(out[0]!.content).toEqual([
      { text: 'draw\n\nTool call: "now" was run with these arguments:\n{}\n\nTool output:\n' },
      { image: 'a.png' },
    ]);
  });

  it('does not mutate its input', () => {
    const input: Message[] = [{ role: 'user', content: 'q' }, call, { role: 'function', name: 'now', content: 'x' }];
    const copy = structuredClone(input);
    functionsToText(input, 'en');
    expect(input).toEqual(copy);
  });
});

describe('foldTrailingAssistant', () => {
  it('joins the last user and a trailing assistant with a blank line', () => {
    expect(
      foldTrailingAssistant([
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
      ]),
    ).toEqual([{ role: 'user', content: 'a\n\nb' }]);
  });
  it('leaves a history that ends with a user message alone', () => {
    const h: Message[] = [{ role: 'user', content: 'a' }];
    expect(foldTrailingAssistant(h)).toBe(h);
  });
});
