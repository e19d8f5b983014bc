// A run whose log cannot be written for a while, on a real SQLite file: the disk filling up mid-answer (a tmpfs
// mounted for the test, the suite runs as root), and another program holding the file's write lock (a real `sqlite3`
// shell in a transaction). The chat service drives the run against the scripted model server over HTTP, as the page's
// server actions do.
// Before: a lock held past 5 s froze the whole server (SQLite's busy wait sleeps in the calling thread) and then
// stopped the run with "database is locked"; an upload meanwhile got "Something went wrong"; and a run stopped by a
// failed write stayed `running` for good (nothing tried to close it once the store took writes again), so a reload
// said "the server stopped" and the Runs page showed it still going.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FnCallAgent, type AgentEvent } from '../../lib/agent';
import { everyToolActor } from '../../lib/chat/actor';
import type { ChatService } from '../../lib/chat/service';
import { createChatModel } from '../../lib/llm';
import { openSqliteStore } from '../../lib/store';
import { ownerScope } from '../../lib/store/owner';
import type { ChatStore } from '../../lib/store/types';
import { handleUpload } from '../../lib/uploads/http';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { chatContext, drain, follow } from '../support/chat';
import { holdWriteLock } from '../support/sqlite-faults';

const OWNER = ownerScope('owner-a');
const ACTOR = everyToolActor(OWNER);
const DISK_FULL =
  "The server's disk is full: this answer could not be stored any further and stopped here. What it shows was kept; send the message again once space is freed.";

let server: ModelServer;

beforeAll(async () => {
  server = await createModelServer();
});
afterAll(async () => {
  await server?.close();
});

async function serviceOn(file: string, dataDir: string, busyWaitMs?: number) {
  const store = await openSqliteStore(file, busyWaitMs ? { busyWaitMs } : {});
  const agents = () =>
    new FnCallAgent({
      llm: createChatModel({ model: 'scripted', baseURL: server.url, apiKey: 'k', generateCfg: { max_retries: 0 } }),
    });
  const ctx = await chatContext(store, agents, { DATA_DIR: dataDir });
  return { store, chat: ctx.chat, uploads: ctx.uploads };
}

