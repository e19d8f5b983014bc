// The chat service over a real SQLite file and the scripted model server over HTTP.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FnCallAgent, type AgentEvent } from '../../lib/agent';
import type { ChatService } from '../../lib/chat/service';
import { runFeed } from '../../lib/chat/feed';
import type { FeedEvent } from '../../lib/protocol/events';
import { openSqliteStore } from '../../lib/store';
import type { ChatStore, ConversationSettings } from '../../lib/store/types';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
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
  store = await openSqliteStore(path.join(mkdtempSync(path.join(tmpdir(), 'chat-service-')), 'chat.db'));
  service = (
    await chatContext(
      store,
      (s: ConversationSettings) =>
        new FnCallAgent({
          llm: createChatModel({
            model: 'scripted',
            baseURL: server.url,
            apiKey: 'k',
            fncallMode: s.fncallMode,
            generateCfg: { max_retries: 0, ...s.generateCfg },
          }),
          functionList: s.tools,
          name: 'assistant',
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

describe('ChatService', () => {
  it('stores every event of a run as it streams, titles a new conversation, and feeds earlier answers to the next turn', async () => {
    server.setScenario({
      replies: [
        { toolCalls: [{ id: 'c1', name: 'calculator', arguments: '{"expression":"6*7"}' }] },
        { content: 'It is 42.' },
        { content: 'You asked about 6*7.' },
      ],
    });
    const first = await service.send(ACTOR, { message: 'What is 6*7?' });
    const events = await drain(follow(service, OWNER, first.runId));
    expect(events.at(-1)).toMatchObject({ type: 'run-end', reason: 'answered' });
    expect(await store.getRunEvents(OWNER, first.runId)).toEqual(events);
    expect((await store.getRun(OWNER, first.runId))?.status).toBe('answered');
    expect((await store.getConversation(OWNER, first.conversationId))?.title).toBe('What is 6*7?');

    const second = await service.send(ACTOR, { conversationId: first.conversationId, message: 'What did I ask?' });
    await drain(follow(service, OWNER, second.runId));
    const sent = server.requests[2]!.body.messages;
    expect(sent.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
    expect(sent[3].content).toBe('It is 42.');
    expect((await store.listConversations(OWNER, '42')).map((c) => c.id)).toEqual([first.conversationId]);
  });

  it('regenerates a turn as a new run and drops later turns; edit-and-resend replaces the message', async () => {
    server.setScenario({ fallback: 'echo' });
    const a = await service.send(ACTOR, { message: 'one' });
    await drain(follow(service, OWNER, a.runId));
    const b = await service.send(ACTOR, { conversationId: a.conversationId, message: 'two' });
    await drain(follow(service, OWNER, b.runId));
    const again = await service.regenerate(ACTOR, a.turnId);
    await drain(follow(service, OWNER, again.runId));
    let turns = await store.listTurns(OWNER, a.conversationId);
    expect(turns).toHaveLength(1);
    expect(turns[0]!.runCount).toBe(2);
    expect(turns[0]!.run?.id).toBe(again.runId);

    const edited = await service.editAndResend(ACTOR, a.turnId, 'uno');
    await drain(follow(service, OWNER, edited.runId));
    turns = await store.listTurns(OWNER, a.conversationId);
    expect(turns.map((t) => t.turn.content)).toEqual(['uno']);
    expect(server.requests.at(-1)!.body.messages).toEqual([{ role: 'user', content: 'uno' }]);
  });

  it('keeps every answer of a regenerated turn reachable, oldest first; another user reaches none', async () => {
    server.setScenario({ replies: [{ content: 'First answer.' }, { content: 'Second answer.' }] });
    const a = await service.send(ACTOR, { message: 'Tell me something.' });
    await drain(follow(service, OWNER, a.runId));
    const again = await service.regenerate(ACTOR, a.turnId);
    await drain(follow(service, OWNER, again.runId));
    const text = (events: FeedEvent[]) => events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join('');
    const first = await service.turnAnswer(ACTOR, a.turnId, 1);
    expect(first).toMatchObject({ n: 1, count: 2, runId: a.runId, runStatus: 'answered' });
    expect(text(first.events)).toBe('First answer.');
    const second = await service.turnAnswer(ACTOR, a.turnId, 2);
    expect(second).toMatchObject({ n: 2, count: 2, runId: again.runId });
    expect(text(second.events)).toBe('Second answer.');
    // The feed the page gets: no requests or history in it.
    expect(JSON.stringify(first.events)).not.toContain('"input"');
    expect((await service.turnAnswer(ACTOR, a.turnId, 7)).n).toBe(2);
    expect((await service.turnAnswer(ACTOR, a.turnId, 0)).n).toBe(1);
    await expect(service.turnAnswer(everyToolActor(ownerScope('owner-b')), a.turnId, 1)).rejects.toMatchObject({
      status: 404,
    });
  });

  it('stops a run by id, and a reader that leaves stops it too; both end as aborted in the store', async () => {
    server.setScenario({ fallback: { content: 'x'.repeat(400), chunkSize: 1, delayMs: 5 } });
    const run = await service.send(ACTOR, { message: 'long' });
    const reading = drain(follow(service, OWNER, run.runId));
    await new Promise((r) => setTimeout(r, 100));
    expect(await service.stop(ACTOR, run.runId)).toBe(true);
    expect((await reading).at(-1)).toMatchObject({ type: 'run-end', reason: 'aborted' });
    expect((await store.getRun(OWNER, run.runId))?.status).toBe('aborted');
    expect(await service.stop(ACTOR, run.runId)).toBe(false);

    const left = await service.send(ACTOR, { message: 'long again' });
    for await (const e of follow(service, OWNER, left.runId, { onLeave: () => void service.stop(ACTOR, left.runId) }))
      if (e.type === 'text-delta') break;
    await new Promise((r) => setTimeout(r, 200));
    expect((await store.getRun(OWNER, left.runId))?.status).toBe('aborted');
    expect((await store.getRunEvents(OWNER, left.runId)).at(-1)?.type).toBe('run-end');
  });

  it('stops the runs of a conversation about to be deleted, and waits until they have ended', async () => {
    server.setScenario({ fallback: { content: 'x'.repeat(400), chunkSize: 1, delayMs: 5 } });
    const run = await service.send(ACTOR, { message: 'long' });
    const other = await service.send(ACTOR, { message: 'another conversation' });
    const reading = drain(follow(service, OWNER, run.runId));
    await new Promise((r) => setTimeout(r, 100));

    await service.runs.stopConversation(OWNER, run.conversationId);
    expect((await store.getRun(OWNER, run.runId))?.status).toBe('aborted');
    expect((await reading).at(-1)).toMatchObject({ type: 'run-end', reason: 'aborted' });
    expect((await store.getRun(OWNER, other.runId))?.status).toBe('running'); // another conversation's run goes on
    await store.deleteConversation(OWNER, run.conversationId);
    expect(await store.getConversation(OWNER, run.conversationId)).toBeUndefined();

    await drain(follow(service, OWNER, other.runId));
    expect((await store.getRun(OWNER, other.runId))?.status).toBe('answered');
  });

  it("runs the agent in the page's language unless the conversation's settings name one", async () => {
    server.setScenario({ fallback: 'echo' });
    const langOf = async (run: { runId: string }) =>
      (await drain(follow(service, OWNER, run.runId))).find((e) => e.type === 'run-start');
    const page = await service.send(ACTOR, { message: 'Hello', lang: 'zh' });
    expect(await langOf(page)).toMatchObject({ lang: 'zh' });
    // Without a page language the messages decide, as in Qwen-Agent.
    expect(await langOf(await service.regenerate(ACTOR, page.turnId))).toMatchObject({ lang: 'en' });
    expect(await langOf(await service.regenerate(ACTOR, page.turnId, 'en'))).toMatchObject({ lang: 'en' });

    await store.updateSettings(OWNER, page.conversationId, { lang: 'en' });
    const set = await service.send(ACTOR, { conversationId: page.conversationId, message: 'Again', lang: 'zh' });
    expect(await langOf(set)).toMatchObject({ lang: 'en' });
    await store.updateSettings(OWNER, page.conversationId, { lang: 'auto' });
    expect(await langOf(await service.editAndResend(ACTOR, set.turnId, 'Once more', 'zh'))).toMatchObject({
      lang: 'zh',
    });
    // A language the agent has no prompts for is refused at the door.
    await expect(service.send(ACTOR, { message: 'Hi', lang: 'fr' as never })).rejects.toThrow(
      '"lang" must be "en" or "zh"',
    );
  });

  it('refuses an empty message and an unknown tool before storing anything', async () => {
    const before = (await store.listConversations(OWNER)).length;
    await expect(service.send(ACTOR, { message: '   ' })).rejects.toThrow('"message" must be a non-empty string.');
    await expect(service.send(ACTOR, { message: 'hi', settings: { tools: ['nope'] } })).rejects.toThrow(/nope/);
    // Generation settings no model server takes: refused here with the reason, not by the model server later.
    await expect(
      service.send(ACTOR, { message: 'hi', settings: { generateCfg: { temperature: 99 } } }),
    ).rejects.toThrow('temperature must be between 0 and 2 (got 99).');
    await expect(
      service.send(ACTOR, { message: 'hi', settings: { generateCfg: { max_tokens: -5, top_p: 0.9 } } }),
    ).rejects.toThrow('max_tokens must be at least 1 (got -5).');
    expect(await store.listConversations(OWNER)).toHaveLength(before);
  });

  it('gives the browser merged deltas without the requests and history, so bytes grow with the answer', async () => {
    const answer = 'word '.repeat(400);
    server.setScenario({ fallback: { content: answer, chunkSize: 4 } });
    const run = await service.send(ACTOR, { message: 'write' });
    // The one feed the page and POST /api/chat read (lib/chat/feed.ts), live.
    const browser: FeedEvent[] = [];
    for await (const e of runFeed(service.runs, store, OWNER, run.runId, { stopOnLeave: false })) browser.push(e);
    const all = await store.getRunEvents(OWNER, run.runId);
    expect(browser.length).toBeLessThan(all.length / 10);
    expect(browser.find((e) => e.type === 'llm-start')).not.toHaveProperty('request');
    expect(browser.find((e) => e.type === 'run-start')).not.toHaveProperty('input');
    // The run id is said once, in the reply that starts the run; the per-call llm-end is inspector data.
    expect(browser.some((e) => 'runId' in e)).toBe(false);
    expect(browser.some((e) => e.type === 'llm-end')).toBe(false);
    expect(browser.at(-1)).toMatchObject({ type: 'run-end', reason: 'answered' });
    expect(
      browser
        .filter((e) => e.type === 'text-delta')
        .map((e) => (e.type === 'text-delta' ? e.text : ''))
        .join(''),
    ).toBe(answer);
    const bytes = browser.reduce((n, e) => n + JSON.stringify(e).length, 0);
    expect(bytes / answer.length).toBeLessThan(1.5);
  });
});
