// Start and stop what the page benchmarks drive: the scripted model server (--control), the built app under
// `next start` with a throwaway DATA_DIR, and Debian's Chromium. Every child is started in its own process group
// and stopped by that group's id, so nothing outlives a benchmark.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { chromium, type Browser, type Page } from '@playwright/test';
import type { Scenario } from '../../lib/protocol/fixture';

/** Where the scripts (model server) live: the repository, since npm runs scripts from there. */
export const REPO_DIR = process.cwd();
/** The Next app to build and serve; another checkout can be measured with BENCH_APP_DIR. */
export const APP_DIR = path.resolve(process.env.BENCH_APP_DIR ?? REPO_DIR);

export interface Stoppable {
  stop(): Promise<void>;
}

export interface ModelServerProcess extends Stoppable {
  /** OpenAI base URL (ends with /v1). */
  url: string;
  /** Its process (the leader of its own process group). */
  pid: number;
  setScenario(scenario: Scenario): Promise<void>;
  /** When the server received each request (its clock: this machine's `Date.now()`), oldest first. */
  requestTimes(path: string): Promise<number[]>;
}

export interface AppProcess extends Stoppable {
  url: string;
  /** The `next start` process; its process group holds everything it started. */
  pid: number;
}

export interface AppOptions {
  appDir?: string;
  /** More variables (DATABASE_URL, OTEL_…); they win over the defaults. */
  env?: Record<string, string>;
  /** A data directory to use (and leave in place), e.g. one several instances share; default a fresh one. */
  dataDir?: string;
  /** Options for node itself (e.g. --cpu-prof, which NODE_OPTIONS does not take). */
  nodeArgs?: string[];
}

/** Load average and core count, printed with every result: numbers from a busy machine are not comparable. */
export function machineLoad(): string {
  const load = existsSync('/proc/loadavg') ? readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3) : ['?'];
  return `load average ${load.join(' ')} on ${cpus().length} cores`;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function newestMtime(dir: string): number {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return t;
}

/** Runs `next build` when there is no build, when sources changed since, or when forced (`--build`). */
export function ensureBuild(appDir = APP_DIR, force = process.argv.includes('--build')): void {
  const buildId = path.join(appDir, '.next', 'BUILD_ID');
  const sources = ['app', 'components', 'lib', 'tools'].map((d) => path.join(appDir, d)).filter(existsSync);
  const stale =
    !existsSync(buildId) ||
    Math.max(...sources.map(newestMtime), statSync(path.join(appDir, 'package.json')).mtimeMs) >
      statSync(buildId).mtimeMs;
  if (!force && !stale) return;
  process.stdout.write(`building the app in ${appDir} (next build)…\n`);
  execFileSync(path.join(appDir, 'node_modules', '.bin', 'next'), ['build'], { cwd: appDir, stdio: 'inherit' });
}

/** Process groups still running; whatever way this process ends, they are told to stop. */
const groups = new Set<number>();
process.on('exit', () => {
  for (const pid of groups) {
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
});

function track(child: ChildProcess): void {
  const pid = child.pid;
  if (!pid) return;
  groups.add(pid);
  child.once('exit', () => groups.delete(pid));
}

function stopGroup(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null || !child.pid) return resolve();
    const pid = child.pid;
    const kill = setTimeout(() => {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 5_000);
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

export async function startModelServer(): Promise<ModelServerProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(REPO_DIR, 'scripts/model-server/main.ts'), '--control', '--model', 'bench-model'],
    { cwd: REPO_DIR, stdio: ['ignore', 'pipe', 'inherit'], detached: true },
  );
  track(child);
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(line.replace(/^listening /, '')));
    child.once('exit', (code) => reject(new Error(`model server exited (${code})`)));
  });
  const control = url.replace(/\/v1$/, '');
  return {
    url,
    pid: child.pid!,
    async setScenario(scenario) {
      const res = await fetch(`${control}/_control/scenario`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(scenario),
      });
      if (!res.ok) throw new Error(`setting the scenario failed: HTTP ${res.status}`);
    },
    async requestTimes(wanted) {
      const res = await fetch(`${control}/_control/requests`);
      if (!res.ok) throw new Error(`reading the requests failed: HTTP ${res.status}`);
      const all = (await res.json()) as { path: string; at: number }[];
      return all.filter((r) => r.path === wanted).map((r) => r.at);
    },
    stop: () => stopGroup(child),
  };
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next start exited (${child.exitCode})`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the app did not answer ${url}/api/health within ${timeoutMs} ms`);
}

