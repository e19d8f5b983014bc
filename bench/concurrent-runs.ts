// bench/concurrent-runs: many conversations at once through the real app, against one conversation alone on the
// same servers in the same run. The app is the production build under `next start` (bench/support/setups.ts says how
// its servers start: one instance on SQLite, one on PostgreSQL, two on one PostgreSQL database); each conversation is
// one POST /api/chat read as SSE to its run-end, round-robin over the instances. The scripted model server (a child process) answers each conversation with two model calls, both 200 ms to
// first token and 20 ms per chunk: a calculator call, then an answer of 30 chunks, each chunk stamped with the time
// the model server wrote it, so the client measures how long a chunk took to reach it as an SSE frame.
// Prints, per level of concurrency: wall time against one conversation alone (goal <= 1.5x), errors (goal 0), p50 /
// p99 chunk-to-frame latency, the CPU the app, the model server and this client used (share of one core), the
// machine's CPU, and the app's RSS before and after (and the database server's, on PostgreSQL).
// Several setups in one run (--setup sqlite-1,pg-1,pg-2) are measured one after the other against the same model
// server, and each is then compared with the first (the baseline: SQLite, one instance) level by level.
// Run: npm run bench:concurrent [-- --levels 50,100,200 --setup sqlite-1,pg-1,pg-2 --chunks 30 --ttft 200
//      --chunk-ms 20 --alone 3 --otel --profile /tmp/app-profiles --build]
import { ensureBuild, machineLoad, startModelServer, type ModelServerProcess } from './support/app';
import { flag } from './support/flags';
import { familiesUsage, groupsUsage, groupUsage, machineCpu, mainThreadSched } from './support/proc';
import { SETUPS, type RunningServers, type ServerSetup } from './support/setups';
import { quantile } from './support/stats';
import { createOtlpReceiver, type OtlpReceiver } from '../scripts/otlp-receiver/server';
import type { Scenario } from '../lib/protocol/fixture';

const LEVELS = flag('levels', '50,100,200').split(',').map(Number);
const SETUP_NAMES = flag('setup', 'sqlite-1').split(',');
const CHUNKS = Number(flag('chunks', '30'));
const TTFT_MS = Number(flag('ttft', '200'));
const CHUNK_MS = Number(flag('chunk-ms', '20'));
const ALONE = Number(flag('alone', '3'));
/** Also export every run to a local OTLP receiver (in this process), to see tracing under the same load. */
const OTEL = process.argv.includes('--otel');
/** A directory for CPU profiles of the app (node --cpu-prof), written when it stops. */
const PROFILE_DIR = flag('profile', '');
const TIMEOUT_MS = 180_000;

/** The calculator's answer to the first call: the second call's request holds it, and so gets the answer. */
const TOOL_RESULT = '12340';
const SCENARIO: Scenario = {
  rules: [
    {
      when: { anyIncludes: TOOL_RESULT },
      reply: { content: 'abcd'.repeat(CHUNKS), chunkSize: 4, ttftMs: TTFT_MS, delayMs: CHUNK_MS, stampChunks: true },
    },
  ],
  fallback: {
    toolCalls: [{ name: 'calculator', arguments: '{"expression": "1234*10"}' }],
    ttftMs: TTFT_MS,
    delayMs: CHUNK_MS,
  },
};

const STAMP = /⟦t=([\d.]+)⟧/g;

const epoch = () => performance.timeOrigin + performance.now();

interface Conversation {
  ok: boolean;
  error?: string;
  ms: number;
  /** ms from each chunk leaving the model server to its SSE frame being read here. */
  latencies: number[];
}

