import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../protocol/events';
import { closeStore, getStore, storeFile } from './index';
import { MIGRATIONS } from './schema.sql';
import { openSqliteStore } from './sqlite';
import type { ChatStore } from './types';

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

afterEach(() => {
  for (const store of opened.splice(0)) {
    try {
      store.close();
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
function answeredTurn(store: ChatStore, conversationId: string, question: string, answer: string, runId: string) {
  const turn = store.addTurn(conversationId, question);
  store.startRun(turn.id, runId);
  for (const word of answer.split(/(?<= )/)) store.appendEvent(runId, delta(runId, word));
  store.finishRun(runId, 'answered');
  return turn;
}

function ids(list: { id: string }[]): string[] {
  return list.map((c) => c.id);
}

describe('SQLite chat store', () => {
  it('records a whole conversation and reads it back after reopening the file', () => {
    const store = open();
    const conversation = store.createConversation({ title: 'Maths' });
    expect(conversation.title).toBe('Maths');
    expect(conversation.createdAt).toBe(conversation.updatedAt);

    const turn = store.addTurn(conversation.id, 'What is 2+2?');
    expect(turn).toMatchObject({ conversationId: conversation.id, seq: 0, content: 'What is 2+2?' });
    const run = store.startRun(turn.id, 'run-1');
    expect(run).toMatchObject({ id: 'run-1', turnId: turn.id, status: 'running' });
    expect(run.endedAt).toBeUndefined();

    const events: AgentEvent[] = [
      { type: 'tool-call', runId: 'run-1', iteration: 1, t: 1, functionId: 'f1', name: 'calculator', arguments: '{}' },
      delta('run-1', 'It is ', 2),
      delta('run-1', '4.', 3),
      runEnd('run-1'),
    ];
    for (const event of events) store.appendEvent('run-1', event);
    store.finishRun('run-1', 'answered');
    store.close();

    const again = open();
    expect(again.getConversation(conversation.id)?.title).toBe('Maths');
    expect(again.getTurn(turn.id)).toEqual(turn);
    const finished = again.getRun('run-1');
    expect(finished?.status).toBe('answered');
    expect(finished?.endedAt).toBeGreaterThanOrEqual(run.startedAt);
    expect(finished?.error).toBeUndefined();
    expect(again.getRunEvents('run-1')).toEqual(events);

    const [record, ...rest] = again.listTurns(conversation.id);
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

  it('keeps error details of a failed run', () => {
    const store = open();
    const turn = store.addTurn(store.createConversation().id, 'hi');
    store.startRun(turn.id, 'r');
    store.finishRun('r', 'error', { name: 'ModelServiceError', message: 'boom', status: 503 });
    expect(store.getRun('r')).toMatchObject({
      status: 'error',
      error: { name: 'ModelServiceError', message: 'boom', status: 503 },
    });
  });

  it('keeps content items of a user message', () => {
    const store = open();
    const content = [{ text: 'Summarise this' }, { file: '/uploads/report.pdf' }];
    const turn = store.addTurn(store.createConversation().id, content);
    expect(store.getTurn(turn.id)?.content).toEqual(content);
  });

  describe('ordering', () => {
    it('lists conversations newest first and moves one to the top when a turn is added or a run starts', () => {
      const store = open();
      const a = store.createConversation({ title: 'a' });
      const b = store.createConversation({ title: 'b' });
      const c = store.createConversation({ title: 'c' });
      expect(ids(store.listConversations())).toEqual([c.id, b.id, a.id]);

      const turn = store.addTurn(a.id, 'hello');
      expect(ids(store.listConversations())).toEqual([a.id, c.id, b.id]);
      expect(store.getConversation(a.id)!.updatedAt).toBeGreaterThan(a.updatedAt);

      store.addTurn(b.id, 'hello');
      store.startRun(turn.id, 'regen');
      expect(ids(store.listConversations())).toEqual([a.id, b.id, c.id]);
    });

    it('numbers turns 0, 1, 2 and lists them in that order', () => {
      const store = open();
      const conversation = store.createConversation();
      const turns = ['one', 'two', 'three'].map((text) => store.addTurn(conversation.id, text));
      expect(turns.map((t) => t.seq)).toEqual([0, 1, 2]);
      expect(store.listTurns(conversation.id).map((r) => r.turn.content)).toEqual(['one', 'two', 'three']);
      expect(store.listTurns(conversation.id).map((r) => r.run)).toEqual([undefined, undefined, undefined]);
    });
  });

  describe('search', () => {
    function seeded() {
      const store = open();
      const weather = store.createConversation({ title: 'Weather in Paris' });
      answeredTurn(store, weather.id, 'Will it rain tomorrow?', 'Expect Light Drizzle in the morning.', 'w1');
      const maths = store.createConversation({ title: 'Maths homework' });
      answeredTurn(store, maths.id, 'Integrate x squared', 'The integral is x^3/3 plus a constant.', 'm1');
      const chinese = store.createConversation({ title: '旅行计划' });
      answeredTurn(store, chinese.id, '北京明天的天气怎么样？', '明天北京晴，气温二十五度。', 'c1');
      return { store, weather, maths, chinese };
    }

    it('matches the title, the user text and the answer text', () => {
      const { store, weather, maths } = seeded();
      expect(ids(store.listConversations('paris'))).toEqual([weather.id]);
      expect(ids(store.listConversations('tomorrow'))).toEqual([weather.id]);
      expect(ids(store.listConversations('constant'))).toEqual([maths.id]);
      expect(ids(store.listConversations('nothing-like-this'))).toEqual([]);
    });

    it('finds answer text only once the run has finished', () => {
      const store = open();
      const conversation = store.createConversation();
      const turn = store.addTurn(conversation.id, 'question');
      store.startRun(turn.id, 'r');
      store.appendEvent('r', delta('r', 'zebra crossing'));
      expect(store.listConversations('zebra')).toEqual([]);
      store.finishRun('r', 'aborted');
      expect(ids(store.listConversations('zebra'))).toEqual([conversation.id]);
    });

    it('matches text that spans two streamed deltas', () => {
      const store = open();
      const conversation = store.createConversation();
      const turn = store.addTurn(conversation.id, 'q');
      store.startRun(turn.id, 'r');
      store.appendEvent('r', delta('r', 'hippo'));
      store.appendEvent('r', delta('r', 'potamus'));
      store.finishRun('r', 'answered');
      expect(ids(store.listConversations('hippopotamus'))).toEqual([conversation.id]);
    });

    it('requires every word, wherever each one is', () => {
      const { store, weather } = seeded();
      // 'weather' is in the title, 'rain' in the question, 'drizzle' in the answer
      expect(ids(store.listConversations('weather rain drizzle'))).toEqual([weather.id]);
      expect(ids(store.listConversations('  weather \t integral '))).toEqual([]);
    });

    it('ignores case in the query and in the stored text', () => {
      const { store, weather } = seeded();
      expect(ids(store.listConversations('LIGHT drizzle'))).toEqual([weather.id]);
      expect(ids(store.listConversations('pArIs'))).toEqual([weather.id]);
    });

    it('finds Chinese words, including two-character ones, in title, question and answer', () => {
      const { store, chinese } = seeded();
      expect(ids(store.listConversations('旅行'))).toEqual([chinese.id]);
      expect(ids(store.listConversations('天气'))).toEqual([chinese.id]);
      expect(ids(store.listConversations('气温 晴'))).toEqual([chinese.id]);
      expect(ids(store.listConversations('上海'))).toEqual([]);
    });

    it('searches the text items of a message with files', () => {
      const store = open();
      const conversation = store.createConversation();
      store.addTurn(conversation.id, [{ text: 'Summarise the quarterly report' }, { file: '/x/y.pdf' }]);
      expect(ids(store.listConversations('quarterly'))).toEqual([conversation.id]);
    });

    it('treats % and _ in the query as plain characters', () => {
      const store = open();
      const hit = store.createConversation({ title: 'growth of 50% in q_3' });
      store.createConversation({ title: 'growth of 500 in qx3' });
      expect(ids(store.listConversations('50% q_3'))).toEqual([hit.id]);
    });

    it('returns matches newest first', () => {
      const store = open();
      const older = store.createConversation({ title: 'apple pie' });
      const newer = store.createConversation({ title: 'apple tart' });
      store.createConversation({ title: 'pear' });
      expect(ids(store.listConversations('apple'))).toEqual([newer.id, older.id]);
      store.addTurn(older.id, 'more');
      expect(ids(store.listConversations('apple'))).toEqual([older.id, newer.id]);
    });

    it('follows renames and deleted turns', () => {
      const { store, weather } = seeded();
      store.renameConversation(weather.id, 'Forecast for Lyon');
      expect(store.getConversation(weather.id)?.title).toBe('Forecast for Lyon');
      expect(store.listConversations('paris')).toEqual([]);
      expect(ids(store.listConversations('lyon'))).toEqual([weather.id]);

      store.deleteTurnsFrom(weather.id, 0);
      expect(store.listConversations('tomorrow')).toEqual([]);
      expect(store.listConversations('drizzle')).toEqual([]);
      expect(ids(store.listConversations('lyon'))).toEqual([weather.id]);
    });
  });

  it('uses "New chat" for a missing or blank title', () => {
    const store = open();
    expect(store.createConversation().title).toBe('New chat');
    const c = store.createConversation({ title: '   ' });
    expect(c.title).toBe('New chat');
    store.renameConversation(c.id, '  Trip  ');
    expect(store.getConversation(c.id)?.title).toBe('Trip');
  });

  it('deletes a conversation with its turns, runs and events', () => {
    const store = open();
    const doomed = store.createConversation({ title: 'doomed' });
    const kept = store.createConversation({ title: 'kept' });
    const doomedTurn = answeredTurn(store, doomed.id, 'q', 'a b c', 'doomed-run');
    answeredTurn(store, kept.id, 'q', 'x y', 'kept-run');

    store.deleteConversation(doomed.id);
    expect(store.getConversation(doomed.id)).toBeUndefined();
    expect(store.getTurn(doomedTurn.id)).toBeUndefined();
    expect(store.getRun('doomed-run')).toBeUndefined();
    expect(ids(store.listConversations())).toEqual([kept.id]);
    expect(store.getRunEvents('kept-run')).toHaveLength(2);

    const raw = new Database(file, { readonly: true });
    try {
      const left = raw.prepare('SELECT count(*) AS n FROM run_events WHERE run_id = ?').get('doomed-run');
      expect(left).toEqual({ n: 0 });
    } finally {
      raw.close();
    }
  });

  it('deleteTurnsFrom removes that turn and every later one with their runs, and numbering continues', () => {
    const store = open();
    const conversation = store.createConversation();
    const turns = ['t0', 't1', 't2', 't3'].map((q, i) => answeredTurn(store, conversation.id, q, `a${i}`, `run-${i}`));

    store.deleteTurnsFrom(conversation.id, 2);
    expect(store.listTurns(conversation.id).map((r) => r.turn.content)).toEqual(['t0', 't1']);
    expect(store.getTurn(turns[2]!.id)).toBeUndefined();
    expect(store.getRun('run-2')).toBeUndefined();
    expect(store.getRun('run-3')).toBeUndefined();
    expect(store.getRun('run-1')?.status).toBe('answered');

    expect(store.addTurn(conversation.id, 'new').seq).toBe(2);
    store.deleteTurnsFrom(conversation.id, 99);
    expect(store.listTurns(conversation.id)).toHaveLength(3);
  });

  it('shows the latest run of a regenerated turn, with its own events, and counts the runs', () => {
    const store = open();
    const conversation = store.createConversation();
    const turn = answeredTurn(store, conversation.id, 'Tell me a joke', 'first joke', 'first');
    store.startRun(turn.id, 'second');
    store.appendEvent('second', delta('second', 'second joke'));
    store.finishRun('second', 'answered');

    const [record] = store.listTurns(conversation.id);
    expect(record?.runCount).toBe(2);
    expect(record?.run?.id).toBe('second');
    expect(record?.events).toEqual([delta('second', 'second joke')]);
    // the older run is still stored
    expect(store.getRunEvents('first').map((e) => (e.type === 'text-delta' ? e.text : ''))).toEqual(['first ', 'joke']);
  });

  describe('settings', () => {
    const saved = process.env.AGENT_FNCALL_MODE;
    afterEach(() => {
      if (saved === undefined) delete process.env.AGENT_FNCALL_MODE;
      else process.env.AGENT_FNCALL_MODE = saved;
    });

    it('gives a new conversation the defaults, with the function-call mode from the environment', () => {
      process.env.AGENT_FNCALL_MODE = 'nous';
      const store = open();
      expect(store.createConversation().settings).toEqual({
        agent: 'fncall',
        tools: ['calculator', 'current_time'],
        fncallMode: 'nous',
        generateCfg: {},
        systemMessage: '',
        pauseBeforeTools: false,
      });
    });

    it('merges given settings at creation and on update, and round-trips them through the file', () => {
      delete process.env.AGENT_FNCALL_MODE;
      const store = open();
      const c = store.createConversation({ settings: { agent: 'react', generateCfg: { temperature: 0.2 } } });
      expect(c.settings).toEqual({
        agent: 'react',
        tools: ['calculator', 'current_time'],
        fncallMode: 'native',
        generateCfg: { temperature: 0.2 },
        systemMessage: '',
        pauseBeforeTools: false,
      });

      const updated = store.updateSettings(c.id, {
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
      store.close();
      expect(open().getConversation(c.id)?.settings).toEqual(expected);
    });
  });

  it('names the unknown id in every error', () => {
    const store = open();
    const conversation = store.createConversation();
    const turn = store.addTurn(conversation.id, 'q');
    store.startRun(turn.id, 'taken');

    expect(store.getConversation('nope')).toBeUndefined();
    expect(store.getTurn('nope')).toBeUndefined();
    expect(store.getRun('nope')).toBeUndefined();
    expect(() => store.renameConversation('conv-x', 't')).toThrow(/conv-x/);
    expect(() => store.updateSettings('conv-x', {})).toThrow(/conv-x/);
    expect(() => store.deleteConversation('conv-x')).toThrow(/conv-x/);
    expect(() => store.addTurn('conv-x', 'q')).toThrow(/conv-x/);
    expect(() => store.deleteTurnsFrom('conv-x', 0)).toThrow(/conv-x/);
    expect(() => store.listTurns('conv-x')).toThrow(/conv-x/);
    expect(() => store.startRun('turn-x', 'r')).toThrow(/turn-x/);
    expect(() => store.startRun(turn.id, 'taken')).toThrow(/taken.*already exists/);
    expect(() => store.appendEvent('run-x', delta('run-x', 'a'))).toThrow(/run-x/);
    expect(() => store.finishRun('run-x', 'answered')).toThrow(/run-x/);
    expect(() => store.getRunEvents('run-x')).toThrow(/run-x/);
    // nothing was written by the failed calls
    expect(store.listConversations()).toHaveLength(1);
    expect(store.listTurns(conversation.id)[0]?.runCount).toBe(1);
  });

  it('marks runs left running as interrupted, with an end time, and counts them', () => {
    const store = open();
    const conversation = store.createConversation();
    const t0 = answeredTurn(store, conversation.id, 'q0', 'done', 'finished');
    const t1 = store.addTurn(conversation.id, 'q1');
    store.startRun(t1.id, 'cut-a');
    store.appendEvent('cut-a', delta('cut-a', 'partial answer'));
    store.startRun(t0.id, 'cut-b');

    expect(store.markInterruptedRuns()).toBe(2);
    expect(store.getRun('cut-a')).toMatchObject({ status: 'interrupted', endedAt: expect.any(Number) });
    expect(store.getRun('cut-b')?.status).toBe('interrupted');
    expect(store.getRun('finished')?.status).toBe('answered');
    expect(store.markInterruptedRuns()).toBe(0);
  });

  it('keeps every event a killed process appended, and reads its run as interrupted after reopening', async () => {
    const first = open();
    const conversation = first.createConversation();
    const turn = first.addTurn(conversation.id, 'stream a long answer');
    first.startRun(turn.id, 'crash');
    for (let i = 0; i < 3; i++) first.appendEvent('crash', delta('crash', `p${i} `, i));

    // The child appends c0, c1, ... forever, reporting each count after the append returns.
    const child = path.join(dir, 'append-forever.mts');
    fs.writeFileSync(
      child,
      [
        `import { openSqliteStore } from ${JSON.stringify(path.join(HERE, 'sqlite.ts'))};`,
        `const [file, runId] = process.argv.slice(2) as [string, string];`,
        `const store = openSqliteStore(file);`,
        `for (let i = 0; ; i++) {`,
        `  store.appendEvent(runId, { type: 'text-delta', runId, iteration: 1, t: i, text: 'c' + i + ' ' });`,
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
    const texts = reopened.getRunEvents('crash').map((e) => (e.type === 'text-delta' ? e.text : '?'));
    const fromChild = texts.slice(3);
    expect(texts.slice(0, 3)).toEqual(['p0 ', 'p1 ', 'p2 ']);
    // every acknowledged append is there, in order, with nothing torn or skipped
    expect(fromChild.length).toBeGreaterThanOrEqual(reported);
    expect(fromChild).toEqual(fromChild.map((_, i) => `c${i} `));

    expect(reopened.getRun('crash')?.status).toBe('running');
    expect(reopened.markInterruptedRuns()).toBe(1);
    expect(reopened.getRun('crash')?.status).toBe('interrupted');
    expect(first.getRun('crash')?.status).toBe('interrupted');
    // what the cut-off run had said is searchable like any finished answer
    expect(ids(reopened.listConversations(`c${reported - 1}`))).toEqual([conversation.id]);
  });

  // Its speed is measured in bench/hot-paths.ts, not asserted here.
  it('keeps every one of 5,000 small text-delta events in order', () => {
    const store = open();
    const turn = store.addTurn(store.createConversation().id, 'q');
    store.startRun(turn.id, 'fast');
    const n = 5000;
    for (let i = 0; i < n; i++) store.appendEvent('fast', delta('fast', `tok${i} `, i));
    const events = store.getRunEvents('fast');
    expect(events).toHaveLength(n);
    expect(events.map((e) => (e.type === 'text-delta' ? e.text : '')).join('')).toBe(
      Array.from({ length: n }, (_, i) => `tok${i} `).join(''),
    );
  });
});

describe('getStore', () => {
  const saved = process.env.DATA_DIR;
  afterEach(() => {
    closeStore();
    if (saved === undefined) delete process.env.DATA_DIR;
    else process.env.DATA_DIR = saved;
  });

  it('opens <DATA_DIR>/agent-studio.db once, creating the directory, and marks cut-off runs at first open', () => {
    const dataDir = path.join(dir, 'nested', 'data');
    fs.mkdirSync(dataDir, { recursive: true });
    const dbFile = path.join(dataDir, 'agent-studio.db');
    const earlier = openSqliteStore(dbFile);
    const turn = earlier.addTurn(earlier.createConversation().id, 'q');
    earlier.startRun(turn.id, 'left-running');
    earlier.close();

    closeStore();
    process.env.DATA_DIR = dataDir;
    const store = getStore();
    expect(storeFile()).toBe(dbFile);
    expect(store.getRun('left-running')?.status).toBe('interrupted');
    expect(getStore()).toBe(store);
  });

  it('creates a missing DATA_DIR', () => {
    const dataDir = path.join(dir, 'does', 'not', 'exist');
    closeStore();
    process.env.DATA_DIR = dataDir;
    const store = getStore();
    store.createConversation({ title: 'persisted' });
    expect(fs.existsSync(path.join(dataDir, 'agent-studio.db'))).toBe(true);
    closeStore();
    expect(
      getStore()
        .listConversations()
        .map((c) => c.title),
    ).toEqual(['persisted']);
  });
});