/** Polls `probe` until it gives a value (a bounded wait: the condition is what is tested, not how fast). */
async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`still waiting after ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const textOf = (events: readonly { type: string; text?: string }[]) =>
  events.map((e) => (e.type === 'text-delta' ? e.text : '')).join('');

describe('a run on a disk that fills up', () => {
  let mount: string;
  let store: ChatStore;
  let chat: ChatService;

  beforeAll(async () => {
    mount = mkdtempSync(path.join(tmpdir(), 'run-disk-full-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', mount]);
    } catch (e) {
      throw new Error(`This test mounts a 24 MB tmpfs and needs root: ${(e as Error).message}`);
    }
    ({ store, chat } = await serviceOn(path.join(mount, 'agent-studio.db'), mount));
  });
  afterAll(async () => {
    await store?.close();
    if (mount) {
      execFileSync('umount', [mount]);
      rmSync(mount, { recursive: true, force: true });
    }
  });

  /** Sends `message` and fills the disk as its answer's first words arrive; the run's events, and the filler to
   *  remove to free the space. */
  async function answerOntoFullDisk(message: string) {
    const started = await chat.send(ACTOR, { message, settings: { tools: [] } });
    const seen: AgentEvent[] = [];
    const filler = path.join(mount, 'filler');
    for await (const e of follow(chat, OWNER, started.runId)) {
      seen.push(e);
      if (e.type === 'text-delta' && seen.filter((s) => s.type === 'text-delta').length === 1) {
        const { bavail, bsize } = statfsSync(mount);
        writeFileSync(filler, Buffer.alloc(bavail * bsize - 4096));
      }
    }
    return { started, seen, filler };
  }

  it('keeps the answer so far, says the disk is full, reads so after a reload once space is freed, and chats on', async () => {
    server.setScenario({
      rules: [
        { when: { lastUserIncludes: 'tide' }, reply: { content: 'High water at six. '.repeat(400), delayMs: 5 } },
        { when: {}, reply: { content: 'Low water at noon.' } },
      ],
    });
    const { started, seen, filler } = await answerOntoFullDisk('When is the tide?');
    // The page is told why, in words, and what it was shown is what was stored.
    expect(seen.at(-1)).toMatchObject({ type: 'run-end', reason: 'error', error: { message: DISK_FULL } });
    const shown = textOf(seen);
    expect(shown.length).toBeGreaterThan(0);
    expect(textOf(await store.getRunEvents(OWNER, started.runId))).toBe(shown);

    rmSync(filler);
    // Once the disk takes writes again the run is closed with its reason (not left `running`)...
    const run = await until('the run to be closed', async () => {
      const r = await store.getRun(OWNER, started.runId);
      return r?.status === 'running' ? undefined : r;
    });
    expect(run).toMatchObject({ status: 'error', error: { message: DISK_FULL } });
    // ...so a reload shows what was kept and why it stopped.
    const reloaded = await chat.openConversation(ACTOR, started.conversationId);
    const turn = reloaded.turns.at(-1)!;
    expect(turn.runStatus).toBe('error');
    expect(textOf(turn.events)).toBe(shown);
    expect(turn.events.at(-1)).toMatchObject({ type: 'run-end', reason: 'error', error: { message: DISK_FULL } });

    // And the next message is answered.
    const next = await chat.send(ACTOR, {
      message: 'And what about low water?',
      conversationId: started.conversationId,
    });
    const events = await drain(follow(chat, OWNER, next.runId));
    expect(events.at(-1)).toMatchObject({ type: 'run-end', reason: 'answered' });
    expect(textOf(events)).toBe('Low water at noon.');
  });

  it('a message sent as soon as space is freed is answered: the run before it is closed then, not at its next try', async () => {
    server.setScenario({
      rules: [
        {
          when: { lastUserIncludes: 'current' },
          reply: { content: 'The current runs east. '.repeat(400), delayMs: 5 },
        },
        { when: {}, reply: { content: 'Slack water at three.' } },
      ],
    });
    const { started, seen, filler } = await answerOntoFullDisk('Which way is the current?');
    expect(seen.at(-1)).toMatchObject({ type: 'run-end', reason: 'error', error: { message: DISK_FULL } });
    // The disk stays full past the first tries to close the run (after 0.25, 1.25 and 3.25 s; the next is 5 s later).
    await new Promise((r) => setTimeout(r, 3_600));
    expect((await store.getRun(OWNER, started.runId))?.status).toBe('running');
    rmSync(filler);

    const next = await chat.send(ACTOR, { message: 'And when is it slack?', conversationId: started.conversationId });
    expect((await store.getRun(OWNER, started.runId))?.status).toBe('error');
    const events = await drain(follow(chat, OWNER, next.runId));
    expect(textOf(events)).toBe('Slack water at three.');
    const stored = await store.getRunEvents(OWNER, started.runId);
    expect(stored.filter((e) => e.type === 'run-end')).toHaveLength(1);
  });
});

describe('a run that cannot be stored as it starts', () => {
  let dir: string;
  let store: ChatStore;
  let chat: ChatService;
  let file: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'run-start-fault-'));
    file = path.join(dir, 'agent-studio.db');
    ({ store, chat } = await serviceOn(file, dir));
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** From now until `undo`, the database refuses to store a run (as a disk that fills up right then would): a
   *  trigger of its own, written past the store. */
  function refuseRuns(): { undo(): void } {
    const raw = (statement: string) => {
      const db = new Database(file);
      try {
        db.exec(statement);
      } finally {
        db.close();
      }
    };
    raw("CREATE TRIGGER refuse_runs BEFORE INSERT ON runs BEGIN SELECT RAISE(ABORT, 'no room for the run'); END;");
    return { undo: () => raw('DROP TRIGGER refuse_runs') };
  }

  it('keeps no message without its run, drops nothing it would replace, and takes the message once it can', async () => {
    server.setScenario({ rules: [], fallback: 'echo' });
    const first = await chat.send(ACTOR, { message: 'Where do puffins nest?', settings: { tools: [] } });
    await drain(follow(chat, OWNER, first.runId));
    const second = await chat.send(ACTOR, { message: 'And terns?', conversationId: first.conversationId });
    await drain(follow(chat, OWNER, second.runId));
    const turns = async () =>
      (await chat.openConversation(ACTOR, first.conversationId)).turns.map((t) => [t.turn.content, t.runCount]);
    const before = await turns();
    const conversations = (await store.listConversations(OWNER)).length;

    const fault = refuseRuns();
    const refused = [
      () => chat.send(ACTOR, { message: 'And gannets?', conversationId: first.conversationId }),
      () => chat.regenerate(ACTOR, first.turnId),
      () => chat.editAndResend(ACTOR, first.turnId, 'Where do gannets nest?'),
      () => chat.replay(ACTOR, first.runId, { fromIteration: 1 }),
      () => chat.send(ACTOR, { message: 'A new conversation', settings: { tools: [] } }),
    ];
    for (const attempt of refused) await expect(attempt()).rejects.toThrow('no room for the run');
    // The conversation is as it was (no unanswered message, no later turn dropped), and no empty one was left.
    expect(await turns()).toEqual(before);
    expect(await store.listConversations(OWNER)).toHaveLength(conversations);

    fault.undo();
    const again = await chat.send(ACTOR, { message: 'And gannets?', conversationId: first.conversationId });
    expect((await drain(follow(chat, OWNER, again.runId))).at(-1)).toMatchObject({ reason: 'answered' });
    expect(await turns()).toEqual([...before, ['And gannets?', 1]]);
  });
});

describe('a database file another program holds locked', () => {
  const opened: { store: ChatStore; dir: string }[] = [];
  afterAll(async () => {
    for (const { store, dir } of opened) {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  /** A store of its own (its own file): the wait for a lock is per file and process. */
  async function open(busyWaitMs?: number) {
    const dir = mkdtempSync(path.join(tmpdir(), 'run-locked-'));
    const file = path.join(dir, 'agent-studio.db');
    const opened_ = await serviceOn(file, dir, busyWaitMs);
    opened.push({ store: opened_.store, dir });
    return { ...opened_, file, dir };
  }

  it('a run goes on while the lock is held past SQLite’s own wait, and keeps every word', async () => {
    const { chat, store, file } = await open();
    // Seven seconds of answer or more: SQLite's own 5 s wait (which froze the server meanwhile) ran out before.
    const words = 'Dunlins probe the mud. '.repeat(140);
    server.setScenario({ replies: [{ content: words, chunkSize: 23, delayMs: 50 }] });
    server.reset();
    const started = await chat.send(ACTOR, { message: 'Tell me about dunlins', settings: { tools: [] } });
    const seen: AgentEvent[] = [];
    let released: Promise<void> | undefined;
    for await (const e of follow(chat, OWNER, started.runId)) {
      seen.push(e);
      if (e.type === 'text-delta' && !released) {
        const lock = await holdWriteLock(file);
        // Held until the model's reply is over (or cut short by a failed run).
        released = until('the model reply to be over', async () =>
          server.requests[0]?.closedAt !== undefined ? true : undefined,
        ).then(() => lock.release());
      }
    }
    await released;
    expect(seen.at(-1)).toMatchObject({ type: 'run-end', reason: 'answered' });
    expect(server.requests[0]).toMatchObject({ finished: true });
    expect(textOf(seen)).toBe(words);
    expect(textOf(await store.getRunEvents(OWNER, started.runId))).toBe(words);
    expect((await store.getRun(OWNER, started.runId))?.status).toBe('answered');
  });

  it('a lock held past the store’s wait stops the run saying so; the run is closed once the lock is gone', async () => {
    const { chat, store, file } = await open(1_500);
    server.setScenario({ replies: [{ content: 'Knots gather in flocks. ', endless: 'text', delayMs: 20 }] });
    server.reset();
    const started = await chat.send(ACTOR, { message: 'Tell me about knots', settings: { tools: [] } });
    const seen: AgentEvent[] = [];
    let lock: Awaited<ReturnType<typeof holdWriteLock>> | undefined;
    for await (const e of follow(chat, OWNER, started.runId)) {
      seen.push(e);
      if (e.type === 'text-delta' && !lock) lock = await holdWriteLock(file);
    }
    const end = seen.at(-1);
    expect(end).toMatchObject({ type: 'run-end', reason: 'error', error: { name: 'StoreError' } });
    const message = end?.type === 'run-end' ? end.error!.message : '';
    expect(message).toMatch(
      /^The database is locked by another program \(SQLITE_BUSY\) and was not freed within 2 s\./,
    );
    expect(message).toContain('what it shows was kept');
    expect((await store.getRun(OWNER, started.runId))?.status).toBe('running'); // nothing could be written yet

    await lock!.release();
    const run = await until('the run to be closed', async () => {
      const r = await store.getRun(OWNER, started.runId);
      return r?.status === 'running' ? undefined : r;
    });
    expect(run).toMatchObject({ status: 'error', error: { message } });
    const stored = await store.getRunEvents(OWNER, started.runId);
    expect(textOf(stored)).toBe(textOf(seen));
    expect(stored.at(-1)).toMatchObject({ type: 'run-end', error: { message } });
  });

  it('an upload waits for a short lock, and a lock held past the wait refuses it saying why, keeping nothing', async () => {
    const { uploads, store, file, dir } = await open(1_500);
    const upload = (name: string) =>
      handleUpload(
        uploads,
        OWNER,
        new Request(`http://app/api/files?name=${name}`, { method: 'POST', body: 'Dunlin,Calidris alpina\n' }),
      );
    const stored = () =>
      readdirSync(path.join(dir, 'files'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile());

    const lock = await holdWriteLock(file);
    const refused = await upload('birds.csv');
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual({
      error: {
        code: 'store-busy',
        message:
          'birds.csv could not be stored: The database is locked by another program (SQLITE_BUSY) and was not freed within 2 s. Nothing was kept; try again.',
      },
    });
    expect(stored()).toEqual([]);
    expect(await store.listConversations(OWNER)).toEqual([]);

    // A lock let go while the upload waits: it goes through.
    const waiting = upload('birds.csv');
    await lock.release();
    const accepted = await waiting;
    expect(accepted.status).toBe(201);
    expect(stored()).toHaveLength(1);
  });
});
