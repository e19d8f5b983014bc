// Several instances of the built app on one PostgreSQL database: `next start` processes on loopback ports sharing a
// DATABASE_URL (a fresh database in the test cluster) and a DATA_DIR, the scripted model server in this process.
// Requests carry a same-origin Origin, as the app's request checks want of a POST.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createModelServer, type ModelServer } from '../../../scripts/model-server/server';
import { freshDatabase, type TestDatabase } from '../../support/postgres';
import { actionId, freePort, request, requireBuild, ROOT, spawnCaptured } from '../../security/support/app';

export interface Instance {
  name: string;
  url: string;
  pid: number;
  output(): string;
  stop(): Promise<void>;
  /** SIGKILL to its whole process group (no chance to release anything). */
  kill(): Promise<void>;
  /** SIGTERM to the server process alone (a deploy, docker stop); resolves with its exit code once it has exited. */
  terminate(): Promise<number | null>;
}

export interface Cluster {
  db: TestDatabase;
  dataDir: string;
  model: ModelServer;
  instances: Instance[];
  leaseMs: number;
  /** One more instance on the same database and DATA_DIR, with a lease of its own (default: the cluster's). */
  add(opts?: { leaseMs?: number }): Promise<Instance>;
  stop(): Promise<void>;
}

/** `count` instances on a fresh database of the test cluster (or of `postgres`, a server of the test's own). */
export async function startCluster(opts: {
  count: number;
  leaseMs: number;
  postgres?: string;
  /** More of the instances' environment (AUTH=required, say). */
  env?: Record<string, string>;
}): Promise<Cluster> {
  requireBuild();
  const db = await freshDatabase('instances', opts.postgres);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'instances-data-'));
  const model = await createModelServer();
  const instances: Instance[] = [];
  const stop = async () => {
    for (const i of instances) await i.stop();
    await model.close();
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    // One after the other: the first applies the migrations, the next finds them applied.
    for (let n = 0; n < opts.count; n++)
      instances.push(await startInstance(String.fromCharCode(65 + n), db, dataDir, model, opts.leaseMs, opts.env));
  } catch (e) {
    await stop();
    throw e;
  }
  const add = async (more: { leaseMs?: number } = {}) => {
    const name = String.fromCharCode(65 + instances.length);
    const instance = await startInstance(name, db, dataDir, model, more.leaseMs ?? opts.leaseMs, opts.env);
    instances.push(instance);
    return instance;
  };
  return { db, dataDir, model, instances, leaseMs: opts.leaseMs, add, stop };
}

async function startInstance(
  name: string,
  db: TestDatabase,
  dataDir: string,
  model: ModelServer,
  leaseMs: number,
  env: Record<string, string> = {},
): Promise<Instance> {
  const port = await freePort();
  const proc = spawnCaptured(
    path.join(ROOT, 'node_modules', '.bin', 'next'),
    ['start', '-p', String(port), '-H', '127.0.0.1'],
    {
      ...process.env,
      NODE_ENV: 'production',
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: 'sk-instances',
      OPENAI_MODEL: 'scripted-instances',
      LLM_MAX_RETRIES: '0',
      DATA_DIR: dataDir,
      MCP_CONFIG: path.join(dataDir, 'mcp.json'),
      DATABASE_URL: db.url,
      RUN_LEASE_MS: String(leaseMs),
      CONVERSATION_TITLES: 'message',
      ...env,
    },
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.child.exitCode !== null)
      throw new Error(`instance ${name} exited (${proc.child.exitCode}):\n${proc.output()}`);
    const res = await request(url, '/api/health').catch(() => undefined);
    // With accounts on, the health check answers 401 to a client that is not signed in: up all the same.
    if (res?.status === 200 || res?.status === 401) break;
    if (Date.now() > deadline) throw new Error(`instance ${name} never answered /api/health:\n${proc.output()}`);
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    name,
    url,
    pid: proc.child.pid!,
    output: proc.output,
    stop: proc.stop,
    async kill() {
      if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
      process.kill(-proc.child.pid!, 'SIGKILL');
      await proc.exited;
    },
    async terminate() {
      if (proc.child.exitCode !== null || proc.child.signalCode !== null) return proc.child.exitCode;
      process.kill(proc.child.pid!, 'SIGTERM');
      return proc.exited;
    },
  };
}

/** Calls a server action over HTTP, as the page does, and returns the value it answered. */
export async function action<T>(instance: Instance, name: string, args: unknown[]): Promise<T> {
  const answer = await request(instance.url, '/', {
    method: 'POST',
    headers: {
      'next-action': actionId(name),
      'content-type': 'text/plain;charset=UTF-8',
      accept: 'text/x-component',
      origin: instance.url,
    },
    body: JSON.stringify(args),
  });
  const row = answer.text.split('\n').find((l) => l.startsWith('1:'));
  if (answer.status !== 200 || !row)
    throw new Error(`${name} failed: HTTP ${answer.status} ${answer.text.slice(0, 300)}`);
  return JSON.parse(row.slice(2)) as T;
}

export interface FeedItem {
  event?: string;
  data: Record<string, unknown> & { type?: string };
}

/** A text/event-stream answer read one event at a time. */
export class SseReader {
  private buffer = '';
  private constructor(
    readonly status: number,
    private readonly reader: ReadableStreamDefaultReader<string> | undefined,
  ) {}

  static async open(url: string, init: RequestInit = {}): Promise<SseReader> {
    const res = await fetch(url, init);
    return new SseReader(res.status, res.body?.pipeThrough(new TextDecoderStream()).getReader());
  }

  /** The next event, or undefined once the stream ended. */
  async next(): Promise<FeedItem | undefined> {
    for (;;) {
      const end = this.buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        const item: FeedItem = { data: {} };
        for (const line of block.split('\n')) {
          if (line.startsWith('event: ')) item.event = line.slice(7);
          else if (line.startsWith('data: ')) item.data = JSON.parse(line.slice(6)) as FeedItem['data'];
        }
        return item;
      }
      const chunk = await this.reader?.read();
      if (!chunk || chunk.done) return undefined;
      this.buffer += chunk.value;
    }
  }

  /** Reads until `until` holds for an event (returned), or the end (undefined). */
  async readUntil(until: (item: FeedItem) => boolean, seen: FeedItem[] = []): Promise<FeedItem | undefined> {
    for (;;) {
      const item = await this.next();
      if (!item) return undefined;
      seen.push(item);
      if (until(item)) return item;
    }
  }

  async rest(seen: FeedItem[] = []): Promise<FeedItem[]> {
    await this.readUntil(() => false, seen);
    return seen;
  }

  async close(): Promise<void> {
    await this.reader?.cancel().catch(() => undefined);
  }
}

/** The answer text of feed events. */
export function textOf(items: readonly FeedItem[]): string {
  return items.map((i) => (i.data.type === 'text-delta' ? String(i.data.text) : '')).join('');
}

/** POST /api/chat on an instance, read as SSE; its first event says the run's ids. */
export async function startChat(instance: Instance, body: Record<string, unknown>) {
  const sse = await SseReader.open(`${instance.url}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: instance.url },
    body: JSON.stringify(body),
  });
  const turn = await sse.next();
  if (sse.status !== 200 || turn?.event !== 'turn') throw new Error(`POST /api/chat answered ${sse.status}`);
  return { sse, ids: turn.data as { conversationId: string; turnId: string; runId: string } };
}

/** GET /api/runs/<id>/events on an instance. */
export function followRun(instance: Instance, runId: string): Promise<SseReader> {
  return SseReader.open(`${instance.url}/api/runs/${runId}/events`);
}
