// Per-operation cost of the chat path (createConversation, addTurn, startRun, appendEvents, finishRun, listHistory,
// listTurns) on SQLite: wall time per op, and the process's CPU time over the whole loop.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ownerScope } from './lib/store/owner';
const mod = await import(process.argv[2]!);
const OWNER = ownerScope('o');
const store = await mod.openSqliteStore(path.join(mkdtempSync(path.join(os.tmpdir(), 'ops-')), 'x.db'));
const N = Number(process.argv[3] ?? 600);
const t: Record<string, number> = { turn: 0, start: 0, append: 0, finish: 0, hist: 0, turns: 0 };
let c = '';
const cpu0 = process.cpuUsage();
const w0 = performance.now();
for (let i = 0; i < N; i++) {
  if (i % 10 === 0) c = (await store.createConversation(OWNER, { title: 'x' })).id;
  let t0 = performance.now();
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
  await store.listTurns(OWNER, c);
  t.turns += performance.now() - t0;
}
const cpu = process.cpuUsage(cpu0);
console.log(process.argv[2]!.includes('sqlite.ts') ? 'old' : 'new', Object.entries(t).map(([k, v]) => `${k} ${Math.round((v / N) * 1000)}`).join(' '), `| cpu/iter ${Math.round((cpu.user + cpu.system) / N)}µs wall/iter ${Math.round(((performance.now() - w0) / N) * 1000)}µs`);
await store.close();
const C = ((globalThis as any).__C ?? []) as number[];
if (C.length) { C.sort((a, b) => a - b); const q = (f: number) => C[Math.floor(f * (C.length - 1))]!.toFixed(3); console.log('commits', C.length, 'p50', q(0.5), 'p90', q(0.9), 'p99', q(0.99), 'max', q(1), 'sum', C.reduce((a, b) => a + b, 0).toFixed(0), 'ms'); }
const io = (await import('node:fs')).readFileSync('/proc/self/io', 'utf8').match(/^wchar: (\d+)/m);
console.log('wchar MB', (Number(io?.[1]) / 1e6).toFixed(1));
