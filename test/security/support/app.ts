// The security suite's harness: the built app under `next start` on a loopback port with its own DATA_DIR, the
// scripted model server in this process (so a test can count the requests it received), raw HTTP requests with
// any Host, Origin or body, the server's resident memory from /proc, and the action ids of the build.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { createModelServer, type ModelServer } from '../../../scripts/model-server/server';
import { buildActionId, buildActionPage } from '../../support/server-actions';

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const NEXT = path.join(ROOT, 'node_modules', '.bin', 'next');

/** The suite runs against `next build` output; say how to make it rather than failing obscurely. */
export function requireBuild(): void {
  if (!existsSync(path.join(ROOT, '.next', 'BUILD_ID')))
    throw new Error('The security suite tests the built app: run `npx next build` first (npm test does it).');
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

/** This machine's first non-loopback IPv4 address: a client that is not on loopback, without leaving the host. */
export function ownLanAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
}

export interface App {
  url: string;
  port: number;
  pid: number;
  dataDir: string;
  model: ModelServer;
  /** Everything the server printed. */
  output(): string;
  stop(): Promise<void>;
}

function stopGroup(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null || !child.pid) return resolve();
    const pid = child.pid;
    const kill = setTimeout(() => process.kill(-pid, 'SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      clearTimeout(kill);
      resolve();
    }
  });
}

/** Spawns a command in its own process group and collects what it prints. */
export function spawnCaptured(command: string, args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(command, args, { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, exited, stop: () => stopGroup(child) };
}

/**
 * `next start -H <host>` on a free port with a fresh DATA_DIR, the scripted model server as its model, and `env`
 * on top. Waits until /api/health answers 200 (with the bearer token when ACCESS_TOKEN is set; 401 when AUTH=required),
 * or, with `firstPage`, until that page answers 200: the server's services are then built by a page's bundle, not a
 * route's, as when a browser comes first (errors thrown by them are another bundle's classes in every route).
 */
export async function startApp(
  opts: { host?: string; env?: Record<string, string>; firstPage?: string } = {},
): Promise<App> {
  requireBuild();
  const model = await createModelServer();
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'security-app-'));
  const proc = spawnCaptured(NEXT, ['start', '-p', String(port), '-H', opts.host ?? '127.0.0.1'], {
    ...process.env,
    NODE_ENV: 'production',
    OPENAI_BASE_URL: model.url,
    OPENAI_API_KEY: 'sk-security-suite',
    OPENAI_MODEL: 'scripted-security',
    LLM_MAX_RETRIES: '0',
    DATA_DIR: dataDir,
    MCP_CONFIG: path.join(dataDir, 'mcp.json'),
    // Titles by the first message: the suite scripts the model's replies to each run, not to title requests.
    CONVERSATION_TITLES: 'message',
    ...opts.env,
  });
  const url = `http://127.0.0.1:${port}`;
  const token = opts.env?.ACCESS_TOKEN;
  // With accounts on, /api/health wants a user: a 401 from it says the server is up.
  const accounts = opts.env?.AUTH === 'required';
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.child.exitCode !== null) throw new Error(`next start exited (${proc.child.exitCode}):\n${proc.output()}`);
    const res = await request(url, opts.firstPage ?? '/api/health', {
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(opts.firstPage ? { 'sec-fetch-mode': 'navigate', accept: 'text/html' } : {}),
      },
    }).catch(() => undefined);
    if (res?.status === 200 || (accounts && !opts.firstPage && res?.status === 401)) break;
    if (Date.now() > deadline) throw new Error(`the app never answered /api/health:\n${proc.output()}`);
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    url,
    port,
    pid: proc.child.pid!,
    dataDir,
    model,
    output: proc.output,
    async stop() {
      await proc.stop();
      await model.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Answer {
  /** 0 when the connection was reset before an answer could be read (`reset` says how). */
  status: number;
  reset?: string;
  headers: http.IncomingHttpHeaders;
  text: string;
  json<T = { error?: { message: string } }>(): T;
}

/**
 * One raw HTTP request: any Host (default: the URL's), any Origin, a string body or a generator of chunks sent as
 * they come (chunked, unless content-length is given). Write errors after an early answer are ignored: the server
 * may answer and close while the body is still going. A streamed body goes on a keep-alive connection of its own, as
 * a browser or curl sends one: with `Connection: close` (Node's default without an agent) the server closes as soon as
 * it has answered, and a client still writing then gets a reset that destroys the answer before it is read (Node
 * has no lingering close), which made the body-limit tests fail now and then on a loaded machine.
 */
export function request(
  base: string,
  pathname: string,
  opts: {
    method?: string;
    headers?: Record<string, string>;
    body?: string | AsyncIterable<Buffer>;
    localAddress?: string;
  } = {},
): Promise<Answer> {
  const target = new URL(pathname, base);
  const streamed = opts.body !== undefined && typeof opts.body !== 'string';
  const agent = streamed ? new http.Agent({ keepAlive: true, maxSockets: 1 }) : false;
  const answer = new Promise<Answer>((resolve, reject) => {
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: opts.method ?? (opts.body === undefined ? 'GET' : 'POST'),
        headers: opts.headers,
        localAddress: opts.localAddress,
        agent,
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (b: Buffer) => parts.push(b));
        res.on('end', () => {
          const text = Buffer.concat(parts).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
        });
        res.on('error', reject);
      },
    );
    let answered = false;
    req.on('response', () => (answered = true));
    // A write into a connection the server is closing may fail just before its answer is read: give the answer a
    // moment to arrive before calling the request failed.
    req.on('error', (e: NodeJS.ErrnoException) =>
      setTimeout(() => {
        if (answered) return;
        if (e.code === 'EPIPE' || e.code === 'ECONNRESET')
          resolve({ status: 0, reset: e.code, headers: {}, text: '', json: () => ({}) as never });
        else reject(e);
      }, 2_000),
    );
    if (opts.body === undefined || typeof opts.body === 'string') {
      req.end(opts.body);
      return;
    }
    const body = opts.body;
    req.flushHeaders(); // the server sees the request (and may answer) before the first byte of the body
    void (async () => {
      try {
        for await (const chunk of body) {
          if (answered || req.destroyed) break;
          if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
        }
        req.end();
      } catch {
        // the server closed the connection after answering
      }
    })();
  });
  if (agent) void answer.finally(() => agent.destroy()).catch(() => undefined);
  return answer;
}

