// The page's tool cards for calls a run's end left without a result: a call that was running when the run failed
// or its server stopped says so ("interrupted"), and only a call that never started says "Not run". Before, every
// such call said "Not run", the running one too.
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../protocol/events';
import { foldRun, markInterrupted, sectionState, type AgentBlock, type ToolBlock } from './view';

let t = 0;
const ev = (e: Record<string, unknown>, runId = 'r'): AgentEvent =>
  ({ runId, iteration: 1, t: (t += 10), ...e }) as AgentEvent;
const start = (runId = 'r') =>
  ev(
    { type: 'run-start', iteration: 0, agent: 'a', kind: 'fncall', model: 'm', lang: 'en', maxLlmCalls: 20, tools: [] },
    runId,
  );
const call = (functionId: string, runId = 'r') =>
  ev({ type: 'tool-call', functionId, name: 'slow', arguments: '{}' }, runId);
const result = (functionId: string, over: Record<string, unknown> = {}) =>
  ev({
    type: 'tool-result',
    functionId,
    name: 'slow',
    arguments: '{}',
    ok: true,
    content: 'done',
    durationMs: 5,
    ...over,
  });
const end = (reason: string, extra: Record<string, unknown> = {}, runId = 'r') =>
  ev(
    {
      type: 'run-end',
      iteration: 0,
      reason,
      llmCalls: 1,
      toolCalls: 1,
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      durationMs: 1,
      ...extra,
    },
    runId,
  );
const storeError = { error: { name: 'StoreError', message: 'The database is locked by another program.' } };

const cards = (blocks: readonly { kind: string }[]) =>
  (blocks.filter((b) => b.kind === 'tool') as ToolBlock[]).map((b) => [b.status, b.error?.type]);

describe('a call the run ended during', () => {
  it('reads interrupted when the run failed while it ran; the call after it never started', () => {
    const view = foldRun('r', [start(), call('1'), call('2'), end('error', storeError)]);
    expect(cards(view.blocks)).toEqual([
      ['interrupted', 'RunFailed'],
      ['error', 'NotRun'],
    ]);
    expect(view.blocks[0]).toMatchObject({
      error: { kind: 'interrupted', message: 'The run failed while this call was running; it has no result.' },
    });
    expect((view.blocks[0] as ToolBlock).result).toBeUndefined();
  });

  it('reads interrupted when the server stopped while it ran (the run marked interrupted), after calls that ran', () => {
    const view = foldRun('r', [start(), call('1'), call('2'), call('3'), result('1')]);
    markInterrupted(view);
    expect(cards(view.blocks)).toEqual([
      ['done', undefined],
      ['interrupted', 'ServerStopped'],
      ['error', 'NotRun'],
    ]);
    expect(view.blocks[1]).toMatchObject({
      error: { message: 'The server stopped while this call was running; it has no result.' },
    });
  });

  it('is not run when the run stopped before it started (a stop gives the running call its own result)', () => {
    const view = foldRun('r', [start(), call('1'), end('aborted')]);
    expect(cards(view.blocks)).toEqual([['error', 'NotRun']]);
  });

  it('never started after a result that ended the run (a fatal fault): not run, and never shown running', () => {
    const fatal = { kind: 'fatal', type: 'ToolServiceError', message: 'The sandbox is gone.' };
    const events = [start(), call('1'), call('2'), result('1', { ok: false, content: fatal.message, error: fatal })];
    expect(cards(foldRun('r', events).blocks)).toEqual([
      ['error', 'ToolServiceError'],
      ['queued', undefined],
    ]);
    expect(
      cards(foldRun('r', [...events, end('error', { error: { name: 'ToolServiceError', message: 'x' } })]).blocks),
    ).toEqual([
      ['error', 'ToolServiceError'],
      ['error', 'NotRun'],
    ]);
  });

  it('is not run when it waited for the user’s decision when the server stopped', () => {
    const view = foldRun('r', [
      start(),
      call('1'),
      ev({ type: 'tool-approval', functionId: '1', name: 'slow', arguments: '{}' }),
    ]);
    markInterrupted(view);
    expect(cards(view.blocks)).toEqual([['error', 'NotRun']]);
  });

  it('in a child run still going when its parent failed: the child ends too, its running call interrupted', () => {
    const child = (e: AgentEvent) => ev({ type: 'child', agent: 'helper', event: e });
    const view = foldRun('r', [start(), child(start('c')), child(call('1', 'c')), end('error', storeError)]);
    const section = view.blocks[0] as AgentBlock;
    expect(section.run.status).toBe('error');
    expect(cards(section.run.blocks)).toEqual([['interrupted', 'RunFailed']]);
  });
});

describe("a child run's section: still going is read from its run's status", () => {
  const child = (e: AgentEvent, agent = 'helper') => ev({ type: 'child', agent, event: e });
  const sections = (view: { blocks: readonly { kind: string }[] }) =>
    (view.blocks.filter((b) => b.kind === 'agent') as AgentBlock[]).map(sectionState);

  it('goes while its run streams; ended by its own run-end, it says how long it took', () => {
    const going = foldRun('r', [start(), child(start('c'))]);
    expect(sections(going)).toEqual([{ going: true }]);
    const done = foldRun('r', [start(), child(start('c')), child(end('answered', {}, 'c'))]);
    expect(sections(done)).toEqual([{ going: false, outcome: 'answered', durationMs: expect.any(Number) }]);
  });

  it.each(['error', 'aborted'] as const)('ends with its parent (%s) when its own run-end never came', (reason) => {
    const view = foldRun('r', [start(), child(start('c')), child(start('d'), 'other'), end(reason)]);
    expect(sections(view)).toEqual([
      { going: false, outcome: reason },
      { going: false, outcome: reason },
    ]);
  });

  it('ends as interrupted, at any depth, when the server was lost (live, or the same run read after a reload)', () => {
    const nested = (e: AgentEvent) => child(ev({ type: 'child', agent: 'inner', event: e }, 'c'));
    const view = foldRun('r', [start(), child(start('c')), nested(start('g'))]);
    markInterrupted(view);
    const [section] = view.blocks as AgentBlock[];
    expect(sectionState(section!)).toEqual({ going: false, outcome: 'interrupted' });
    expect(sectionState(section!.run.blocks[0] as AgentBlock)).toEqual({ going: false, outcome: 'interrupted' });
  });
});
