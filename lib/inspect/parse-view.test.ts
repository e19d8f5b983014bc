import { describe, expect, it } from 'vitest';
import { parseSegments } from './parse-view';

const kinds = (text: string, format: Parameters<typeof parseSegments>[1]) =>
  parseSegments(text, format).map((s) => [s.kind, s.text]);

describe('parseSegments', () => {
  it('marks <tool_call> blocks and think tags in nous output, and joins back to the raw text', () => {
    const text = '<think>hmm</think>Sure.\n<tool_call>\n{"name": "a"}\n</tool_call>\n<tool_call>\n{"name": "b"';
    expect(kinds(text, 'nous')).toEqual([
      ['think', '<think>hmm</think>'],
      ['text', 'Sure.\n'],
      ['call', '<tool_call>\n{"name": "a"}\n</tool_call>'],
      ['text', '\n'],
      ['call', '<tool_call>\n{"name": "b"'],
    ]);
    expect(
      parseSegments(text, 'nous')
        .map((s) => s.text)
        .join(''),
    ).toBe(text);
  });

  it('marks ✿FUNCTION✿ calls in qwen output up to the result marker', () => {
    expect(kinds('Let me.\n✿FUNCTION✿: calc\n✿ARGS✿: {"x":1}\n✿RESULT✿', 'qwen')).toEqual([
      ['text', 'Let me.\n'],
      ['call', '✿FUNCTION✿: calc\n✿ARGS✿: {"x":1}\n'],
      ['text', '✿RESULT✿'],
    ]);
  });

  it('cuts ReAct output into thought, action and answer parts', () => {
    expect(kinds('I should add.\nAction: calc\nAction Input: {"x":1}\n', 'react')).toEqual([
      ['text', 'I should add.\n'],
      ['call', 'Action: calc\n'],
      ['call', 'Action Input: {"x":1}\n'],
    ]);
    expect(kinds('Thought: done\nFinal Answer: 2', 'react').map(([k]) => k)).toEqual(['thought', 'answer']);
  });

  it('leaves native and plain output as text', () => {
    expect(kinds('<tool_call>x</tool_call>', 'native')).toEqual([['text', '<tool_call>x</tool_call>']]);
    expect(kinds('', 'none')).toEqual([]);
  });
});