/** `total` bytes in 64 KB chunks of one reused buffer: a huge body that costs this process nothing. */
export async function* bytes(total: number, fill = 0x20): AsyncIterable<Buffer> {
  const chunk = Buffer.alloc(64 * 1024, fill);
  for (let sent = 0; sent < total; sent += chunk.length)
    yield sent + chunk.length <= total ? chunk : chunk.subarray(0, total - sent);
}

/** Resident memory of a process in MB (Linux). */
export function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** Peak resident memory of `pid` while `body` runs, sampled every 10 ms, against what it was before. */
export async function peakRssGrowth<T>(
  pid: number,
  body: () => Promise<T>,
): Promise<{ result: T; beforeMb: number; peakMb: number }> {
  const beforeMb = rssMb(pid);
  let peakMb = beforeMb;
  const timer = setInterval(() => (peakMb = Math.max(peakMb, rssMb(pid))), 10);
  try {
    const result = await body();
    peakMb = Math.max(peakMb, rssMb(pid));
    return { result, beforeMb, peakMb };
  } finally {
    clearInterval(timer);
  }
}

/** A page of this build that uses the server action (where a browser calls it from): '/', '/account', '/runs'… */
export function actionPage(name: string): string {
  return buildActionPage(ROOT, name);
}

/** The id of a server action in this build, by its exported name. */
export function actionId(name: string): string {
  return buildActionId(ROOT, name);
}

/** Calls a server action the way the page does (POST to the page that uses it, `/` unless said, with Next-Action),
 *  with any extra headers. */
export function callAction(app: App, name: string, args: unknown[], headers: Record<string, string> = {}, page = '/') {
  return request(app.url, page, {
    method: 'POST',
    headers: {
      'next-action': actionId(name),
      'content-type': 'text/plain;charset=UTF-8',
      accept: 'text/x-component',
      origin: app.url,
      ...headers,
    },
    body: JSON.stringify(args),
  });
}

/** Names of everything under a directory (recursively), or [] when it does not exist. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(path.relative(dir, p));
    }
  };
  walk(dir);
  return out;
}

/** Rows in a table of the app's SQLite store (0 when the store was never created). */
export function countRows(app: App, table: 'conversations' | 'runs' | 'documents'): number {
  const file = path.join(app.dataDir, 'agent-studio.db');
  if (!existsSync(file)) return 0;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** The value a server action returned, from its RSC answer (row 1 holds it for plain JSON values). */
export function actionValue<T>(answer: Answer): T {
  const row = answer.text.split('\n').find((l) => l.startsWith('1:'));
  if (answer.status !== 200 || !row)
    throw new Error(`the action failed: HTTP ${answer.status} ${answer.text.slice(0, 200)}`);
  return JSON.parse(row.slice(2)) as T;
}
