// A run that cannot start, in the built app (`next start`, the single user on loopback, a PLUGINS_DIR outside the
// checkout). The fault is a plugin's: its tool reads a key file each time it is made, and the file is gone once the
// app has loaded it (ENOENT, with the file's absolute path). Through every way a run starts (/v1 with the openai
// client, POST /api/chat, the page's sendMessage) it is a 500 whose message is only an error id, the error itself in
// the server's output under that id; a refusal (a tool this server does not have) keeps its 400 and says so.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionResult } from '../../lib/chat/page';
import { FAULT_MESSAGE, writeKeyFilePlugin } from '../support/key-file-plugin';
import { actionValue, callAction, request, startApp, type App } from './support/app';

let app: App;
let dir: string;
let keyFile: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'run-start-errors-'));
  mkdirSync(path.join(dir, 'plugins'));
  keyFile = writeKeyFilePlugin(path.join(dir, 'plugins'), dir);
  app = await startApp({ env: { PLUGINS_DIR: path.join(dir, 'plugins'), BILLING_KEY_FILE: keyFile } });
  rmSync(keyFile);
}, 180_000);
afterAll(async () => {
  await app?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The server's output line of the error with this id. */
function logged(id: string | undefined): string | undefined {
  return app
    .output()
    .split('\n')
    .find((l) => l.startsWith(`[error ${id}] `));
}

describe('a run that cannot start, in the built app', () => {
  it('on /v1 a fault is a 500 server_error with an error id, which the openai client retries', async () => {
    let attempts = 0;
    const client = new OpenAI({
      baseURL: `${app.url}/v1`,
      apiKey: 'anything on loopback',
      maxRetries: 1,
      fetch: (url, init) => {
        attempts++;
        return fetch(url, init);
      },
    });
    const failed = await client.chat.completions
      .create({ model: 'Billing Desk', messages: [{ role: 'user', content: 'invoice 7?' }] })
      .catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(OpenAI.InternalServerError);
    expect(failed).toMatchObject({ status: 500, type: 'server_error' });
    const said = ((failed as InstanceType<typeof OpenAI.APIError>).error as { message: string }).message;
    const id = FAULT_MESSAGE.exec(said)?.[1];
    expect(id, said).toBeDefined();
    expect(attempts).toBe(2);
    expect(logged(id)).toContain(`ENOENT: no such file or directory, open '${keyFile}'`);
  });

  it('on POST /api/chat a fault is a 500 with an error id; a tool the server lacks is a 400 saying so', async () => {
    const post = (body: unknown) =>
      request(app.url, '/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const fault = await post({ message: 'invoice 7?', tools: ['plugin_billing'] });
    expect(fault.status).toBe(500);
    const said = fault.json<{ error: { message: string } }>().error.message;
    const id = FAULT_MESSAGE.exec(said)?.[1];
    expect(id, said).toBeDefined();
    expect(fault.text).not.toContain(dir);
    expect(logged(id)).toContain('ENOENT');

    const refused = await post({ message: 'hello', tools: ['no_such_tool'] });
    expect([refused.status, refused.json()]).toEqual([
      400,
      { error: { message: 'Tool no_such_tool is not registered.', code: 'tool-unknown' } },
    ]);
  });

  it('on the page’s sendMessage a fault is said with its code and error id, nothing of the error itself', async () => {
    const failed = actionValue<ActionResult<unknown>>(
      await callAction(app, 'sendMessage', [{ message: 'invoice 7?', settings: { agentId: 'plugin:Billing Desk' } }]),
    );
    expect(failed).toMatchObject({ ok: false, status: 500, code: 'server-fault' });
    const id = FAULT_MESSAGE.exec(failed.ok ? '' : failed.error)?.[1];
    expect(failed).toMatchObject({ values: { id } });
    expect(logged(id)).toContain('ENOENT');
  });
});
