import { describe, expect, it } from 'vitest';
import type { FunctionDef } from '../schema';
import {
  buildReactPrompt,
  detectReactAction,
  parseReactSteps,
  ReactPartSplitter,
  reactPieces,
  REACT_STOP_WORDS,
  type ReactPiece,
} from './react-format';

const search: FunctionDef = {
  name: 'search',
  description: 'Web search.',
  parameters: { type: 'object', properties: { q: { type: 'string' } } },
};
const calc: FunctionDef = { name: 'calc', description: 'Arithmetic.', parameters: { type: 'object', properties: {} } };

describe('buildReactPrompt', () => {
  it('lists tools with JSON parameters, the names comma-joined, the markers, and ends ready for a thought', () => {
    const p = buildReactPrompt([search, calc], 'What is 2+2?');
    expect(p).toContain('search: ');
    expect(p).toContain('Web search. Parameters: {"type": "object", "properties": {"q": {"type": "string"}}}');
    expect(p).toContain('[search,calc]');
    for (const marker of [
      '\nQuestion: ',
      '\nThought: ',
      '\nAction: ',
      '\nAction Input: ',
      '\nObservation: ',
      '\nFinal Answer: ',
    ]) {
      expect(p).toContain(marker);
    }
    expect(p.endsWith('\n\nQuestion: What is 2+2?\nThought: ')).toBe(true);
  });

  it('has a Chinese variant that keeps the English markers', () => {
    const p = buildReactPrompt([search], '二加二？', 'zh');
    expect(p).toContain('\nAction Input: ');
    expect(p.endsWith('Question: 二加二？\nThought: ')).toBe(true);
    expect(p).not.toContain('Answer the question');
  });

  it('exports the stop words', () => {
    expect(REACT_STOP_WORDS).toEqual(['Observation:', 'Observation:\n']);
  });
});

describe('detectReactAction', () => {
  it('reads action and input when the stop word swallowed Observation', () => {
    expect(detectReactAction('I should search.\nAction: search\nAction Input: {"q": "x"}\n')).toEqual({
      thought: 'I should search.',
      action: 'search',
      actionInput: '{"q": "x"}',
    });
  });

  it('stops the input at an Observation marker', () => {
    expect(detectReactAction('t\nAction: calc\nAction Input: 2+2\nObservation: 4')?.actionInput).toBe('2+2');
  });

  it('uses the last Action when there are several', () => {
    expect(
      detectReactAction('t\nAction: a\nAction Input: 1\nObservation: x\nThought: u\nAction: b\nAction Input: 2')
        ?.action,
    ).toBe('b');
  });

  it('requires Action before Action Input', () => {
    expect(detectReactAction('t\nAction Input: 1\nAction: calc')).toBeNull();
    expect(detectReactAction('Thought: done\nFinal Answer: 4')).toBeNull();
    expect(detectReactAction('t\nAction: calc')).toBeNull();
  });

  it('accepts Action at the very start and loose spacing/case (extension)', () => {
    expect(detectReactAction('Action: calc\nAction Input: 1+1')).toEqual({
      thought: '',
      action: 'calc',
      actionInput: '1+1',
    });
    expect(detectReactAction('t\n  action : calc\nACTION  INPUT: 3')).toEqual({
      thought: 't',
      action: 'calc',
      actionInput: '3',
    });
  });

  it('prefixes a code-block input with a newline', () => {
    expect(detectReactAction('t\nAction: code\nAction Input: ```py\nprint(1)\n```')?.actionInput).toBe(
      '\n```py\nprint(1)\n```',
    );
  });
});

describe('parseReactSteps', () => {
  it('splits a whole transcript into steps', () => {
    const transcript =
      'Thought: I need data.\nAction: search\nAction Input: {"q": "x"}\nObservation: line1\nline2\n' +
      'Thought: Now compute.\nAction: calc\nAction Input: 2+2\nObservation: 4\nThought: I know it.\nFinal Answer: 4';
    expect(parseReactSteps(transcript)).toEqual([
      { thought: 'I need data.', action: 'search', actionInput: '{"q": "x"}', observation: 'line1\nline2' },
      { thought: 'Now compute.', action: 'calc', actionInput: '2+2', observation: '4' },
      { thought: 'I know it.', finalAnswer: '4' },
    ]);
  });

  it('drops the empty Thought the agent leaves while waiting, and keeps text without markers as a thought', () => {
    expect(parseReactSteps('Thought: a\nAction: calc\nAction Input: 1\nObservation: 1\nThought: ')).toEqual([
      { thought: 'a', action: 'calc', actionInput: '1', observation: '1' },
    ]);
    expect(parseReactSteps('just words')).toEqual([{ thought: 'just words' }]);
    expect(parseReactSteps('')).toEqual([]);
  });

  it('handles a Final Answer with no thought', () => {
    expect(parseReactSteps('Final Answer: 42')).toEqual([{ thought: '', finalAnswer: '42' }]);
  });
});

describe('reactPieces and ReactPartSplitter', () => {
  // As ReActChat writes it: its own "Thought: ", two model calls, the observation it appends in between.
  const turns = [
    'Thought: ',
    'I should add the numbers.\nAction: calculator\nAction Input: {"expression": "2+2"}\n',
    'Observation: 4\nThought: ',
    'I now know the sum.\n  final   answer : 4 \n',
  ];
  const transcript = turns.join('');
  const shown = (pieces: ReactPiece[]) =>
    pieces.filter((p) => p.part !== 'markup').map((p) => `${p.part}=${JSON.stringify(p.text)}`);
  const merged = (pieces: ReactPiece[]) => {
    const out: ReactPiece[] = [];
    for (const p of pieces) {
      const last = out[out.length - 1];
      if (last?.part === p.part) last.text += p.text;
      else out.push({ ...p });
    }
    return out;
  };

  it('tags every piece of a transcript with its part, the markers and spacing as markup, losing nothing', () => {
    const pieces = reactPieces(transcript);
    expect(pieces.map((p) => p.text).join('')).toBe(transcript);
    expect(shown(pieces)).toEqual([
      'thought="I should add the numbers."',
      'action="calculator"',
      'action-input="{\\"expression\\": \\"2+2\\"}"',
      'observation="4"',
      'thought="I now know the sum."',
      'answer="4"',
    ]);
    expect(shown(reactPieces('A preamble thought\nFinal Answer: done'))).toEqual([
      'thought="A preamble thought"',
      'answer="done"',
    ]);
  });

  it('streamed in any chunks, hands over the same pieces as the whole transcript, holding back half-written markers', () => {
    for (const size of [1, 2, 3, 5, 8, 13]) {
      const splitter = new ReactPartSplitter();
      const out: ReactPiece[] = [];
      turns.forEach((turn, i) => {
        // The agent's own additions are whole; the model's text streams in chunks.
        if (i % 2 === 0) out.push(...splitter.push(turn));
        else for (let at = 0; at < turn.length; at += size) out.push(...splitter.push(turn.slice(at, at + size)));
        out.push(...splitter.flush());
      });
      expect(merged(out)).toEqual(reactPieces(transcript));
    }
    const splitter = new ReactPartSplitter();
    expect(shown(splitter.push('Thought: I know.\nFinal Ans'))).toEqual(['thought="I know."']);
    expect(shown(splitter.push('wer: 4'))).toEqual(['answer="4"']);
  });
});
