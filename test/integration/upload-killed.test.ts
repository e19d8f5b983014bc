// A server killed (kill -9) while an upload streams to disk leaves its half-written bytes in files/.incoming: nothing
// ever deleted them, so every upload cut that way kept up to the size limit of disk for good. A real process streams
// an upload through saveUpload (what the upload route runs) and is killed mid-file; the app started again over the
// same DATA_DIR deletes what was left once nothing has written to it for ABANDONED_AFTER_MS (15 min), and leaves alone an upload
// still being written (another instance sharing DATA_DIR, or this one).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { FnCallAgent } from '../../lib/agent';
import { saveUpload } from '../../lib/documents/storage';
import { createChatModel } from '../../lib/llm';
import { openSqliteStore } from '../../lib/store';
import type { ChatStore } from '../../lib/store/types';
import { chatContext } from '../support/chat';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = mkdtempSync(path.join(tmpdir(), 'upload-killed-'));
const incoming = path.join(dataDir, 'files', '.incoming');
let store: ChatStore | undefined;

afterAll(async () => {
  await store?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** An upload in another process: 1 MB, then nothing more until it is killed. */
const UPLOADER = `
import { saveUpload } from ${JSON.stringify(path.join(ROOT, 'lib/documents/storage.ts'))};
async function* body() {
  yield new Uint8Array(1024 * 1024).fill(65);
  console.log('written');
  await new Promise(() => {});
}
await saveUpload(body(), { dataDir: process.argv[2], maxBytes: 50 * 1024 * 1024, name: 'big.csv' });
`;

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`still waiting after ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('an upload cut short by a killed server', () => {
  it('leaves no half-written file behind once the app runs again, and spares an upload in progress', async () => {
    const script = path.join(mkdtempSync(path.join(tmpdir(), 'uploader-')), 'uploader.mts');
    writeFileSync(script, UPLOADER);
    const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), [script, dataDir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`the uploader exited (${code}) before writing`)));
      child.stdout.on('data', (b: Buffer) => b.toString().includes('written') && resolve());
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    const [left] = readdirSync(incoming);
    expect(left).toBeDefined();
    const leftFile = path.join(incoming, left!);
    expect(statSync(leftFile).size).toBe(1024 * 1024);
    // The restart comes a while later: nothing has written to it for two hours, longer than any request lasts (and
    // than ABANDONED_AFTER_MS).
    const then = (Date.now() - 2 * 60 * 60_000) / 1000;
    utimesSync(leftFile, then, then);

    // Meanwhile an upload of this process is being written (its bytes are fresh).
    let release!: () => void;
    const paused = new Promise<void>((resolve) => (release = resolve));
    const live = saveUpload(
      (async function* () {
        yield new Uint8Array(64 * 1024).fill(66);
        await paused;
        yield new Uint8Array(64 * 1024).fill(67);
      })(),
      { dataDir, maxBytes: 50 * 1024 * 1024, name: 'live.csv' },
    );
    await until('the live upload to start writing', () =>
      readdirSync(incoming).find((name) => name !== left && statSync(path.join(incoming, name)).size > 0),
    );

    // The app starts again over the same DATA_DIR.
    store = await openSqliteStore(path.join(dataDir, 'agent-studio.db'));
    await chatContext(
      store,
      () => new FnCallAgent({ llm: createChatModel({ model: 'm', baseURL: 'http://127.0.0.1:9/v1', apiKey: 'k' }) }),
      { DATA_DIR: dataDir },
    );
    await until('the abandoned file to go', () => (existsSync(leftFile) ? undefined : true), 10_000);

    // The upload in progress was not touched: it completes, whole.
    release();
    const saved = await live;
    expect(saved.size).toBe(128 * 1024);
    expect(statSync(path.join(dataDir, 'files', saved.hash)).size).toBe(128 * 1024);
    expect(readdirSync(incoming)).toEqual([]);
  });
});
