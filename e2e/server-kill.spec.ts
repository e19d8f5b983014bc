import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { expect, test } from '@playwright/test';
import { assistantTurns, openChat, send } from './support/chat';
import { modelServerUrl, setScenario } from './support/model';

const ANSWER = 'Axolotls regrow limbs. '.repeat(100);

/** The streamed answer's text in a turn's innerText (its paragraph, without the notice lines after it). */
function answerText(turnText: string): string {
  return (turnText.match(/Axolotls regrow[A-Za-z. ]*/)?.[0] ?? '').trimEnd();
}

function freePort(): Promise<number> {
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

/** `next start` on the same build, in its own process group so SIGKILL takes all of it. */
async function startApp(port: number, dataDir: string): Promise<ChildProcess> {
  const child = spawn('./node_modules/.bin/next', ['start', '-p', String(port), '-H', '127.0.0.1'], {
    detached: true,
    stdio: 'ignore',
    env: {
      ...process.env,
      OPENAI_BASE_URL: `${modelServerUrl()}/v1`,
      OPENAI_API_KEY: 'sk-e2e-secret-never-shown',
      OPENAI_MODEL: 'scripted-e2e',
      DATA_DIR: dataDir,
      LLM_MAX_RETRIES: '0',
    },
  });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  kill(child);
  throw new Error(`next start on port ${port} did not answer within 30 s`);
}

function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
  return exited;
}

test('a server killed mid-answer keeps the partial text, shown as interrupted after a restart', async ({
  page,
}, testInfo) => {
  testInfo.setTimeout(60_000);
  const port = await freePort();
  const dataDir = testInfo.outputPath('data');
  const base = `http://127.0.0.1:${port}`;
  await setScenario({
    rules: [
      {
        when: { lastUserIncludes: 'kill-axolotl' },
        reply: { content: ANSWER, chunkSize: 2, delayMs: 30 },
      },
    ],
  });

  let app = await startApp(port, dataDir);
  try {
    await openChat(page, base);
    await send(page, 'Tell me about axolotls kill-axolotl');
    const turn = assistantTurns(page).last();
    await expect(turn).toContainText('Axolotls regrow limbs. Axolotls regrow limbs.');
    await expect(page).toHaveURL(/\?c=[\w-]+/);
    const url = page.url();

    await kill(app);
    // The page notices the lost connection and keeps what arrived.
    await expect(turn).toHaveAttribute('aria-busy', 'false');
    await expect(page.getByRole('alert').filter({ hasText: 'Lost the connection' })).toBeVisible();
    const partial = answerText(await turn.innerText());
    expect(partial.length).toBeGreaterThan(40);

    app = await startApp(port, dataDir);
    await openChat(page, url);
    const reloaded = assistantTurns(page).last();
    await expect(reloaded).toHaveAttribute('aria-busy', 'false');
    await expect(reloaded.getByText(/^Interrupted/)).toBeVisible();
    // Everything the page had shown was stored before the kill (the store may hold a few characters more).
    const stored = answerText(await reloaded.innerText());
    expect(stored.startsWith(partial)).toBe(true);
    expect(stored.length).toBeLessThan(ANSWER.trim().length);
  } finally {
    await kill(app);
  }
});
