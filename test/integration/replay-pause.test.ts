// Replay from step N and pause before tools, through the chat service over a real SQLite file and the scripted
// model server over HTTP.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FnCallAgent, type AgentEvent } from '../../lib/agent';
import { SKIPPED_BY_USER } from '../../lib/agent/tool-call';
import type { ChatService } from '../../lib/chat/service';
import { compareRuns } from '../../lib/compare/runs';
import { openSqliteStore } from '../../lib/store';
import type { ChatStore, ConversationSettings } from '../../lib/store/types';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import type { ScriptedReply } from '../../lib/protocol/fixture';
import type { RecordedRequest } from '../../scripts/model-server/script';
import '../../tools';
import { createChatModel } from '../../lib/llm';
import { chatContext, follow } from '../support/chat';
import { ownerScope } from '../../lib/store/owner';
import { everyToolActor } from '../../lib/chat/actor';

const OWNER = ownerScope('owner-a');
const ACTOR = everyToolActor(OWNER);

let server: ModelServer;
let store: ChatStore;
let service: ChatService;

beforeAll(async () => {
  server = await createModelServer();
  store = await openSqliteStore(path.join(mkdtempSync(path.join(tmpdir(), 'replay-')), 'chat.db'));
  service = (
    await chatContext(
      store,
      (s: ConversationSettings, o) =>
        new FnCallAgent({
          llm: createChatModel({
            model: o?.model ?? 'scripted',
            baseURL: server.url,
            apiKey: 'k',
            fncallMode: s.fncallMode,
            generateCfg: { max_retries: 0, ...s.generateCfg },
          }),
          functionList: s.tools,
          name: 'assistant',
          // As the app's factory (lib/chat/agents.ts): a continued run may make the limit's worth more.
          maxLlmCalls: 4 + (o?.callsBefore ?? 0),
        }),
    )
  ).chat;
});
afterAll(async () => {
  await store.close();
  await server.close();
});
beforeEach(() => server.reset());

