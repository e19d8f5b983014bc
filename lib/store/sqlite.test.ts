// The SQLite store: the shared store suite (test/support/store-suite.ts) on a file of its own per test, then what
// only a file shows (WAL, the schema version, a process killed mid-write).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeChatStore } from '../../test/support/store-suite';
import type { AgentEvent } from '../protocol/events';
import { SCHEMA_VERSION } from './migrations';
import { ownerScope } from './owner';
import { MIGRATIONS } from './schema.sql';
import { openSqliteStore } from './sqlite';
import type { ChatStore } from './types';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(HERE, '../..');
const OWNER = ownerScope('owner-a');

describeChatStore('SQLite', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-suite-'));
  const file = path.join(dir, 'chat.db');
  const opened: ChatStore[] = [];
  const open = (opts = {}) => {
    const store = openSqliteStore(file, opts);
    opened.push(store);
    return Promise.resolve(store);
  };
  return {
    open,
    reopen: open,
    async countEventRows(runId) {
      const raw = new Database(file, { readonly: true });
      try {
        return (raw.prepare('SELECT count(*) AS n FROM run_events WHERE run_id = ?').get(runId) as { n: number }).n;
      } finally {
        raw.close();
      }
    },
    async keptMessagesJson(runId) {
      const raw = new Database(file, { readonly: true });
      try {
        return (raw.prepare('SELECT messages_json AS m FROM runs WHERE id = ?').get(runId) as { m: string | null }).m;
      } finally {
        raw.close();
      }
    },
    async forgetRunMessages(runId) {
      const raw = new Database(file);
      try {
        raw.prepare('UPDATE runs SET messages_json = NULL WHERE id = ?').run(runId);
      } finally {
        raw.close();
      }
    },
    async cleanup() {
      for (const store of opened) await store.close().catch(() => undefined); // some were closed by the test
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
});

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

function ids(list: { id: string }[]): string[] {
  return list.map((c) => c.id);
}

describe('SQLite chat store file', () => {
  it('has one migration per schema version', () => {
    expect(MIGRATIONS).toHaveLength(SCHEMA_VERSION);
  });

  it('indexes again, on upgrading to version 12, a run whose summary left out its child runs', async () => {
    const store = open();
    const conversation = await store.createConversation(OWNER);
    const turn = await store.addTurn(OWNER, conversation.id, 'Route this');
    await store.startRun(OWNER, turn.id, 'routed');
    const usage = { promptTokens: 100, completionTokens: 50, totalTokens: 150 };
    const helperCall: AgentEvent = {
      type: 'llm-end',
      runId: 'helper',
      iteration: 1,
      t: 2,
      finishReason: 'stop',
      usage,
      durationMs: 1,
    };
    await store.appendEvents(OWNER, 'routed', [
      { type: 'child', runId: 'routed', iteration: 1, t: 2, agent: 'helper', event: helperCall },
    ]);
    await store.finishRun(OWNER, 'routed', 'answered');
    await store.close();
    // As a version-11 file left it: the summary without the helper's call.
    const raw = new Database(file);
    raw.prepare("UPDATE run_summaries SET llm_calls = 0, prompt_tokens = 0 WHERE run_id = 'routed'").run();
    raw.pragma('user_version = 11');
    raw.close();

    const [row] = (await open().searchRuns(OWNER, {})).rows;
    expect(row).toMatchObject({ runId: 'routed', llmCalls: 1, promptTokens: 100, completionTokens: 50 });
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
});
