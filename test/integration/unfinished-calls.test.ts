// A run that ends while a tool call runs, on a real SQLite file, the chat service driving FnCallAgent against the
// scripted model server over HTTP: the server stopping (its shutdown marks the run interrupted), the store failing
// (another program holds the file's write lock past the store's wait), and the user's Stop. Each time the page's view
// of the stored run says the running call was interrupted (or stopped) and the call after it was not run, and the
// next message's request answers every tool_call with a tool message, as OpenAI-compatible servers require.
// Before: the running call read "Not run", and the next request held tool_calls that no tool message answered.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FnCallAgent, type AgentEvent } from '../../lib/agent';
import { STOPPED_WHILE_RUNNING } from '../../lib/agent/tool-call';
import { everyToolActor } from '../../lib/chat/actor';
import type { ChatService } from '../../lib/chat/service';
import { foldRun, markInterrupted, type ToolBlock } from '../../lib/chat/view';
import { createChatModel } from '../../lib/llm';
import { openSqliteStore } from '../../lib/store';
import { ownerScope } from '../../lib/store/owner';
import type { ChatStore, ConversationSettings } from '../../lib/store/types';
import { BaseTool, createTool } from '../../tools';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { chatContext, follow } from '../support/chat';
import { holdWriteLock } from '../support/sqlite-faults';

const OWNER = ownerScope('owner-a');
const ACTOR = everyToolActor(OWNER);
const RUN_FAILED = 'The run failed while this call was running; it has no result.';
const SERVER_STOPPED = 'The server stopped while this call was running; it has no result.';
const NOT_RUN = 'The run ended before this call started; it was not run.';

/** Sleeps the milliseconds it is given, without heeding its signal (as a remote tool may not). */
class Sleeper extends BaseTool {
  name = 'sleeper';
  description = 'Sleeps for ms milliseconds';
  parameters = { type: 'object', properties: { ms: { type: 'number' } }, required: ['ms'] };
  async call(params: string): Promise<string> {
    const { ms } = this.parseArgs<{ ms: number }>(params);
    await new Promise((r) => setTimeout(r, ms).unref());
    return `slept ${ms}`;
  }
}

let server: ModelServer;
const opened: { store: ChatStore; dir: string }[] = [];

