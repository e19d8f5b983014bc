// Runs with child runs (a saved GroupChat's members) through the chat service as the app builds it, over a real
// SQLite file and the scripted model server: "pause before tools" inside two members whose calls have the same id
// keeps each decision to its own member (a decision for the first never moves the second), and comparing two runs
// of such a turn pairs the members' answers, tool calls and requests; the inspector's waterfall nests the members.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyToolActor } from '../../lib/chat/actor';
import { saveAgentDefinition } from '../../lib/chat/saved-agents';
import { compareRuns } from '../../lib/compare/runs';
import { loadConfig } from '../../lib/config';
import { foldInspection } from '../../lib/inspect';
import { waterfallRows } from '../../lib/inspect/timeline';
import type { AgentEvent } from '../../lib/protocol/events';
import { createAppContext, type AppContext } from '../../lib/server/context';
import { ownerScope } from '../../lib/store/owner';
import { openSqliteStore } from '../../lib/store';
import type { ChatStore } from '../../lib/store/types';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { follow } from '../support/chat';

let model: ModelServer;
let store: ChatStore;
let ctx: AppContext;
let dataDir: string;
const OWNER = ownerScope('user-a');
const ACTOR = everyToolActor(OWNER);

beforeAll(async () => {
  model = await createModelServer();
  dataDir = await mkdtemp(path.join(tmpdir(), 'child-runs-'));
  store = await openSqliteStore(path.join(dataDir, 'agent-studio.db'));
  const env = { DATA_DIR: dataDir, OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'k', OPENAI_MODEL: 'm' };
  ctx = await createAppContext(loadConfig({ ...env, LLM_MAX_RETRIES: '0' }), store);
});
afterAll(async () => {
  await store.close();
  await model.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function waitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}

/** Each member calls calculator under the same call id, then answers. */
function bothCallOneId(alice: string, bob: string) {
  const call = (expression: string) => ({
    toolCalls: [{ id: 'call-1', name: 'calculator', arguments: JSON.stringify({ expression }) }],
  });
  return { replies: [call('6*7'), { content: alice }, call('2+2'), { content: bob }] };
}

async function group(): Promise<string> {
  const member = (name: string) =>
    saveAgentDefinition(store, OWNER, undefined, { name, kind: 'fncall', tools: ['calculator'] });
  const [alice, bob] = [await member('Alice'), await member('Bob')];
  const panel = await saveAgentDefinition(store, OWNER, undefined, {
    name: 'Panel',
    kind: 'groupchat',
    members: [alice.id, bob.id],
    selection: 'round_robin',
    maxRound: 2,
  });
  return panel.id;
}

const approvals = (events: AgentEvent[]) =>
  events.flatMap((e) => (e.type === 'child' && e.event.type === 'tool-approval' ? [e] : []));

describe('runs with child runs', () => {
  it('pause before tools: two members’ calls with the same id are decided apart; the two runs compare', async () => {
    const panel = await group();
    model.setScenario(bothCallOneId('Alice: 42.', 'Bob: 4.'));
    const run = await ctx.chat.send(ACTOR, {
      message: 'Compute, both of you',
      settings: { agentId: panel, pauseBeforeTools: true },
    });
    const events: AgentEvent[] = [];
    const reading = (async () => {
      for await (const e of follow(ctx.chat, OWNER, run.runId)) events.push(e);
    })();

    await waitFor(() => approvals(events).length === 1);
    const first = approvals(events)[0]!;
    expect(first).toMatchObject({ agent: 'Alice', event: { functionId: 'call-1' } });
    // Not the run's own call, nor another run's: refused.
    await expect(ctx.chat.decideTool(ACTOR, run.runId, 'call-1', { action: 'run' })).rejects.toThrow(
      'not waiting for tool call call-1',
    );
    await ctx.chat.decideTool(ACTOR, run.runId, 'call-1', { action: 'run' }, first.event.runId);

    await waitFor(() => approvals(events).length === 2);
    const second = approvals(events)[1]!;
    expect(second).toMatchObject({ agent: 'Bob', event: { functionId: 'call-1' } });
    expect(second.event.runId).not.toBe(first.event.runId);
    // A late or repeated decision for Alice's call does not move Bob's.
    await expect(
      ctx.chat.decideTool(ACTOR, run.runId, 'call-1', { action: 'supply', content: 'wrong' }, first.event.runId),
    ).rejects.toThrow('not waiting for tool call call-1');
    await ctx.chat.decideTool(ACTOR, run.runId, 'call-1', { action: 'run' }, second.event.runId);
    await reading;

    const results = events.flatMap((e) =>
      e.type === 'child' && e.event.type === 'tool-result' ? [[e.agent, e.event.content]] : [],
    );
    expect(results).toEqual([
      ['Alice', '42'],
      ['Bob', '4'],
    ]);

    // A second run of the turn (no pause), where Bob answers otherwise: compare pairs the members' steps.
    await store.updateSettings(OWNER, run.conversationId, { pauseBeforeTools: false });
    model.setScenario(bothCallOneId('Alice: 42.', 'Bob: four.'));
    const again = await ctx.chat.regenerate(ACTOR, run.turnId);
    for await (const _ of follow(ctx.chat, OWNER, again.runId));
    const [a, b] = await ctx.chat.runsOfTurn(ACTOR, run.turnId);
    const c = compareRuns({ runId: a!.id, events: a!.events }, { runId: b!.id, events: b!.events });
    expect(c.answer.changed).toBe(true);
    expect(c.answer.left.map((s) => s.text).join('')).toContain('Alice: 42.Bob: 4.');
    expect(c.toolCalls.map((p) => [p.a?.agent, p.a?.name, p.b?.agent, p.result.changed])).toEqual([
      ['Alice', 'calculator', 'Alice', false],
      ['Bob', 'calculator', 'Bob', false],
    ]);
    const childPrompts = c.prompts.filter((p) => p.agent);
    expect(childPrompts.map((p) => [p.agent, p.iteration, p.a && p.b])).toEqual([
      ['Alice', 1, true],
      ['Alice', 2, true],
      ['Bob', 1, true],
      ['Bob', 2, true],
    ]);
    const bob2 = childPrompts.find((p) => p.agent === 'Bob' && p.iteration === 2)!.diff;
    // The same request but for its random seed (a new one per call, as Qwen-Agent's).
    const edits = [...bob2.left, ...bob2.right].filter((seg) => seg.op !== 'same');
    expect(edits.length).toBeGreaterThan(0);
    expect(edits.every((seg) => /^\d+$/.test(seg.text))).toBe(true);

    // The inspector's fold of the run has both children, each with its own iterations.
    const inspected = foldInspection(b!.events);
    expect(inspected.children?.map((ch) => [ch.agent, ch.run.iterations.length])).toEqual([
      ['Alice', 2],
      ['Bob', 2],
    ]);
    // Its waterfall nests each member's run, then the member's iterations, on the parent's clock.
    const rows = waterfallRows(inspected);
    expect(rows.map((r) => [r.depth, r.row.kind, 'agent' in r.row ? r.row.agent : '', r.child])).toEqual([
      [1, 'child', 'Alice', [0]],
      [2, 'child-iteration', 'Alice', [0]],
      [2, 'child-iteration', 'Alice', [0]],
      [1, 'child', 'Bob', [1]],
      [2, 'child-iteration', 'Bob', [1]],
      [2, 'child-iteration', 'Bob', [1]],
    ]);
    const [aliceSpan, aliceFirst] = [rows[0]!.bars[0]!, rows[1]!.bars[0]!];
    expect(aliceFirst.startMs).toBeGreaterThanOrEqual(aliceSpan.startMs);
    expect(rows[3]!.bars[0]!.startMs).toBeGreaterThanOrEqual(aliceSpan.endMs);
  });
});
