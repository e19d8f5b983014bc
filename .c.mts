import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs'; import os from 'node:os'; import path from 'node:path';
const db = new Database(path.join(mkdtempSync(path.join(os.tmpdir(), 'c-')), 'x.db'));
db.pragma('journal_mode = WAL'); db.pragma('synchronous = NORMAL');
db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
const ins = db.prepare('INSERT INTO t (v) VALUES (?)');
const pb = db.prepare('BEGIN IMMEDIATE'), pc = db.prepare('COMMIT'), pb2 = db.prepare('BEGIN');
const tx = db.transaction(() => ins.run('x'.repeat(200)));
const ways: Record<string, () => void> = {
  internal: () => tx(),
  internalImmediate: () => tx.immediate(),
  preparedImmediate: () => { pb.run(); ins.run('x'.repeat(200)); pc.run(); },
  preparedDeferred: () => { pb2.run(); ins.run('x'.repeat(200)); pc.run(); },
  exec: () => { db.exec('BEGIN IMMEDIATE'); ins.run('x'.repeat(200)); db.exec('COMMIT'); },
};
for (let round = 0; round < 3; round++) for (const [k, f] of Object.entries(ways)) { const t0 = performance.now(); for (let i = 0; i < 2000; i++) f(); console.log(round, k, ((performance.now() - t0) / 2000 * 1000).toFixed(0), 'µs'); }
