import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../protocol/events';
import { MIGRATIONS } from './schema.sql';
import { defaultSettings } from './settings';
import { openSqliteStore } from './sqlite';
import type { ChatStore, StoredTurn } from './types';
import { ownerScope } from './owner';

const OWNER = ownerScope('owner-a');

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(HERE, '../..');

let dir: string;
let file: string;
const opened: ChatStore[] = [];

function open(target = file): ChatStore {
  const store = openSqliteStore(target);
  opened.push(store);
  return store;
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-test-'));
  file = path.join(dir, 'chat.db');
});

afterEach(async () => {
  for (const store of opened.splice(0)) {
    try {
      await store.close();
    } catch {
      // already closed by the test
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

function delta(runId: string, text: string, t = 0): AgentEvent {
  return { type: 'text-delta', runId, iteration: 1, t, text };
}

function runEnd(runId: string): AgentEvent {
  return {
    type: 'run-end',
    runId,
    iteration: 0,
    t: 5,
    reason: 'answered',
    llmCalls: 1,
    toolCalls: 0,
    usage: { promptTokens: 3, completionTokens: 4, totalTokens: 7 },
    durationMs: 5,
  };
}

/** One turn answered by one finished run whose text-deltas spell `answer`. */
async function answeredTurn(store: ChatStore, conversationId: string, question: string, answer: string, runId: string) {
  const turn = await store.addTurn(OWNER, conversationId, question);
  await store.startRun(OWNER, turn.id, runId);
  for (const word of answer.split(/(?<= )/)) await store.appendEvent(OWNER, runId, delta(runId, word));
  await store.finishRun(OWNER, runId, 'answered');
  return turn;
}

function ids(list: { id: string }[]): string[] {
  return list.map((c) => c.id);
}

describe('SQLite chat store', () => {
  it('records a whole conversation and reads it back after reopening the file', async () => {
    const store = open();
    const conversation = await store.createConversation(OWNER, { title: 'Maths' });
    expect(conversation.title).toBe('Maths');
    expect(conversation.createdAt).toBe(conversation.updatedAt);

    const turn = await store.addTurn(OWNER, conversation.id, 'What is 2+2?');
    expect(turn).toMatchObject({ conversationId: conversation.id, seq: 0, content: 'What is 2+2?' });
    const run = await store.startRun(OWNER, turn.id, 'run-1');
    expect(run).toMatchObject({ id: 'run-1', turnId: turn.id, status: 'running' });
    expect(run.endedAt).toBeUndefined();

    const events: AgentEvent[] = [
      { type: 'tool-call', runId: 'run-1', iteration: 1, t: 1, functionId: 'f1', name: 'calculator', arguments: '{}' },
      delta('run-1', 'It is ', 2),
      delta('run-1', '4.', 3),
      runEnd('run-1'),
    ];
    for (const event of events) await store.appendEvent(OWNER, 'run-1', event);
    await store.finishRun(OWNER, 'run-1', 'answered');
    await store.close();

    const again = open();
    expect((await again.getConversation(OWNER, conversation.id))?.title).toBe('Maths');
    expect(await again.getTurn(OWNER, turn.id)).toEqual(turn);
    const finished = await again.getRun(OWNER, 'run-1');
    expect(finished?.status).toBe('answered');
    expect(finished?.endedAt).toBeGreaterThanOrEqual(run.startedAt);
    expect(finished?.error).toBeUndefined();
    expect(await again.getRunEvents(OWNER, 'run-1')).toEqual(events);

    const [record, ...rest] = await again.listTurns(OWNER, conversation.id);
    expect(rest).toEqual([]);
    expect(record?.turn).toEqual(turn);
    expect(record?.run?.id).toBe('run-1');
    expect(record?.events).toEqual(events);
    expect(record?.runCount).toBe(1);
  });

  it('opens the file in WAL mode at the current schema version', () => {
    open();
    const raw = new Database(file, { readonly: true });
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(raw.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    } finally {
      raw.close();
    }
    // a second open of an up-to-date file must not try to create the tables again
    expect(() => open()).not.toThrow();
  });

  it('keeps error details of a failed run', async () => {
    const store = open();
    const turn = await store.addTurn(OWNER, (await store.createConversation(OWNER)).id, 'hi');
    await store.startRun(OWNER, turn.id, 'r');
    await store.finishRun(OWNER, 'r', 'error', { name: 'ModelServiceError', message: 'boom', status: 503 });
    expect(await store.getRun(OWNER, 'r')).toMatchObject({
      status: 'error',
      error: { name: 'ModelServiceError', message: 'boom', status: 503 },
    });
  });

  it('keeps content items of a user message', async () => {
    const store = open();
    const content = [{ text: 'Summarise this' }, { file: '/uploads/report.pdf' }];
    const turn = await store.addTurn(OWNER, (await store.createConversation(OWNER)).id, content);
    expect((await store.getTurn(OWNER, turn.id))?.content).toEqual(content);
  });

  describe('ordering', () => {
    it('lists conversations newest first and moves one to the top when a turn is added or a run starts', async () => {
      const store = open();
      const a = await store.createConversation(OWNER, { title: 'a' });
      const b = await store.createConversation(OWNER, { title: 'b' });
      const c = await store.createConversation(OWNER, { title: 'c' });
      expect(ids(await store.listConversations(OWNER))).toEqual([c.id, b.id, a.id]);

      const turn = await store.addTurn(OWNER, a.id, 'hello');
      expect(ids(await store.listConversations(OWNER))).toEqual([a.id, c.id, b.id]);
      expect((await store.getConversation(OWNER, a.id))!.updatedAt).toBeGreaterThan(a.updatedAt);

      await store.addTurn(OWNER, b.id, 'hello');
      await store.startRun(OWNER, turn.id, 'regen');
      expect(ids(await store.listConversations(OWNER))).toEqual([a.id, b.id, c.id]);
    });

    it('numbers turns 0, 1, 2 and lists them in that order', async () => {
      const store = open();
      const conversation = await store.createConversation(OWNER);
      const turns: StoredTurn[] = [];
      for (const text of ['one', 'two', 'three']) turns.push(await store.addTurn(OWNER, conversation.id, text));
      expect(turns.map((t) => t.seq)).toEqual([0, 1, 2]);
      expect((await store.listTurns(OWNER, conversation.id)).map((r) => r.turn.content)).toEqual([
        'one',
        'two',
        'three',
      ]);
      expect((await store.listTurns(OWNER, conversation.id)).map((r) => r.run)).toEqual([
        undefined,
        undefined,
        undefined,
      ]);
    });
  });

  describe('search', () => {
    async function seeded() {
      const store = open();
      const weather = await store.createConversation(OWNER, { title: 'Weather in Paris' });
      await answeredTurn(store, weather.id, 'Will it rain tomorrow?', 'Expect Light Drizzle in the morning.', 'w1');
      const maths = await store.createConversation(OWNER, { title: 'Maths homework' });
      await answeredTurn(store, maths.id, 'Integrate x squared', 'The integral is x^3/3 plus a constant.', 'm1');
      const chinese = await store.createConversation(OWNER, { title: '旅行计划' });
      await answeredTurn(store, chinese.id, '北京明天的天气怎么样？', '明天北京晴，气温二十五度。', 'c1');
      return { store, weather, maths, chinese };
    }

    it('matches the title, the user text and the answer text', async () => {
      const { store, weather, maths } = await seeded();
      expect(ids(await store.listConversations(OWNER, 'paris'))).toEqual([weather.id]);
      expect(ids(await store.listConversations(OWNER, 'tomorrow'))).toEqual([weather.id]);
      expect(ids(await store.listConversations(OWNER, 'constant'))).toEqual([maths.id]);
      expect(ids(await store.listConversations(OWNER, 'nothing-like-this'))).toEqual([]);
    });

    it('finds answer text only once the run has finished', async () => {
      const store = open();
      const conversation = await store.createConversation(OWNER);
      const turn = await store.addTurn(OWNER, conversation.id, 'question');
      await store.startRun(OWNER, turn.id, 'r');
      await store.appendEvent(OWNER, 'r', delta('r', 'zebra crossing'));
      expect(await store.listConversations(OWNER, 'zebra')).toEqual([]);
      await store.finishRun(OWNER, 'r', 'aborted');
      expect(ids(await store.listConversations(OWNER, 'zebra'))).toEqual([conversation.id]);
    });

    it('matches text that spans two streamed deltas', async () => {
      const store = open();
      const conversation = await store.createConversation(OWNER);
      const turn = await store.addTurn(OWNER, conversation.id, 'q');
      await store.startRun(OWNER, turn.id, 'r');
      await store.appendEvent(OWNER, 'r', delta('r', 'hippo'));
      await store.appendEvent(OWNER, 'r', delta('r', 'potamus'));
      await store.finishRun(OWNER, 'r', 'answered');
      expect(ids(await store.listConversations(OWNER, 'hippopotamus'))).toEqual([conversation.id]);
    });

    it('requires every word, wherever each one is', async () => {
      const { store, weather } = await seeded();
      // 'weather' is in the title, 'rain' in the question, 'drizzle' in the answer
      expect(ids(await store.listConversations(OWNER, 'weather rain drizzle'))).toEqual([weather.id]);
      expect(ids(await store.listConversations(OWNER, '  weather \t integral '))).toEqual([]);
    });

    it('ignores case in the query and in the stored text', async () => {
      const { store, weather } = await seeded();
      expect(ids(await store.listConversations(OWNER, 'LIGHT drizzle'))).toEqual([weather.id]);
      expect(ids(await store.listConversations(OWNER, 'pArIs'))).toEqual([weather.id]);
    });

    it('finds Chinese words, including two-character ones, in title, question and answer', async () => {
      const { store, chinese } = await seeded();
      expect(ids(await store.listConversations(OWNER, '旅行'))).toEqual([chinese.id]);
      expect(ids(await store.listConversations(OWNER, '天气'))).toEqual([chinese.id]);
      expect(ids(await store.listConversations(OWNER, '气温 晴'))).toEqual([chinese.id]);
      expect(ids(await store.listConversations(OWNER, '上海'))).toEqual([]);
    });

    it('searches the text items of a message with files', async () => {
      const store = open();
      const conversation = await store.createConversation(OWNER);
      await store.addTurn(OWNER, conversation.id, [{ text: 'Summarise the quarterly report' }, { file: '/x/y.pdf' }]);
      expect(ids(await store.listConversations(OWNER, 'quarterly'))).toEqual([conversation.id]);
    });

    it('treats % and _ in the query as plain characters', async () => {
      const store = open();
      const hit = await store.createConversation(OWNER, { title: 'growth of 50% in q_3' });
      await store.createConversation(OWNER, { title: 'growth of 500 in qx3' });
      expect(ids(await store.listConversations(OWNER, '50% q_3'))).toEqual([hit.id]);
    });

    it('returns matches newest first', async () => {
      const store = open();
      const older = await store.createConversation(OWNER, { title: 'apple pie' });
      const newer = await store.createConversation(OWNER, { title: 'apple tart' });
      await store.createConversation(OWNER, { title: 'pear' });
      expect(ids(await store.listConversations(OWNER, 'apple'))).toEqual([newer.id, older.id]);
      await store.addTurn(OWNER, older.id, 'more');
      expect(ids(await store.listConversations(OWNER, 'apple'))).toEqual([older.id, newer.id]);
    });

    it('follows renames and deleted turns', async () => {
      const { store, weather } = await seeded();
      await store.renameConversation(OWNER, weather.id, 'Forecast for Lyon');
      expect((await store.getConversation(OWNER, weather.id))?.title).toBe('Forecast for Lyon');
      expect(await store.listConversations(OWNER, 'paris')).toEqual([]);
      expect(ids(await store.listConversations(OWNER, 'lyon'))).toEqual([weather.id]);

      await store.deleteTurnsFrom(OWNER, weather.id, 0);
      expect(await store.listConversations(OWNER, 'tomorrow')).toEqual([]);
      expect(await store.listConversations(OWNER, 'drizzle')).toEqual([]);
      expect(ids(await store.listConversations(OWNER, 'lyon'))).toEqual([weather.id]);
    });
  });

  it('uses "New chat" for a missing or blank title', async () => {
    const store = open();
    expect((await store.createConversation(OWNER)).title).toBe('New chat');
    const c = await store.createConversation(OWNER, { title: '   ' });
    expect(c.title).toBe('New chat');
    await store.renameConversation(OWNER, c.id, '  Trip  ');
    expect((await store.getConversation(OWNER, c.id))?.title).toBe('Trip');
  });

  it('deletes a conversation with its turns, runs and events', async () => {
    const store = open();
    const doomed = await store.createConversation(OWNER, { title: 'doomed' });
    const kept = await store.createConversation(OWNER, { title: 'kept' });
    const doomedTurn = await answeredTurn(store, doomed.id, 'q', 'a b c', 'doomed-run');
    await answeredTurn(store, kept.id, 'q', 'x y', 'kept-run');

    await store.deleteConversation(OWNER, doomed.id);
    expect(await store.getConversation(OWNER, doomed.id)).toBeUndefined();
    expect(await store.getTurn(OWNER, doomedTurn.id)).toBeUndefined();
    expect(await store.getRun(OWNER, 'doomed-run')).toBeUndefined();
    expect(ids(await store.listConversations(OWNER))).toEqual([kept.id]);
    expect(await store.getRunEvents(OWNER, 'kept-run')).toHaveLength(2);

    const raw = new Database(file, { readonly: true });
    try {
      const left = raw.prepare('SELECT count(*) AS n FROM run_events WHERE run_id = ?').get('doomed-run');
      expect(left).toEqual({ n: 0 });
    } finally {
      raw.close();
    }
  });

  it('deleteTurnsFrom removes that turn and every later one with their runs, and numbering continues', async () => {
    const store = open();
    const conversation = await store.createConversation(OWNER);
    const turns: StoredTurn[] = [];
    for (const [i, q] of ['t0', 't1', 't2', 't3'].entries())
      turns.push(await answeredTurn(store, conversation.id, q, `a${i}`, `run-${i}`));

    await store.deleteTurnsFrom(OWNER, conversation.id, 2);
    expect((await store.listTurns(OWNER, conversation.id)).map((r) => r.turn.content)).toEqual(['t0', 't1']);
    expect(await store.getTurn(OWNER, turns[2]!.id)).toBeUndefined();
    expect(await store.getRun(OWNER, 'run-2')).toBeUndefined();
    expect(await store.getRun(OWNER, 'run-3')).toBeUndefined();
    expect((await store.getRun(OWNER, 'run-1'))?.status).toBe('answered');

    expect((await store.addTurn(OWNER, conversation.id, 'new')).seq).toBe(2);
    await store.deleteTurnsFrom(OWNER, conversation.id, 99);
    expect(await store.listTurns(OWNER, conversation.id)).toHaveLength(3);
  });

  it('shows the latest run of a regenerated turn, with its own events, and counts the runs', async () => {
    const store = open();
    const conversation = await store.createConversation(OWNER);
    const turn = await answeredTurn(store, conversation.id, 'Tell me a joke', 'first joke', 'first');
    await store.startRun(OWNER, turn.id, 'second');
    await store.appendEvent(OWNER, 'second', delta('second', 'second joke'));
    await store.finishRun(OWNER, 'second', 'answered');

    const [record] = await store.listTurns(OWNER, conversation.id);
    expect(record?.runCount).toBe(2);
    expect(record?.run?.id).toBe('second');
    expect(record?.events).toEqual([delta('second', 'second joke')]);
    // the older run is still stored
    expect((await store.getRunEvents(OWNER, 'first')).map((e) => (e.type === 'text-delta' ? e.text : ''))).toEqual([
      'first ',
      'joke',
    ]);
  });

  describe('settings', () => {
    const saved = process.env.AGENT_FNCALL_MODE;
    afterEach(() => {
      if (saved === undefined) delete process.env.AGENT_FNCALL_MODE;
      else process.env.AGENT_FNCALL_MODE = saved;
    });

    it('gives a new conversation the defaults it was opened with (the server picks the function-call mode)', async () => {
      expect((await open().createConversation(OWNER)).settings.fncallMode).toBe('native');
      const store = openSqliteStore(path.join(dir, 'nous.db'), { defaults: defaultSettings('nous') });
      opened.push(store);
      expect((await store.createConversation(OWNER)).settings).toEqual({
        agent: 'fncall',
        tools: ['calculator', 'current_time'],
        fncallMode: 'nous',
        generateCfg: {},
        systemMessage: '',
        pauseBeforeTools: false,
      });
    });

    it('merges given settings at creation and on update, and round-trips them through the file', async () => {
      delete process.env.AGENT_FNCALL_MODE;
      const store = open();
      const c = await store.createConversation(OWNER, {
        settings: { agent: 'react', generateCfg: { temperature: 0.2 } },
      });
      expect(c.settings).toEqual({
        agent: 'react',
        tools: ['calculator', 'current_time'],
        fncallMode: 'native',
        generateCfg: { temperature: 0.2 },
        systemMessage: '',
        pauseBeforeTools: false,
      });

      const updated = await store.updateSettings(OWNER, c.id, {
        tools: ['code_interpreter'],
        generateCfg: { top_p: 0.9 },
        systemMessage: 'Be brief.',
        pauseBeforeTools: true,
      });
      const expected = {
        agent: 'react',
        tools: ['code_interpreter'],
        fncallMode: 'native',
        generateCfg: { top_p: 0.9 }, // replaced whole, so a parameter can be removed
        systemMessage: 'Be brief.',
        pauseBeforeTools: true,
      };
      expect(updated.settings).toEqual(expected);
      await store.close();
      expect((await open().getConversation(OWNER, c.id))?.settings).toEqual(expected);
    });
  });

  it('names the unknown id in every error', async () => {
    const store = open();
    const conversation = await store.createConversation(OWNER);
    const turn = await store.addTurn(OWNER, conversation.id, 'q');
    await store.startRun(OWNER, turn.id, 'taken');

    expect(await store.getConversation(OWNER, 'nope')).toBeUndefined();
    expect(await store.getTurn(OWNER, 'nope')).toBeUndefined();
    expect(await store.getRun(OWNER, 'nope')).toBeUndefined();
    await expect(store.renameConversation(OWNER, 'conv-x', 't')).rejects.toThrow(/conv-x/);
    await expect(store.updateSettings(OWNER, 'conv-x', {})).rejects.toThrow(/conv-x/);
    await expect(store.deleteConversation(OWNER, 'conv-x')).rejects.toThrow(/conv-x/);
    await expect(store.addTurn(OWNER, 'conv-x', 'q')).rejects.toThrow(/conv-x/);
    await expect(store.deleteTurnsFrom(OWNER, 'conv-x', 0)).rejects.toThrow(/conv-x/);
    await expect(store.listTurns(OWNER, 'conv-x')).rejects.toThrow(/conv-x/);
    await expect(store.startRun(OWNER, 'turn-x', 'r')).rejects.toThrow(/turn-x/);
    await expect(store.startRun(OWNER, turn.id, 'taken')).rejects.toThrow(/taken.*already exists/);
    await expect(store.appendEvent(OWNER, 'run-x', delta('run-x', 'a'))).rejects.toThrow(/run-x/);
    await expect(store.finishRun(OWNER, 'run-x', 'answered')).rejects.toThrow(/run-x/);
    await expect(store.getRunEvents(OWNER, 'run-x')).rejects.toThrow(/run-x/);
    // nothing was written by the failed calls
    expect(await store.listConversations(OWNER)).toHaveLength(1);
    expect((await store.listTurns(OWNER, conversation.id))[0]?.runCount).toBe(1);
  });

  it('marks runs left running as interrupted, with an end time, and counts them', async () => {
    const store = open();
    const conversation = await store.createConversation(OWNER);
    const t0 = await answeredTurn(store, conversation.id, 'q0', 'done', 'finished');
    const t1 = await store.addTurn(OWNER, conversation.id, 'q1');
    await store.startRun(OWNER, t1.id, 'cut-a');
    await store.appendEvent(OWNER, 'cut-a', delta('cut-a', 'partial answer'));
    await store.startRun(OWNER, t0.id, 'cut-b');

    expect(await store.markInterruptedRuns()).toBe(2);
    expect(await store.getRun(OWNER, 'cut-a')).toMatchObject({ status: 'interrupted', endedAt: expect.any(Number) });
    expect((await store.getRun(OWNER, 'cut-b'))?.status).toBe('interrupted');
    expect((await store.getRun(OWNER, 'finished'))?.status).toBe('answered');
    expect(await store.markInterruptedRuns()).toBe(0);
  });

  it('keeps every event a killed process appended, and reads its run as interrupted after reopening', async () => {
    const first = open();
    const conversation = await first.createConversation(OWNER);
    const turn = await first.addTurn(OWNER, conversation.id, 'stream a long answer');
    await first.startRun(OWNER, turn.id, 'crash');
    for (let i = 0; i < 3; i++) await first.appendEvent(OWNER, 'crash', delta('crash', `p${i} `, i));

    // The child appends c0, c1, ... forever, reporting each count after the append returns.
    const child = path.join(dir, 'append-forever.mts');
    fs.writeFileSync(
      child,
      [
        `import { openSqliteStore } from ${JSON.stringify(path.join(HERE, 'sqlite.ts'))};`,
        `import { ownerScope } from ${JSON.stringify(path.join(HERE, 'owner.ts'))};`,
        `const OWNER = ownerScope('owner-a');`,
        `const [file, runId] = process.argv.slice(2) as [string, string];`,
        `const store = openSqliteStore(file);`,
        `for (let i = 0; ; i++) {`,
        `  await store.appendEvent(OWNER, runId, { type: 'text-delta', runId, iteration: 1, t: i, text: 'c' + i + ' ' });`,
        `  await new Promise((done) => process.stdout.write(i + 1 + '\\n', done));`,
        `}`,
      ].join('\n'),
    );
    const proc = spawn(process.execPath, ['--import', 'tsx', child, file, 'crash'], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let reported = 0;
    let buffer = '';
    const exited = new Promise<NodeJS.Signals | null>((resolve) => proc.on('exit', (_code, signal) => resolve(signal)));
    proc.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) reported = Math.max(reported, Number(line));
      if (reported >= 500 && proc.exitCode === null && !proc.killed) proc.kill('SIGKILL');
    });
    const signal = await exited;
    expect(stderr).toBe('');
    expect(signal).toBe('SIGKILL');
    expect(reported).toBeGreaterThanOrEqual(500);

    const reopened = open();
    const texts = (await reopened.getRunEvents(OWNER, 'crash')).map((e) => (e.type === 'text-delta' ? e.text : '?'));
    const fromChild = texts.slice(3);
    expect(texts.slice(0, 3)).toEqual(['p0 ', 'p1 ', 'p2 ']);
    // every acknowledged append is there, in order, with nothing torn or skipped
    expect(fromChild.length).toBeGreaterThanOrEqual(reported);
    expect(fromChild).toEqual(fromChild.map((_, i) => `c${i} `));

    expect((await reopened.getRun(OWNER, 'crash'))?.status).toBe('running');
    expect(await reopened.markInterruptedRuns()).toBe(1);
    expect((await reopened.getRun(OWNER, 'crash'))?.status).toBe('interrupted');
    expect((await first.getRun(OWNER, 'crash'))?.status).toBe('interrupted');
    // what the cut-off run had said is searchable like any finished answer
    expect(ids(await reopened.listConversations(OWNER, `c${reported - 1}`))).toEqual([conversation.id]);
  });

  // Its speed is measured in bench/hot-paths.ts, not asserted here.
  it('keeps every one of 5,000 small text-delta events in order', async () => {
    const store = open();
    const turn = await store.addTurn(OWNER, (await store.createConversation(OWNER)).id, 'q');
    await store.startRun(OWNER, turn.id, 'fast');
    const n = 5000;
    for (let i = 0; i < n; i++) await store.appendEvent(OWNER, 'fast', delta('fast', `tok${i} `, i));
    const events = await store.getRunEvents(OWNER, 'fast');
    expect(events).toHaveLength(n);
    expect(events.map((e) => (e.type === 'text-delta' ? e.text : '')).join('')).toBe(
      Array.from({ length: n }, (_, i) => `tok${i} `).join(''),
    );
  });

  it('appends a batch of events in order, and all or none of it', async () => {
    const store = open();
    const turn = await store.addTurn(OWNER, (await store.createConversation(OWNER)).id, 'q');
    await store.startRun(OWNER, turn.id, 'batch');
    await store.appendEvents(OWNER, 'batch', [delta('batch', 'a'), delta('batch', 'b')]);
    await store.appendEvent(OWNER, 'batch', delta('batch', 'c'));
    const unwritable = { ...delta('batch', 'x'), t: 10n } as unknown as AgentEvent; // JSON cannot hold a bigint
    await expect(store.appendEvents(OWNER, 'batch', [delta('batch', 'd'), unwritable])).rejects.toThrow(/BigInt/);
    expect((await store.getRunEvents(OWNER, 'batch')).map((e) => (e.type === 'text-delta' ? e.text : ''))).toEqual([
      'a',
      'b',
      'c',
    ]);
  });
});
