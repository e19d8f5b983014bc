import { describe, expect, it } from 'vitest';
import type { Message } from '../llm/schema';
import { typewriterPrint, typewriterText } from './typewriter';

const call: Message = { role: 'assistant', content: '', function_call: { name: 'calc', arguments: '{"x": 1}' } };
const result: Message = { role: 'function', name: 'calc', content: '2' };

describe('typewriterPrint', () => {
  it("renders thinking, answer, tool calls and results under upstream's markers", () => {
    const text = typewriterText([
      { role: 'assistant', content: '', reasoning_content: 'hmm' },
      call,
      result,
      { role: 'assistant', content: [{ text: 'It is ' }, { text: '2.' }] },
    ]);
    expect(text).toBe('[THINK]\nhmm\n[TOOL_CALL] calc\n{"x": 1}\n[TOOL_RESPONSE] calc\n2\n[ANSWER]\nIt is \n2.');
  });

  it('writes only what the earlier snapshots did not, so growing snapshots print as one stream', () => {
    const written: string[] = [];
    const write = (t: string) => written.push(t);
    let printed = typewriterPrint([{ role: 'assistant', content: 'Hel' }], '', write);
    printed = typewriterPrint([{ role: 'assistant', content: 'Hello' }], printed, write);
    printed = typewriterPrint([{ role: 'assistant', content: 'Hello' }], printed, write);
    printed = typewriterPrint([{ role: 'assistant', content: 'Hello' }, call], printed, write);
    expect(written).toEqual(['[ANSWER]\nHel', 'lo', '\n[TOOL_CALL] calc\n{"x": 1}']);
    expect(printed).toBe('[ANSWER]\nHello\n[TOOL_CALL] calc\n{"x": 1}');
  });
});