beforeAll(async () => {
  server = await createModelServer();
});
afterEach(async () => {
  for (const { store, dir } of opened.splice(0)) {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
afterAll(async () => {
  await server?.close();
});

/** The chat service over a SQLite file of its own (a lock held past `busyWaitMs` fails a write). */
async function serviceOn(busyWaitMs = 1_500) {
  const dir = mkdtempSync(path.join(tmpdir(), 'unfinished-calls-'));
  const file = path.join(dir, 'agent-studio.db');
  const store = await openSqliteStore(file, { busyWaitMs });
  opened.push({ store, dir });
  const agents = (s: ConversationSettings) =>
    new FnCallAgent({
      llm: createChatModel({ model: 'scripted', baseURL: server.url, apiKey: 'k', generateCfg: { max_retries: 0 } }),
      functionList: s.tools.map((name) => (name === 'sleeper' ? new Sleeper() : createTool(name))),
    });
  const { chat } = await chatContext(store, agents, { DATA_DIR: dir });
  return { chat, store, file };
}

/** Two calls in one response: the first sleeps `ms`, the second would run after it. Later messages are answered. */
function twoCalls(word: string, ms: number) {
  server.setScenario({
    rules: [
      {
        when: { lastUserIncludes: word },
        reply: {
          toolCalls: [
            { id: 'call_a', name: 'sleeper', arguments: JSON.stringify({ ms }) },
            { id: 'call_b', name: 'sleeper', arguments: '{"ms": 1}' },
          ],
        },
      },
      { when: {}, reply: { content: 'Noted.' } },
    ],
  });
  server.reset();
}

/** Reads `events` until one matches (the rest stay to be read). */
async function until(events: AsyncGenerator<AgentEvent>, match: (e: AgentEvent) => boolean): Promise<AgentEvent> {
  for (;;) {
    const { value, done } = await events.next();
    if (done) throw new Error('the run ended first');
    if (match(value)) return value;
  }
}

/** The tool cards of the conversation's first turn as the page draws them after a reload (foldStored in
 *  components/chat/store.ts): status, and which sentence a call without a result says. */
async function reloadedCards(chat: ChatService, conversationId: string) {
  const [turn] = (await chat.openConversation(ACTOR, conversationId)).turns;
  const view = foldRun(turn!.runId!, turn!.events);
  if (turn!.runStatus === 'interrupted') markInterrupted(view);
  return {
    status: turn!.runStatus,
    cards: (view.blocks.filter((b) => b.kind === 'tool') as ToolBlock[]).map((b) => [b.status, b.error?.type]),
  };
}

/** The next message's model request: each tool_call of the history with what the tool message answering it says. */
async function nextRequest(chat: ChatService, conversationId: string) {
  const next = await chat.send(ACTOR, { message: 'What happened?', conversationId });
  const end = await until(follow(chat, OWNER, next.runId), (e) => e.type === 'run-end');
  expect(end).toMatchObject({ reason: 'answered' });
  const messages = server.requests.at(-1)!.body.messages as {
    role: string;
    content: string | null;
    tool_call_id?: string;
    tool_calls?: { id: string }[];
  }[];
  const answers = new Map(messages.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id, m.content]));
  return messages.flatMap((m) => m.tool_calls ?? []).map((c) => [c.id, answers.get(c.id)]);
}

describe('a tool call running when its run ended', () => {
  it('the server stopped (its shutdown): interrupted, the call after it not run, both answered next turn', async () => {
    const { chat } = await serviceOn();
    twoCalls('plover', 30_000);
    const started = await chat.send(ACTOR, { message: 'Watch the plover', settings: { tools: ['sleeper'] } });
    const events = follow(chat, OWNER, started.runId);
    await until(events, (e) => e.type === 'tool-call' && e.functionId === 'call_b');
    expect(await chat.runs.interruptAll()).toBe(1);

    expect(await reloadedCards(chat, started.conversationId)).toEqual({
      status: 'interrupted',
      cards: [
        ['interrupted', 'ServerStopped'],
        ['error', 'NotRun'],
      ],
    });
    expect(await nextRequest(chat, started.conversationId)).toEqual([
      ['call_a', SERVER_STOPPED],
      ['call_b', NOT_RUN],
    ]);
  });

  it('the store failed (a lock held past its wait): interrupted, and the history the same once it is stored', async () => {
    const { chat, store, file } = await serviceOn(1_500);
    twoCalls('avocet', 300);
    const started = await chat.send(ACTOR, { message: 'Watch the avocet', settings: { tools: ['sleeper'] } });
    const events = follow(chat, OWNER, started.runId);
    await until(events, (e) => e.type === 'tool-call' && e.functionId === 'call_b');
    // The call runs; its result cannot be written, and the run ends saying why.
    const lock = await holdWriteLock(file);
    const seen = [await until(events, (e) => e.type === 'run-end')];
    expect(seen[0]).toMatchObject({ reason: 'error', error: { name: 'StoreError' } });
    await lock.release();
    for (let i = 0; i < 100 && (await store.getRun(OWNER, started.runId))?.status === 'running'; i++)
      await new Promise((r) => setTimeout(r, 100));

    expect(await reloadedCards(chat, started.conversationId)).toEqual({
      status: 'error',
      cards: [
        ['interrupted', 'RunFailed'],
        ['error', 'NotRun'],
      ],
    });
    expect(await nextRequest(chat, started.conversationId)).toEqual([
      ['call_a', RUN_FAILED],
      ['call_b', NOT_RUN],
    ]);
  });

  it('the user stopped it: stopped (its own result), the call after it not run, both answered next turn', async () => {
    const { chat } = await serviceOn();
    twoCalls('stilt', 30_000);
    const started = await chat.send(ACTOR, { message: 'Watch the stilt', settings: { tools: ['sleeper'] } });
    const events = follow(chat, OWNER, started.runId);
    await until(events, (e) => e.type === 'tool-call' && e.functionId === 'call_b');
    await chat.stop(ACTOR, started.runId);
    await until(events, (e) => e.type === 'run-end');

    expect(await reloadedCards(chat, started.conversationId)).toEqual({
      status: 'aborted',
      cards: [
        ['stopped', 'Stopped'],
        ['error', 'NotRun'],
      ],
    });
    expect(await nextRequest(chat, started.conversationId)).toEqual([
      ['call_a', STOPPED_WHILE_RUNNING],
      ['call_b', NOT_RUN],
    ]);
  });
});
