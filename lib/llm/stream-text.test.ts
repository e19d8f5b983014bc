import { describe, expect, it } from 'vitest';
import { StreamTextRouter } from './stream-text';

function feed(router: StreamTextRouter, chunks: string[]) {
  let text = '';
  let reasoning = '';
  for (const c of chunks) {
    const o = router.push(c);
    text += o.text;
    reasoning += o.reasoning;
  }
  const r = router.finish();
  return { text: text + r.tail.text, reasoning: reasoning + r.tail.reasoning, result: r };
}

const chars = (s: string) => [...s];

describe('StreamTextRouter', () => {
  it('splits <think> into reasoning even when tags arrive one character at a time', () => {
    const { text, reasoning, result } = feed(
      new StreamTextRouter(),
      chars('<think>let me see</think>The answer is 4.'),
    );
    expect(reasoning).toBe('let me see');
    expect(text).toBe('The answer is 4.');
    expect(result.toolSource).toBe('The answer is 4.');
  });

  it('cuts at the first stop word and never shows any part of it', () => {
    const r = new StreamTextRouter({ stopWords: ['Observation:'] });
    const shown: string[] = [];
    for (const c of chars('Action: calc\nAction Input: {}\nObservation: 42')) shown.push(r.push(c).text);
    const fin = r.finish();
    expect(shown.join('') + fin.tail.text).toBe('Action: calc\nAction Input: {}\n');
    expect(shown.join('')).not.toContain('Obs');
    expect(fin.stoppedAtStopWord).toBe(true);
  });

  it('strips a trailing partial stop word when the stream ends (Observation for Observation:)', () => {
    const { text } = feed(new StreamTextRouter({ stopWords: ['Observation:'] }), ['Action Input: {}\n', 'Observation']);
    expect(text).toBe('Action Input: {}\n');
  });

  it('stops showing text where a prompt-format tool call begins, and hands the rest to the parser', () => {
    const { text, result } = feed(
      new StreamTextRouter({ toolStartMarker: '<tool_call>' }),
      chars('Checking.\n<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>'),
    );
    expect(text).toBe('Checking.\n');
    expect(result.toolSource).toContain('<tool_call>');
  });

  it('does not look for tool calls inside an unclosed think block', () => {
    const { text, reasoning, result } = feed(new StreamTextRouter({ toolStartMarker: '<tool_call>' }), [
      '<think>maybe <tool_call>{"name":"f"}</tool_call>',
    ]);
    expect(text).toBe('');
    expect(reasoning).toContain('<tool_call>');
    expect(result.toolSource).toBe('');
  });

  it('starts inside reasoning when the server strips the opening think tag', () => {
    const { text, reasoning } = feed(new StreamTextRouter({ thoughtInContent: true }), ['hmm, 2+2', '</think>', '4']);
    expect(reasoning).toBe('hmm, 2+2');
    expect(text).toBe('4');
  });

  it('releases held-back text that turned out not to be a marker', () => {
    const { text } = feed(new StreamTextRouter({ stopWords: ['Observation:'], toolStartMarker: '<tool_call>' }), [
      'a <tool',
      ' b Obs',
      'erve',
    ]);
    expect(text).toBe('a <tool b Observe');
  });

  it('holds memory in proportion to the answer, however many deltas it came in', () => {
    // Each delta searched the whole answer so far (a string built by += is copied whole to be searched), and every
    // piece handed on kept its copy alive: 3,000 deltas of 40 characters (120 KB) held ~190 MB.
    const router = new StreamTextRouter({ stopWords: ['Observation:'], toolStartMarker: '<tool_call>' });
    const delta = `${'a'.repeat(39)} `;
    const shown: string[] = [];
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 3000; i++) shown.push(router.push(delta).text);
    const grown = process.memoryUsage().heapUsed - before;
    const result = router.finish();
    expect(shown.join('') + result.tail.text).toBe(delta.repeat(3000));
    expect(result.raw).toBe(delta.repeat(3000));
    expect(grown).toBeLessThan(48 * 1024 * 1024);
  });

  it('finds a stop word and markers split across deltas far into a long answer', () => {
    const long = 'word '.repeat(20_000);
    const router = new StreamTextRouter({ stopWords: ['Observation:'], toolStartMarker: '<tool_call>' });
    const { text, result } = feed(router, [
      ...long.match(/.{1,7}/gs)!,
      '<thi',
      'nk>why</th',
      'ink>ok Obser',
      'vation: 42',
    ]);
    expect(text).toBe(`${long}ok `);
    expect(result.reasoning).toBe('why');
    expect(result.stoppedAtStopWord).toBe(true);
    expect(result.content).toBe(`${long}<think>why</think>ok `);
  });
});
