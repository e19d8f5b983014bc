// A second `next start` of the same build, for tests that need the server itself (kill it, start it with other
// variables), beside the one playwright.config.ts starts.
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { modelServerUrl } from './model';
import { spawnOwned } from './owned-processes';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** `next start` on the same build, in its own process group so SIGKILL takes all of it, and gone with the worker
 *  (a test that times out before it kills it leaves none behind); `env` adds variables. */
export async function startApp(port: number, dataDir: string, env: Record<string, string> = {}): Promise<ChildProcess> {
  const child = spawnOwned('./node_modules/.bin/next', ['start', '-p', String(port), '-H', '127.0.0.1'], {
    stdio: 'ignore',
    env: {
      ...process.env,
      OPENAI_BASE_URL: `${modelServerUrl()}/v1`,
      OPENAI_API_KEY: 'sk-e2e-secret-never-shown',
      OPENAI_MODEL: 'scripted-e2e',
      DATA_DIR: dataDir,
      LLM_MAX_RETRIES: '0',
      // As playwright.config.ts: titles by the first message unless a test asks for the model's.
      CONVERSATION_TITLES: 'message',
      ...env,
    },
  });
  // A cold start on a loaded shared machine can take longer than half a minute.
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}`);
    try {
      // 401: up, with accounts on (AUTH=required asks who is calling before it says anything).
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok || res.status === 401) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await kill(child);
  throw new Error(`next start on port ${port} did not answer within 60 s`);
}

export function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
  return exited;
}

/** The test's own app on a free port and `dataDir`: `down` kills it (SIGKILL), `up` starts it again on the same port
 *  and data, as a restart does. `down` in a `finally` leaves nothing running. */
export async function ownApp(dataDir: string, env: Record<string, string> = {}) {
  const port = await freePort();
  let app = await startApp(port, dataDir, env);
  return {
    base: `http://127.0.0.1:${port}`,
    down: () => kill(app),
    up: async () => {
      app = await startApp(port, dataDir, env);
    },
  };
}