async function drain(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

/** Calls the calculator on the first request of a turn, then answers with what the tool returned. */
function calculatorThenReadResult(req: RecordedRequest): ScriptedReply {
  const messages = req.body.messages as { role: string; content: string }[];
  const tool = messages.findLast((m) => m.role === 'tool');
  if (!tool || messages.at(-1)?.role === 'user') {
    return { toolCalls: [{ id: 'c1', name: 'calculator', arguments: '{"expression": "6*7"}' }] };
  }
  return { content: `The tool said ${tool.content}.` };
}

const settings = { tools: ['calculator'], fncallMode: 'native' as const };

describe('replay from step N', () => {
  it('with an edited tool result: the model is sent the edit, so the answer changes; the original run stays', async () => {
    server.setScenario(calculatorThenReadResult);
    const original = await service.send(ACTOR, { message: 'What is 6*7?', settings });
    const before = await drain(follow(service, OWNER, original.runId));
    expect(before.at(-1)).toMatchObject({ type: 'run-end', reason: 'answered' });
    expect(
      (await store.getRunEvents(OWNER, original.runId))
        .filter((e) => e.type === 'text-delta')
        .map((e) => 'text' in e && e.text)
        .join(''),
    ).toBe('The tool said 42.');
    const originalRequest2 = server.requests[1]!.body;

    // Replaying from iteration 2 unchanged sends exactly what the original iteration 2 was sent.
    const same = await service.replay(ACTOR, original.runId, { fromIteration: 2 });
    await drain(follow(service, OWNER, same.runId));
    expect(server.requests).toHaveLength(3);
    expect(server.requests[2]!.body.messages).toEqual(originalRequest2.messages);

    const edited = await service.replay(ACTOR, original.runId, {
      fromIteration: 2,
      toolResultEdits: [{ iteration: 1, functionId: 'c1', content: '41' }],
    });
    const events = await drain(follow(service, OWNER, edited.runId));
    expect(server.requests).toHaveLength(4); // iteration 1 was not asked again
    const sent = server.requests[3]!.body.messages as { role: string; content: string }[];
    expect(sent.find((m) => m.role === 'tool')?.content).toBe('41');
    const answer = events
      .filter((e) => e.type === 'text-delta')
      .map((e) => (e.type === 'text-delta' ? e.text : ''))
      .join('');
    expect(answer).toBe('The tool said 41.');

    // A new run of the same turn, whose log records the replay and holds the copied iteration 1 with the edit.
    expect(edited.turnId).toBe(original.turnId);
    const runs = await store.listRuns(OWNER, original.turnId);
    expect(runs.map((r) => r.id)).toEqual([original.runId, same.runId, edited.runId]);
    expect(await store.getRunEvents(OWNER, original.runId)).toEqual(before);
    const log = await store.getRunEvents(OWNER, edited.runId);
    expect(log[0]).toMatchObject({
      type: 'run-start',
      runId: edited.runId,
      replay: {
        of: original.runId,
        // The original's number among the message's runs, which labels the replay on the page.
        ofRun: 1,
        fromIteration: 2,
        toolResultEdits: [{ iteration: 1, functionId: 'c1', content: '41' }],
      },
    });
    expect(log.filter((e) => e.type === 'llm-start').map((e) => e.iteration)).toEqual([1, 2]);
    expect(log.find((e) => e.type === 'tool-result')).toMatchObject({
      iteration: 1,
      content: '41',
      runId: edited.runId,
    });
    expect(log.at(-1)).toMatchObject({ type: 'run-end', reason: 'answered', llmCalls: 2, toolCalls: 1 });
    // The copied iteration keeps its timings; the clock then goes on from there, never backwards.
    const firstCall = (events: AgentEvent[]) => events.find((e) => e.type === 'llm-end' && e.iteration === 1)!.t;
    expect(firstCall(log)).toBe(firstCall(before));
    expect(log.every((e, i) => i === 0 || e.t >= log[i - 1]!.t)).toBe(true);
    // The turn now answers with the replay, and the next turn's history says so.
    expect((await store.listTurns(OWNER, original.conversationId))[0]!.run?.id).toBe(edited.runId);
    expect((await service.history(OWNER, original.conversationId, 1)).map((m) => m.content)).toContain('41');

    // Comparing the two runs marks the edited result and the changed answer.
    const diff = compareRuns({ runId: original.runId, events: before }, { runId: edited.runId, events: log });
    expect(diff.toolCalls[0]!.result.changed).toBe(true);
    expect(
      diff.answer.right
        .filter((s) => s.op === 'add')
        .map((s) => s.text)
        .join(''),
    ).toContain('41');
    expect(diff.prompts.find((p) => p.iteration === 1)!.diff.changed).toBe(false);
    expect(diff.prompts.find((p) => p.iteration === 2)!.diff.changed).toBe(true);
  });

  it('with another model and other parameters, from iteration 1', async () => {
    server.setScenario(calculatorThenReadResult);
    const original = await service.send(ACTOR, {
      message: 'What is 6*7?',
      settings: { ...settings, generateCfg: { temperature: 0.9 } },
    });
    await drain(follow(service, OWNER, original.runId));
    server.reset();
    const replayed = await service.replay(ACTOR, original.runId, {
      fromIteration: 1,
      model: 'other-model',
      generateCfg: { temperature: 0.1, seed: 7 },
    });
    await drain(follow(service, OWNER, replayed.runId));
    expect(server.requests).toHaveLength(2);
    for (const r of server.requests) {
      expect(r.body).toMatchObject({ model: 'other-model', temperature: 0.1, seed: 7 });
    }
    expect((await store.getRunEvents(OWNER, replayed.runId))[0]).toMatchObject({
      type: 'run-start',
      model: 'other-model',
      replay: { fromIteration: 1, model: 'other-model', generateCfg: { temperature: 0.1, seed: 7 } },
    });
  });

  it('counts the copied iterations against the model-call limit', async () => {
    server.setScenario({ fallback: { toolCalls: [{ name: 'calculator', arguments: '{"expression": "1+1"}' }] } });
    const original = await service.send(ACTOR, { message: 'loop', settings });
    expect((await drain(follow(service, OWNER, original.runId))).at(-1)).toMatchObject({
      reason: 'max-iterations',
      llmCalls: 4,
    });
    server.reset();
    const replayed = await service.replay(ACTOR, original.runId, { fromIteration: 3 });
    expect((await drain(follow(service, OWNER, replayed.runId))).at(-1)).toMatchObject({
      reason: 'max-iterations',
      llmCalls: 4,
    });
    expect(server.requests).toHaveLength(2); // iterations 3 and 4 only
  });

  it('refuses a bad replay with a clear message and starts nothing', async () => {
    server.setScenario(calculatorThenReadResult);
    const original = await service.send(ACTOR, { message: 'What is 6*7?', settings });
    await drain(follow(service, OWNER, original.runId));
    const runs = (await store.listRuns(OWNER, original.turnId)).length;
    await expect(service.replay(ACTOR, 'nope', { fromIteration: 1 })).rejects.toThrow('Run nope does not exist.');
    await expect(service.replay(ACTOR, original.runId, { fromIteration: 5 })).rejects.toThrow('iterations 1 to 2');
    await expect(
      service.replay(ACTOR, original.runId, { fromIteration: 1, generateCfg: { temperature: NaN } }),
    ).rejects.toThrow(/generateCfg.temperature: .*must be a number/);
    await expect(
      service.replay(ACTOR, original.runId, { fromIteration: 1, generateCfg: { temperature: 99 } }),
    ).rejects.toThrow(/generateCfg.temperature: temperature must be between 0 and 2 \(got 99\)/);
    await expect(
      service.replay(ACTOR, original.runId, {
        fromIteration: 2,
        toolResultEdits: [{ iteration: 1, functionId: 'c1', content: 42 as unknown as string }],
      }),
    ).rejects.toThrow(/toolResultEdits.0.content/);
    expect(await store.listRuns(OWNER, original.turnId)).toHaveLength(runs);
  });
});

describe('Continue after the model-call limit', () => {
  const settings: Partial<ConversationSettings> = { tools: ['calculator'] };

  it('goes on with the same run’s work: its iterations kept, the model sent all of it, then the limit’s worth more', async () => {
    // Three rounds of tool calls then an answer that names how many results it was given.
    server.setScenario((req) => {
      const results = (req.body.messages as { role: string }[]).filter((m) => m.role === 'tool').length;
      return results < 6
        ? { toolCalls: [{ id: `c${results}`, name: 'calculator', arguments: `{"expression": "${results}+1"}` }] }
        : { content: `Done after ${results} results.` };
    });
    const stopped = await service.send(ACTOR, { message: 'count up', settings });
    expect((await drain(follow(service, OWNER, stopped.runId))).at(-1)).toMatchObject({
      reason: 'max-iterations',
      llmCalls: 4,
    });
    server.reset();
    const continued = await service.continueRun(ACTOR, stopped.runId);
    expect(continued.turnId).toBe(stopped.turnId);
    const events = await drain(follow(service, OWNER, continued.runId));
    // Not one model call was made again: the first request carries the four iterations' calls and results.
    const first = server.requests[0]!.body.messages as { role: string }[];
    expect(first.filter((m) => m.role === 'tool')).toHaveLength(4);
    expect(events.find((e) => e.type === 'run-start')).toMatchObject({
      maxLlmCalls: 8,
      replay: { of: stopped.runId, ofRun: 1, continued: true, fromIteration: 5 },
    });
    expect(events.filter((e) => e.type === 'tool-result')).toHaveLength(6); // four copied, two new
    expect(events.at(-1)).toMatchObject({ type: 'run-end', reason: 'answered', llmCalls: 7 });
    expect(events.findLast((e) => e.type === 'text-delta')).toMatchObject({ iteration: 7 });
    expect((await store.listRuns(OWNER, stopped.turnId)).map((r) => r.status)).toEqual(['max-iterations', 'answered']);
  });

  it('only for a run that stopped at the limit, and only the owner’s', async () => {
    server.setScenario(calculatorThenReadResult);
    const answered = await service.send(ACTOR, { message: 'What is 6*7?', settings });
    await drain(follow(service, OWNER, answered.runId));
    await expect(service.continueRun(ACTOR, answered.runId)).rejects.toThrow(
      'Only a run stopped at the model-call limit can be continued.',
    );
    await expect(service.continueRun(everyToolActor(ownerScope('owner-b')), answered.runId)).rejects.toMatchObject({
      status: 404,
    });
    expect(await store.listRuns(OWNER, answered.turnId)).toHaveLength(1);
  });
});

describe('pause before tools', () => {
  async function pausedRun(word: string) {
    server.setScenario(calculatorThenReadResult);
    const run = await service.send(ACTOR, {
      message: `What is 6*7? ${word}`,
      settings: { ...settings, pauseBeforeTools: true },
    });
    const events: AgentEvent[] = [];
    const reading = (async () => {
      for await (const e of follow(service, OWNER, run.runId)) events.push(e);
    })();
    await waitFor(() => events.some((e) => e.type === 'tool-approval'));
    return { run, events, reading };
  }

  it('stops before the call and runs it with the edited arguments', async () => {
    const { run, events, reading } = await pausedRun('edit');
    expect(events.find((e) => e.type === 'tool-approval')).toMatchObject({
      functionId: 'c1',
      name: 'calculator',
      arguments: '{"expression": "6*7"}',
    });
    expect(events.some((e) => e.type === 'tool-result')).toBe(false);
    expect((await store.getRun(OWNER, run.runId))?.status).toBe('running');
    await expect(service.decideTool(ACTOR, run.runId, 'c9', { action: 'skip' })).rejects.toThrow(
      'not waiting for tool call c9',
    );
    await expect(service.decideTool(ACTOR, run.runId, 'c1', { action: 'explode' })).rejects.toThrow('A decision is');

    await service.decideTool(ACTOR, run.runId, 'c1', { action: 'run', arguments: '{"expression": "2+3"}' });
    await reading;
    // The decision is logged as it is taken, before the call runs; the result says what it ran with.
    const decided = events.findIndex((e) => e.type === 'tool-decision');
    expect(events[decided]).toMatchObject({
      functionId: 'c1',
      decision: { action: 'run', arguments: '{"expression": "2+3"}' },
    });
    expect(events.findIndex((e) => e.type === 'tool-result')).toBeGreaterThan(decided);
    expect(events.find((e) => e.type === 'tool-result')).toMatchObject({
      ok: true,
      content: '5',
      arguments: '{"expression": "2+3"}',
    });
    const sent = server.requests[1]!.body.messages as {
      role: string;
      content: string;
      tool_calls?: { function: { arguments: string } }[];
    }[];
    expect(sent.find((m) => m.tool_calls)?.tool_calls?.[0]?.function.arguments).toBe('{"expression": "2+3"}');
    expect(sent.find((m) => m.role === 'tool')?.content).toBe('5');
    expect(events.at(-1)).toMatchObject({ type: 'run-end', reason: 'answered' });
    // The next turn sees the call as it ran.
    const history = await service.history(OWNER, run.conversationId, 1);
    expect(history.find((m) => m.function_call)?.function_call?.arguments).toBe('{"expression": "2+3"}');
  });

  it('skips the async call: the model is told the user skipped it', async () => {
    const { run, events, reading } = await pausedRun('skip');
    await service.decideTool(ACTOR, run.runId, 'c1', { action: 'skip' });
    await reading;
    expect(events.find((e) => e.type === 'tool-decision')).toMatchObject({ decision: { action: 'skip' } });
    expect(events.find((e) => e.type === 'tool-result')).toMatchObject({ content: SKIPPED_BY_USER });
    expect(server.requests[1]!.body.messages.find((m: { role: string }) => m.role === 'tool').content).toBe(
      SKIPPED_BY_USER,
    );
  });

  it('takes a result supplied by hand instead of running the tool', async () => {
    const { run, events, reading } = await pausedRun('supply');
    await service.decideTool(ACTOR, run.runId, 'c1', { action: 'supply', content: 'forty-two' });
    await reading;
    expect(events.find((e) => e.type === 'tool-decision')).toMatchObject({ decision: { action: 'supply' } });
    expect(events.find((e) => e.type === 'tool-result')).toMatchObject({ content: 'forty-two' });
    expect(
      events
        .filter((e) => e.type === 'text-delta')
        .map((e) => (e.type === 'text-delta' ? e.text : ''))
        .join(''),
    ).toBe('The tool said forty-two.');
  });

  it('still stops while paused', async () => {
    const { run, events, reading } = await pausedRun('stop');
    expect(await service.stop(ACTOR, run.runId)).toBe(true);
    await reading;
    expect(events.at(-1)).toMatchObject({ type: 'run-end', reason: 'aborted' });
    expect((await store.getRun(OWNER, run.runId))?.status).toBe('aborted');
    expect(server.requests).toHaveLength(1);
  });
});

async function waitFor(check: () => boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}
