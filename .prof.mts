import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ownerScope } from './lib/store/owner';
const mod = await import(process.argv[2]!);
const open = mod.openSqliteStore;
const OWNER = ownerScope('o');
const FILE = path.join(mkdtempSync(path.join(os.tmpdir(), 'prof-')), 'x.db'); const store = await open(FILE);
const t = { conv: 0, turn: 0, start: 0, append: 0, finish: 0, list: 0, hist: 0 };
const N = 1500;
let c = '';
for (let i = 0; i < N; i++) {
  let t0 = performance.now();
  if (i % 10 === 0) c = (await store.createConversation(OWNER, { title: 'x' })).id;
  t.conv += performance.now() - t0; t0 = performance.now();
  const turn = await store.addTurn(OWNER, c, 'question ' + i);
  t.turn += performance.now() - t0; t0 = performance.now();
  await store.startRun(OWNER, turn.id, 'r' + i);
  t.start += performance.now() - t0; t0 = performance.now();
  await store.appendEvents(OWNER, 'r' + i, [{ type: 'text-delta', runId: 'r' + i, iteration: 1, t: 0, text: 'hello ' }, { type: 'text-delta', runId: 'r' + i, iteration: 1, t: 0, text: 'world' }]);
  t.append += performance.now() - t0; t0 = performance.now();
  await store.finishRun(OWNER, 'r' + i, 'answered');
  t.finish += performance.now() - t0; t0 = performance.now();
  await store.listHistory(OWNER, c);
  t.hist += performance.now() - t0; t0 = performance.now();
}
console.log(Object.fromEntries(Object.entries(t).map(([k, v]) => [k, Math.round((v / N) * 1000) + 'µs'])));

const g = (globalThis as any).__T as Map<string, [number, number]>;
if (g) console.log([...g.entries()].sort((a, b) => b[1][0] - a[1][0]).slice(0, 40).map(([k, [ms, n]]) => `${(ms / n * 1000).toFixed(0)}µs x${n} ${k.replace(/\s+/g, ' ').slice(0, 150)}`).join('\n'));
const fs = await import('node:fs');
console.log('wal', fs.statSync(FILE + '-wal', { throwIfNoEntry: false })?.size, 'db', fs.statSync(FILE).size);
await store.close();
