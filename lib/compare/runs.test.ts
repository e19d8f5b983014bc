import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../protocol/events';
import { compareRuns } from './runs';
import { diffText, type Segment } from './text-diff';

const text = (s: Segment[], op?: Segment['op']) =>
  s
    .filter((x) => !op || x.op === op)
    .map((x) => x.text)
    .join('');

describe('diffText', () => {
  it('marks only the changed words of a changed line, and keeps each side whole', () => {
    const d = diffText('line one\nthe result is 42\nend\n', 'line one\nthe result is 41\nend\n');
    expect(d.changed).toBe(true);
    expect(text(d.left)).toBe('line one\nthe result is 42\nend\n');
    expect(text(d.right)).toBe('line one\nthe result is 41\nend\n');
    expect(text(d.left, 'del')).toBe('42');
    expect(text(d.right, 'add')).toBe('41');
  });

  it('marks whole added and removed lines, and nothing when equal', () => {
    const d = diffText('a\nb\n', 'a\nc\nd\n');
    expect(text(d.left, 'del')).toBe('b');
    expect(text(d.right)).toBe('a\nc\nd\n');
    expect(d.right.filter((s) => s.op === 'add').map((s) => s.text.trim())).toEqual(['c', 'd']);
    expect(diffText('same', 'same')).toEqual({
      left: [{ op: 'same', text: 'same' }],
      right: [{ op: 'same', text: 'same' }],
      changed: false,
    });
    expect(diffText('', 'new')).toMatchObject({ left: [], right: [{ op: 'add', text: 'new' }], changed: true });
  });
});

let t = 0;
function run(id: string, opts: { model: string; calls: [string, string, string][]; answer: string; system: string }) {
  const ev = (e: Record<string, unknown>) => ({ runId: id, t: (t += 1), iteration: 1, ...e }) as AgentEvent;
  const events: AgentEvent[] = [
    ev({
      type: 'run-start',
      iteration: 0,
      agent: 'a',
      kind: 'fncall',
      model: opts.model,
      lang: 'en',
      maxLlmCalls: 20,
      tools: [],
    }),
    ev({
      type: 'llm-start',
      format: 'native',
      request: {
        model: opts.model,
        messages: [
          { role: 'system', content: opts.system },
          { role: 'user', content: 'q' },
        ],
        params: { temperature: 0.5 },
      },
    }),
  ];
  opts.calls.forEach(([name, args, result], i) => {
    events.push(ev({ type: 'tool-call', functionId: `c${i}`, name, arguments: args }));
    events.push(
      ev({ type: 'tool-result', functionId: `c${i}`, name, arguments: args, ok: true, content: result, durationMs: 1 }),
    );
  });
  events.push(
    ev({
      type: 'llm-start',
      iteration: 2,
      format: 'native',
      request: { model: opts.model, messages: [{ role: 'user', content: 'q' }], params: {} },
    }),
  );
  events.push(ev({ type: 'text-delta', iteration: 2, text: opts.answer }));
  events.push(
    ev({
      type: 'run-end',
      iteration: 0,
      reason: 'answered',
      llmCalls: 2,
      toolCalls: opts.calls.length,
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      durationMs: 1,
    }),
  );
  return { runId: id, events };
}

describe('compareRuns', () => {
  it('compares prompts per iteration, tool-call sequences, arguments, results and answers', () => {
    const a = run('A', {
      model: 'm1',
      system: 'Be brief.',
      calls: [
        ['calculator', '{"expression":"6*7"}', '42'],
        ['current_time', '{}', 'noon'],
      ],
      answer: 'It is 42 at noon.',
    });
    const b = run('B', {
      model: 'm2',
      system: 'Be very brief.',
      calls: [['calculator', '{"expression":"6*8"}', '48']],
      answer: 'It is 48.',
    });
    const c = compareRuns(a, b);
    expect(c.a).toMatchObject({ runId: 'A', model: 'm1', stopReason: 'answered' });
    expect(c.b.model).toBe('m2');
    expect(c.toolSequence).toEqual([
      { op: 'same', name: 'calculator' },
      { op: 'del', name: 'current_time' },
    ]);
    expect(c.toolCalls).toHaveLength(2);
    expect(c.toolCalls[0]!.name.changed).toBe(false);
    expect(text(c.toolCalls[0]!.arguments.left, 'del')).toBe('7');
    expect(text(c.toolCalls[0]!.arguments.right, 'add')).toBe('8');
    expect(text(c.toolCalls[0]!.result.right, 'add')).toBe('48');
    expect(c.toolCalls[1]).toMatchObject({ a: { name: 'current_time' }, name: { changed: true, right: [] } });
    expect(text(c.answer.left, 'del')).toContain('42 at noon');
    expect(c.prompts.map((p) => [p.iteration, p.diff.changed])).toEqual([
      [1, true],
      [2, true],
    ]);
    const p1 = c.prompts[0]!.diff;
    expect(text(p1.right, 'add')).toContain('very');
    expect(text(p1.left, 'del')).toContain('m1');
    expect(text(p1.left)).toContain('[user]\nq');
  });

  it('finds nothing to mark between a run and itself', () => {
    const a = run('A', { model: 'm', system: 's', calls: [['calculator', '{}', '1']], answer: 'x' });
    const c = compareRuns(a, { ...a, runId: 'A2' });
    expect(c.answer.changed).toBe(false);
    expect(c.toolCalls.every((p) => !p.arguments.changed && !p.result.changed)).toBe(true);
    expect(c.prompts.every((p) => !p.diff.changed)).toBe(true);
  });
});