async function conversation(base: string, i: number): Promise<Conversation> {
  const t0 = performance.now();
  const latencies: number[] = [];
  const done = (ok: boolean, error?: string): Conversation => ({ ok, error, ms: performance.now() - t0, latencies });
  try {
    const res = await fetch(`${base}/api/chat`, {
      method: 'POST',
      // Same-origin and a loopback Host, as the app's request checks want them.
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ message: `Conversation ${i}: what is 1234 times ten?`, tools: ['calculator'] }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (res.status !== 200) return done(false, `HTTP ${res.status}: ${(await res.text()).slice(0, 200)}`);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    let text = '';
    for (;;) {
      const { value, done: ended } = await reader.read();
      if (ended) return done(false, 'the stream ended without run-end');
      const now = epoch();
      buffer += value;
      let at: number;
      while ((at = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        if (!frame.startsWith('data: ')) continue;
        const event = JSON.parse(frame.slice(6)) as { type: string; text?: string; reason?: string; error?: unknown };
        if (event.type === 'text-delta') {
          text += event.text;
          let last = 0;
          for (const m of text.matchAll(STAMP)) {
            latencies.push(now - Number(m[1]));
            last = m.index + m[0].length;
          }
          text = text.slice(last); // a stamp cut between two frames is completed by the next one
        }
        if (event.type === 'run-end') {
          await reader.cancel().catch(() => undefined);
          return event.reason === 'answered'
            ? done(true)
            : done(false, `run-end ${event.reason} ${JSON.stringify(event.error ?? '')}`);
        }
      }
    }
  } catch (e) {
    return done(false, (e as Error).message);
  }
}

interface Level {
  n: number;
  wallMs: number;
  errors: string[];
  latencies: number[];
  appCpu: number;
  /** The database server's processes (PostgreSQL), share of one core; 0 on SQLite (it runs inside the app). */
  dbCpu: number;
  modelCpu: number;
  clientCpu: number;
  machineCpu: number;
  /** The first instance's main thread: share of the wall time on a CPU, and runnable but waiting for one. */
  mainRun: number;
  mainWait: number;
  /** GET /api/health answer times during the level: how long a request waits for the app's event loop. */
  health: number[];
  rssBefore: number;
  rssAfter: number;
  dbRssAfter: number;
}

async function level(servers: RunningServers, model: ModelServerProcess, n: number): Promise<Level> {
  const app0 = groupsUsage(servers.pids);
  const db0 = familiesUsage(servers.databasePids);
  const model0 = groupUsage(model.pid);
  const machine0 = machineCpu();
  const client0 = process.cpuUsage();
  const main0 = mainThreadSched(servers.pids[0]!);
  const t0 = performance.now();
  let running = true;
  const health: number[] = [];
  const probe = (async () => {
    while (running) {
      const h0 = performance.now();
      await fetch(`${servers.urls[0]}/api/health`).then((r) => r.arrayBuffer());
      health.push(performance.now() - h0);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const results = await Promise.all(
    Array.from({ length: n }, (_, i) => conversation(servers.urls[i % servers.urls.length]!, i)),
  );
  const wallMs = performance.now() - t0;
  running = false;
  await probe;
  const main1 = mainThreadSched(servers.pids[0]!);
  const app1 = groupsUsage(servers.pids);
  const db1 = familiesUsage(servers.databasePids);
  const machine1 = machineCpu();
  const client = process.cpuUsage(client0);
  const wallS = wallMs / 1000;
  return {
    n,
    wallMs,
    errors: results.filter((r) => !r.ok).map((r) => r.error ?? '?'),
    latencies: results.flatMap((r) => r.latencies),
    appCpu: (app1.cpuSeconds - app0.cpuSeconds) / wallS,
    dbCpu: (db1.cpuSeconds - db0.cpuSeconds) / wallS,
    modelCpu: (groupUsage(model.pid).cpuSeconds - model0.cpuSeconds) / wallS,
    clientCpu: (client.user + client.system) / 1e6 / wallS,
    machineCpu: (machine1.busy - machine0.busy) / (machine1.total - machine0.total),
    mainRun: (main1.runNs - main0.runNs) / 1e6 / wallMs,
    mainWait: (main1.waitNs - main0.waitNs) / 1e6 / wallMs,
    health,
    rssBefore: app0.rssBytes,
    rssAfter: app1.rssBytes,
    dbRssAfter: db1.rssBytes,
  };
}

const pct = (x: number) => `${Math.round(x * 100)}%`;
const mb = (b: number) => `${Math.round(b / 2 ** 20)}`;
const ms = (x: number) => (x < 10 ? x.toFixed(1) : x.toFixed(0));
const times = (x: number) => `${x.toFixed(2)}x`;

interface SetupResult {
  name: string;
  aloneMs: number;
  rows: Level[];
}

/** One setup: its servers started, warmed up, one conversation alone, then each level; the servers stopped. */
async function measure(
  name: string,
  setup: ServerSetup,
  model: ModelServerProcess,
  receiver: OtlpReceiver | undefined,
): Promise<SetupResult> {
  const servers = await setup.start(model.url, {
    env: {
      // One client (this process) starts every conversation: the per-client run limits would refuse most of them.
      MAX_CONCURRENT_RUNS: '100000',
      MAX_RUNS_PER_MINUTE: '100000',
      ...(receiver ? { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } : {}),
    },
    ...(PROFILE_DIR ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] } : {}),
  });
  try {
    // Warm-up: the route compiled and the agent code hot, in each instance.
    for (const url of servers.urls) for (let i = 0; i < 3; i++) await conversation(url, -1);
    await Promise.all(Array.from({ length: 10 }, (_, i) => conversation(servers.urls[i % servers.urls.length]!, -2)));

    const alone: number[] = [];
    for (let i = 0; i < ALONE; i++) {
      const r = await conversation(servers.urls[0]!, -3);
      if (!r.ok) throw new Error(`a conversation alone failed: ${r.error}`);
      alone.push(r.ms);
    }
    const aloneMs = quantile(alone, 0.5);
    console.log(
      `\nconcurrent-runs: ${name} (${setup.describe}); POST /api/chat read as SSE; each conversation: 2 model calls ` +
        `(${TTFT_MS} ms to first token, ${CHUNK_MS} ms per chunk): a calculator call, then ${CHUNKS} stamped chunks` +
        `${OTEL ? '; every run traced to a local OTLP receiver' : ''}`,
    );
    console.log(`${machineLoad()} at start`);
    console.log(`one conversation alone: ${ms(aloneMs)} ms (median of ${ALONE}: ${alone.map(ms).join(', ')})`);
    console.log(
      'conversations  wall ms  x alone  errors  chunk->frame ms p50 / p99 / max  app CPU  db CPU  ' +
        'main thread run / wait  /api/health ms p50 / p99  model CPU  client CPU  machine CPU  ' +
        'app RSS MB before -> after  db RSS MB',
    );
    const rows: Level[] = [];
    for (const n of LEVELS) {
      const r = await level(servers, model, n);
      rows.push(r);
      const lat = r.latencies;
      console.log(
        [
          String(n).padStart(13),
          ms(r.wallMs).padStart(8),
          times(r.wallMs / aloneMs).padStart(8),
          String(r.errors.length).padStart(7),
          `${ms(quantile(lat, 0.5))} / ${ms(quantile(lat, 0.99))} / ${ms(quantile(lat, 1))}`.padStart(33),
          pct(r.appCpu).padStart(8),
          (servers.databasePids.length ? pct(r.dbCpu) : '-').padStart(7),
          `${pct(r.mainRun)} / ${pct(r.mainWait)}`.padStart(23),
          `${ms(quantile(r.health, 0.5))} / ${ms(quantile(r.health, 0.99))}`.padStart(25),
          pct(r.modelCpu).padStart(10),
          pct(r.clientCpu).padStart(11),
          pct(r.machineCpu).padStart(12),
          `${mb(r.rssBefore)} -> ${mb(r.rssAfter)}`.padStart(27),
          (servers.databasePids.length ? mb(r.dbRssAfter) : '-').padStart(10),
        ].join(' '),
      );
      for (const e of [...new Set(r.errors)].slice(0, 3)) console.log(`               error: ${e}`);
    }
    // The app's CPU per conversation hardly depends on how busy the machine is; from it, where one core runs out.
    const cpuMs = cpuPerConversation(rows, false);
    const perSecond = (1000 / cpuMs) * servers.pids.length;
    console.log(
      `app CPU per conversation: ${ms(cpuMs)} ms (median over the levels), so ${servers.pids.length} instance(s), ` +
        `one core each, serve about ${perSecond.toFixed(0)} conversations/s, about ` +
        `${((perSecond * aloneMs) / 1000).toFixed(0)} at once of this shape (${ms(aloneMs)} ms each) before the ` +
        `apps' main threads are the limit`,
    );
    const first = rows[0];
    if (first)
      console.log(
        `at ${first.n}: ${times(first.wallMs / aloneMs)} alone (goal <= 1.5x) ` +
          `${first.wallMs / aloneMs <= 1.5 ? 'MET' : 'NOT MET'}, ${first.errors.length} errors (goal 0) ` +
          `${first.errors.length === 0 ? 'MET' : 'NOT MET'}`,
      );
    if (receiver) {
      const health = (await (await fetch(`${servers.urls[0]}/api/health`)).json()) as { telemetry: unknown };
      console.log(
        `OTLP receiver: ${receiver.spans.length} spans in ${receiver.requests} requests so far; the app says ` +
          `${JSON.stringify(health.telemetry)} (the last batch waits for OTEL_BSP_SCHEDULE_DELAY)`,
      );
    }
    console.log(`${machineLoad()} at the end`);
    return { name, aloneMs, rows };
  } finally {
    await servers.stop();
  }
}

/** CPU ms per conversation, median over the levels: the app's, or the app's and the database server's. */
function cpuPerConversation(rows: readonly Level[], withDatabase: boolean): number {
  return quantile(
    rows.map((r) => ((r.appCpu + (withDatabase ? r.dbCpu : 0)) * r.wallMs) / r.n),
    0.5,
  );
}

/** Every setup against the first, level by level: the ratios of wall time, latency and CPU per conversation. */
function compare(results: readonly SetupResult[]): void {
  const [base, ...others] = results;
  if (!base || !others.length) return;
  console.log(`\nagainst ${base.name}, measured in this run (ratio > 1: slower or costlier than ${base.name})`);
  console.log(
    'setup     conversations  x alone  wall x base  errors  chunk->frame p50 x base  p99 x base  ' +
      'CPU/conversation (app + db) ms  x base',
  );
  const baseCpu = cpuPerConversation(base.rows, true);
  for (const result of results) {
    const cpu = cpuPerConversation(result.rows, true);
    for (const r of result.rows) {
      const b = base.rows.find((x) => x.n === r.n);
      if (!b) continue;
      console.log(
        [
          result.name.padEnd(9),
          String(r.n).padStart(13),
          times(r.wallMs / result.aloneMs).padStart(8),
          times(r.wallMs / b.wallMs).padStart(12),
          String(r.errors.length).padStart(7),
          times(quantile(r.latencies, 0.5) / quantile(b.latencies, 0.5)).padStart(23),
          times(quantile(r.latencies, 0.99) / quantile(b.latencies, 0.99)).padStart(11),
          ms(cpu).padStart(31),
          times(cpu / baseCpu).padStart(7),
        ].join(' '),
      );
    }
  }
}

async function main(): Promise<void> {
  const setups = SETUP_NAMES.map((name) => {
    const setup = SETUPS[name];
    if (!setup) throw new Error(`unknown --setup ${name} (known: ${Object.keys(SETUPS).join(', ')})`);
    return [name, setup] as const;
  });
  ensureBuild();
  const receiver = OTEL ? await createOtlpReceiver() : undefined;
  const model = await startModelServer();
  try {
    await model.setScenario(SCENARIO);
    const results: SetupResult[] = [];
    for (const [name, setup] of setups) results.push(await measure(name, setup, model, receiver));
    compare(results);
    console.log(
      '\nCPU shares are of one core. The app runs its JavaScript on its main thread: "run" near 100% is its ceiling; ' +
        '"wait" is time it was ready to run but every core was busy (the machine, not the app, was full).',
    );
  } finally {
    await model.stop();
    await receiver?.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
