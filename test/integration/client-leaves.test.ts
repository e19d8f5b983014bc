// A client that leaves mid-run stops the run in every phase of it, quiet ones included: the run's feed is read the
// way POST /api/chat serves it (lib/chat/sse.ts), over the chat service, a real SQLite file and the scripted model
// server over HTTP, whose replies never finish (ScriptedReply.endless). Cancelling the response body is what the
// server does when the connection closes. Before leavable.ts, a run quiet at that moment (streaming tool-call
// arguments, running a tool, waiting for a decision) never heard of it: it stayed `running` and kept the model's
// stream open.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FnCallAgent } from '../../lib/agent';
import { STOPPED_WHILE_RUNNING } from '../../lib/agent/tool-call';
import { everyToolActor } from '../../lib/chat/actor';
import { runFeed } from '../../lib/chat/feed';
import type { ChatService } from '../../lib/chat/service';
import { feedResponse } from '../../lib/chat/sse';
import { createChatModel } from '../../lib/llm';
import type { ScriptedReply } from '../../lib/protocol/fixture';
import { ownerScope } from '../../lib/store/owner';
import { openSqliteStore } from '../../lib/store';
import type { ChatStore, ConversationSettings } from '../../lib/store/types';
import { BaseTool, createTool } from '../../tools';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { chatContext } from '../support/chat';

const OWNER = ownerScope('owner-a');
const ACTOR = everyToolActor(OWNER);

/** A tool that takes half a minute and does not heed its signal (as a plugin's or a remote tool may not). */
class DeafSleeper extends BaseTool {
  name = 'deaf_sleeper';
  description = 'Sleeps for half a minute, whatever happens';
  parameters = { type: 'object', properties: {} };
  async call(): Promise<string> {
    await new Promise((r) => setTimeout(r, 30_000).unref());
    return 'slept';
  }
}

let server: ModelServer;
let store: ChatStore;
let service: ChatService;

beforeAll(async () => {
  server = await createModelServer();
  store = await openSqliteStore(path.join(mkdtempSync(path.join(tmpdir(), 'client-leaves-')), 'chat.db'));
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
          functionList: s.tools.map((name) => (name === 'deaf_sleeper' ? new DeafSleeper() : createTool(name))),
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

/** The run's SSE answer, read event by event as a client reads it. */
async function openFeed(runId: string) {
  const reader = feedResponse(runFeed(service.runs, store, OWNER, runId, { stopOnLeave: true }))
    .body!.pipeThrough(new TextDecoderStream())
    .getReader();
  let buffer = '';
  return {
    async until(type: string): Promise<void> {
      for (;;) {
        const at = buffer.indexOf(`"type":"${type}"`);
        if (at >= 0) return void (buffer = buffer.slice(at + 1));
        const { done, value } = await reader.read();
        if (done) throw new Error(`the feed ended before a ${type} event`);
        buffer += value;
      }
    },
    leave: () => reader.cancel(),
  };
}

/** Fails when the run is still going after 10 s (the fault: it went on for good). */
async function endedSoon(runId: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`run ${runId} still going 10 s after its client left`)), 10_000);
  });
  try {
    await Promise.race([service.runs.ended(runId), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The model server's record of the run's model request, once its connection has closed. */
async function closedRequest() {
  for (let i = 0; i < 100 && server.requests[0]?.closedAt === undefined; i++)
    await new Promise((r) => setTimeout(r, 20));
  return server.requests[0];
}

async function leaveDuring(
  reply: ScriptedReply,
  settings: Partial<ConversationSettings>,
  seen: string,
  quietMs = 300,
): Promise<string> {
  server.setScenario({ replies: [reply] });
  const started = await service.send(ACTOR, { message: 'Go on, forever', settings });
  const feed = await openFeed(started.runId);
  await feed.until(seen);
  await new Promise((r) => setTimeout(r, quietMs)); // the run goes on quietly meanwhile
  expect((await store.getRun(OWNER, started.runId))?.status).toBe('running');
  await feed.leave();
  await endedSoon(started.runId);
  expect((await store.getRun(OWNER, started.runId))?.status).toBe('aborted');
  const events = await store.getRunEvents(OWNER, started.runId);
  expect(events.at(-1)).toMatchObject({ type: 'run-end', reason: 'aborted' });
  return started.runId;
}

describe('a client that leaves stops the run, whatever it is doing', () => {
  it('while the model streams text, and closes the model request', async () => {
    await leaveDuring({ content: 'Once upon a time ', endless: 'text', delayMs: 10 }, { tools: [] }, 'text-delta');
    expect(await closedRequest()).toMatchObject({ finished: false });
  });

  it('while the model streams reasoning, and closes the model request', async () => {
    await leaveDuring({ reasoning: 'Hmm. ', endless: 'reasoning', delayMs: 10 }, { tools: [] }, 'reasoning-delta');
    expect(await closedRequest()).toMatchObject({ finished: false });
  });

  it('while the model streams tool-call arguments without end, and closes the model request', async () => {
    const reply: ScriptedReply = {
      toolCalls: [{ id: 'call-1', name: 'calculator', arguments: '{"expression": "1+' }],
      endless: 'arguments',
      delayMs: 10,
    };
    await leaveDuring(reply, { tools: ['calculator'] }, 'llm-start');
    const request = await closedRequest();
    expect(request).toMatchObject({ finished: false });
    expect(request?.closedAt).toBeGreaterThan(request!.at);
  });

  it('while a tool that ignores its signal runs', async () => {
    const reply: ScriptedReply = { toolCalls: [{ id: 'call-1', name: 'deaf_sleeper', arguments: '{}' }] };
    const runId = await leaveDuring(reply, { tools: ['deaf_sleeper'] }, 'tool-call');
    const events = await store.getRunEvents(OWNER, runId);
    // It ended before the tool did: the call's result says it was stopped while it ran (the page and the next
    // turn's model read that, not that it never ran).
    expect(events.filter((e) => e.type === 'tool-result')).toMatchObject([
      { ok: false, content: STOPPED_WHILE_RUNNING, error: { kind: 'stopped', message: STOPPED_WHILE_RUNNING } },
    ]);
    expect(server.requests).toHaveLength(1); // and never asked the model again
  });

  it("while it waits for the user's decision on a tool call", async () => {
    const reply: ScriptedReply = {
      toolCalls: [{ id: 'call-1', name: 'calculator', arguments: '{"expression":"6*7"}' }],
    };
    const runId = await leaveDuring(reply, { tools: ['calculator'], pauseBeforeTools: true }, 'tool-approval');
    expect(server.requests).toHaveLength(1);
    // The call never started: it has no result (the page says it was not run).
    expect((await store.getRunEvents(OWNER, runId)).some((e) => e.type === 'tool-result')).toBe(false);
  });
});