/** `next start` on a free port, talking to `modelUrl`, with a fresh data directory removed on stop (unless one is
 *  given). */
export async function startApp(modelUrl: string, opts: AppOptions = {}): Promise<AppProcess> {
  const appDir = opts.appDir ?? APP_DIR;
  const port = await freePort();
  const ownDataDir = !opts.dataDir;
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(tmpdir(), 'agent-studio-bench-'));
  const start = ['start', '-p', String(port), '-H', '127.0.0.1'];
  const child = spawn(
    opts.nodeArgs ? process.execPath : path.join(appDir, 'node_modules', '.bin', 'next'),
    opts.nodeArgs
      ? [...opts.nodeArgs, path.join(appDir, 'node_modules', 'next', 'dist', 'bin', 'next'), ...start]
      : start,
    {
      cwd: appDir,
      stdio: ['ignore', 'ignore', 'inherit'],
      detached: true,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        OPENAI_BASE_URL: modelUrl,
        OPENAI_API_KEY: 'sk-bench',
        OPENAI_MODEL: 'bench-model',
        DATA_DIR: dataDir,
        // Titles by the first message: a title request after each new conversation's answer would be load the
        // baseline build does not have.
        CONVERSATION_TITLES: 'message',
        ...opts.env,
      },
    },
  );
  track(child);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(url, child, 60_000);
  } catch (e) {
    await stopGroup(child);
    if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
    throw e;
  }
  return {
    url,
    pid: child.pid!,
    async stop() {
      await stopGroup(child);
      if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/** Opens the chat page and waits until it is hydrated (typing enables Send only once React owns the box). */
export async function openChat(page: Page, appUrl: string): Promise<void> {
  await page.goto(appUrl, { waitUntil: 'networkidle' });
  const box = page.getByRole('textbox', { name: 'Message', exact: true });
  for (let attempt = 0; attempt < 50; attempt++) {
    await box.fill('x');
    if (await page.locator('button[type=submit]:not([disabled])').count()) {
      await box.fill('');
      return;
    }
    await page.waitForTimeout(100);
  }
  throw new Error('the chat page never became interactive');
}

/** Types the message; the caller presses Enter, so it can note the time right before. */
export async function typeMessage(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill(text);
}

/**
 * Resolves once the last answer stopped streaming and Stop is gone; returns Date.now() in the page when that was
 * seen (checked every 20 ms: per-frame polling would add its own work to the frames being measured).
 */
export async function answerDone(page: Page, timeoutMs = 300_000): Promise<number> {
  const handle = await page.waitForFunction(
    () => {
      const answers = document.querySelectorAll('article[data-role="assistant"]');
      const last = answers[answers.length - 1];
      if (!last || last.getAttribute('aria-busy') !== 'false') return false;
      for (const b of document.querySelectorAll('button')) if (b.textContent?.trim() === 'Stop') return false;
      return Date.now();
    },
    undefined,
    { polling: 20, timeout: timeoutMs },
  );
  return (await handle.jsonValue()) as number;
}

/** Runs `body` with the three processes up, and stops them whatever happens (Ctrl-C included). */
export async function withStack<T>(
  body: (stack: { model: ModelServerProcess; app: AppProcess; browser: Browser }) => Promise<T>,
  opts: { modelUrlFor?: (modelUrl: string) => Promise<string>; env?: Record<string, string> } = {},
): Promise<T> {
  ensureBuild();
  const started: Stoppable[] = [];
  const stopAll = async () => {
    for (const s of started.splice(0).reverse()) await s.stop().catch(() => undefined);
  };
  // tsx forwards the signal and may end this process before stopAll finishes; the exit hook covers that case.
  const onSignal = () => void stopAll().finally(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const model = await startModelServer();
    started.push(model);
    const app = await startApp(opts.modelUrlFor ? await opts.modelUrlFor(model.url) : model.url, { env: opts.env });
    started.push(app);
    const browser = await launchBrowser();
    started.push({ stop: () => browser.close() });
    return await body({ model, app, browser });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await stopAll();
  }
}
