import { describe, expect, it } from 'vitest';
import type { Message } from '../llm/schema';
import { countMessageTokens } from '../llm/tokens';
import { dialogueDocument, fitRecent, splitForBudget, splitTurns } from './virtual-memory';

const user = (content: string): Message => ({ role: 'user', content });
const assistant = (content: string): Message => ({ role: 'assistant', content });
const long = (n: number) => `${'word '.repeat(n)}`.trim();

describe('the memory of a long conversation', () => {
  it('cuts turns where each user message opens one; what comes before the first joins it', () => {
    const { system, turns } = splitTurns([
      { role: 'system', content: 's' },
      assistant('Hello, how can I help?'),
      user('a'),
      assistant('b'),
      user('c'),
      user('d'),
    ]);
    expect(system).toEqual({ role: 'system', content: 's' });
    expect(turns.map((t) => [t.n, t.messages.map((m) => m.content)])).toEqual([
      [1, ['Hello, how can I help?', 'a', 'b']],
      [2, ['c']],
      [3, ['d']],
    ]);
  });

  it('leaves a conversation that fits, or a budget of 0, alone', () => {
    const short = [user('hi'), assistant('hello'), user('bye')];
    expect(splitForBudget(short, 1000, 500)).toBeUndefined();
    const big = [user(long(400)), assistant(long(400)), user('q')];
    expect(splitForBudget(big, 0, 500)).toBeUndefined();
  });

  it('keeps the newest turns that fit beside a quarter of the budget for recall, and always the current turn', () => {
    const messages = [user(long(100)), assistant(long(100)), user(long(100)), assistant(long(100)), user('q')];
    const split = splitForBudget(messages, 300, 20_000)!;
    expect(split.recallBudget).toBe(75);
    // Each full turn takes about 210 tokens: the second still fits beside the question, the first does not.
    expect(split.earlier.map((t) => t.n)).toEqual([1]);
    expect(split.recent.map((t) => t.n)).toEqual([2, 3]);
    // max_ref_token caps the recall.
    expect(splitForBudget(messages, 300, 10)!.recallBudget).toBe(10);
    // A current turn too long to fit on its own stays (the model layer shortens it); the rest are recalled.
    const huge = [user('a'), assistant('b'), user(long(1000))];
    expect(splitForBudget(huge, 300, 20_000)!.recent.map((t) => t.n)).toEqual([2]);
  });

  it('moves the oldest recent turns out when the recalled block takes more than its share', () => {
    const recent = [user(long(50)), user(long(50)), user('q')].map((m, i) => ({
      n: i + 3,
      messages: [m],
      tokens: countMessageTokens(m),
    }));
    const system: Message = { role: 'system', content: long(150) };
    const { kept, moved } = fitRecent(system, recent, 220);
    expect(moved.map((t) => t.n)).toEqual([3]);
    expect(kept.map((t) => t.n)).toEqual([4, 5]);
  });

  it('writes the turns left out as a document of one page per turn, who said what', () => {
    const { turns } = splitTurns([
      user('remember 4711'),
      { role: 'assistant', content: '', function_call: { name: 'storage', arguments: '{"key":"code"}' } },
      { role: 'function', name: 'storage', content: 'saved' },
      user([{ text: 'see this' }, { file: 'report.pdf' }] as unknown as string),
    ]);
    const doc = dialogueDocument(turns);
    expect(doc.pages).toEqual([
      {
        page: 1,
        paragraphs: ['user: remember 4711', 'assistant: [called storage] {"key":"code"}', 'function storage: saved'],
      },
      { page: 2, paragraphs: ['user: see this [file](report.pdf)'] },
    ]);
    expect(dialogueDocument(turns).hash).toBe(doc.hash);
  });
});
