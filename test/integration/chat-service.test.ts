// The chat service over a real SQLite file and the scripted model server over HTTP.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FnCallAgent, type AgentEvent } from '../../lib/agent';
import { ChatService } from '../../lib/chat/service';
import { coalesce } from '../../lib/chat/live-run';
import { forBrowser, type FeedEvent } from '../../lib/chat/browser-feed';
import { openSqliteStore } from '../../lib/store/sqlite';
import type { ChatStore, ConversationSettings } from '../../lib/store/types';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';

let server: ModelServer;
let store: ChatStore;
let service: ChatService;

beforeAll(async () => {
  server = await createModelServer();
  store = openSqliteStore(path.join(mkdtempSync(path.join(tmpdir(), 'chat-service-')), 'chat.db'));
  service = new ChatService(
    store,
    (s: ConversationSettings) =>
      new FnCallAgent({
        llm: {
          model: 'scripted',
          baseURL: server.url,
          apiKey: 'k',
          fncallMode: s.fncallMode,
          generateCfg: { max_retries: 0, ...s.generateCfg },
        },
        functionList: s.tools,
        name: 'assistant',
      }),
  );
});
afterAll(async () => {
  store.close();
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
    const first = service.send({ content: 'What is 6*7?' });
    const events = await drain(first.live.follow());
    expect(events.at(-1)).toMatchObject({ type: 'run-end', reason: 'answered' });
    expect(store.getRunEvents(first.runId)).toEqual(events);
    expect(store.getRun(first.runId)?.status).toBe('answered');
    expect(store.getConversation(first.conversationId)?.title).toBe('What is 6*7?');

    const second = service.send({ conversationId: first.conversationId, content: 'What did I ask?' });
    await drain(second.live.follow());
    const sent = server.requests[2]!.body.messages;
    expect(sent.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
    expect(sent[3].content).toBe('It is 42.');
    expect(store.listConversations('42').map((c) => c.id)).toEqual([first.conversationId]);
  });

  it('regenerates a turn as a new run and drops later turns; edit-and-resend replaces the message', async () => {
    server.setScenario({ fallback: 'echo' });
    const a = service.send({ content: 'one' });
    await drain(a.live.follow());
    const b = service.send({ conversationId: a.conversationId, content: 'two' });
    await drain(b.live.follow());
    const again = service.regenerate(a.turnId);
    await drain(again.live.follow());
    let turns = store.listTurns(a.conversationId);
    expect(turns).toHaveLength(1);
    expect(turns[0]!.runCount).toBe(2);
    expect(turns[0]!.run?.id).toBe(again.runId);

    const edited = service.editAndResend(a.turnId, 'uno');
    await drain(edited.live.follow());
    turns = store.listTurns(a.conversationId);
    expect(turns.map((t) => t.turn.content)).toEqual(['uno']);
    expect(server.requests.at(-1)!.body.messages).toEqual([{ role: 'user', content: 'uno' }]);
  });

  it('stops a run by id, and a reader that leaves stops it too; both end as aborted in the store', async () => {
    server.setScenario({ fallback: { content: 'x'.repeat(400), chunkSize: 1, delayMs: 5 } });
    const run = service.send({ content: 'long' });
    const reading = drain(run.live.follow());
    await new Promise((r) => setTimeout(r, 100));
    expect(service.stop(run.runId)).toBe(true);
    expect((await reading).at(-1)).toMatchObject({ type: 'run-end', reason: 'aborted' });
    expect(store.getRun(run.runId)?.status).toBe('aborted');
    expect(service.stop(run.runId)).toBe(false);

    const left = service.send({ content: 'long again' });
    for await (const e of left.live.follow({ onLeave: () => left.live.stop() })) if (e.type === 'text-delta') break;
    await new Promise((r) => setTimeout(r, 200));
    expect(store.getRun(left.runId)?.status).toBe('aborted');
    expect(store.getRunEvents(left.runId).at(-1)?.type).toBe('run-end');
  });

  it('stops the runs of a conversation about to be deleted, and waits until they have ended', async () => {
    server.setScenario({ fallback: { content: 'x'.repeat(400), chunkSize: 1, delayMs: 5 } });
    const run = service.send({ content: 'long' });
    const other = service.send({ content: 'another conversation' });
    const reading = drain(run.live.follow());
    await new Promise((r) => setTimeout(r, 100));

    await service.stopConversation(run.conversationId);
    expect(run.live.done).toBe(true);
    expect(store.getRun(run.runId)?.status).toBe('aborted');
    expect((await reading).at(-1)).toMatchObject({ type: 'run-end', reason: 'aborted' });
    expect(other.live.done).toBe(false); // another conversation's run goes on
    store.deleteConversation(run.conversationId);
    expect(store.getConversation(run.conversationId)).toBeUndefined();

    await drain(other.live.follow());
    expect(store.getRun(other.runId)?.status).toBe('answered');
  });

  it("runs the agent in the page's language unless the conversation's settings name one", async () => {
    server.setScenario({ fallback: 'echo' });
    const langOf = async (run: { live: { follow(): AsyncIterable<AgentEvent> } }) =>
      (await drain(run.live.follow())).find((e) => e.type === 'run-start');
    const page = service.send({ content: 'Hello', lang: 'zh' });
    expect(await langOf(page)).toMatchObject({ lang: 'zh' });
    // Without a page language the messages decide, as in Qwen-Agent.
    expect(await langOf(service.regenerate(page.turnId))).toMatchObject({ lang: 'en' });
    expect(await langOf(service.regenerate(page.turnId, 'en'))).toMatchObject({ lang: 'en' });

    store.updateSettings(page.conversationId, { lang: 'en' });
    const set = service.send({ conversationId: page.conversationId, content: 'Again', lang: 'zh' });
    expect(await langOf(set)).toMatchObject({ lang: 'en' });
    store.updateSettings(page.conversationId, { lang: 'auto' });
    expect(await langOf(service.editAndResend(set.turnId, 'Once more', 'zh'))).toMatchObject({ lang: 'zh' });
  });

  it('refuses an empty message and an unknown tool before storing anything', () => {
    const before = store.listConversations().length;
    expect(() => service.send({ content: '   ' })).toThrow('The message is empty.');
    expect(() => service.send({ content: 'hi', settings: { tools: ['nope'] } })).toThrow(/nope/);
    expect(store.listConversations()).toHaveLength(before);
  });

  it('gives the browser merged deltas without the requests and history, so bytes grow with the answer', async () => {
    const answer = 'word '.repeat(400);
    server.setScenario({ fallback: { content: answer, chunkSize: 4 } });
    const run = service.send({ content: 'write' });
    const all = await drain(run.live.follow());
    const browser = coalesce(all)
      .map(forBrowser)
      .filter((e): e is FeedEvent => e !== undefined);
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
