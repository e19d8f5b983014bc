// A server of the spec's own with accounts on (AUTH=required), for the specs whose tests sign in: started before the
// spec's tests (run in order: they share its accounts) and stopped after them.
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { freePort, kill, startApp } from './app-process';

export interface Account {
  email: string;
  password: string;
}

/** Declares the server in the spec's top level; its address is `base` once the spec's tests run. `admin`: the first
 *  account, made as the server starts (on loopback no setup code is asked). */
export function accountsServer(name: string, admin?: Account): { base: string } {
  const server = { base: '' };
  let app: ChildProcess | undefined;
  test.describe.configure({ mode: 'serial' });
  test.beforeAll(async () => {
    test.setTimeout(90_000);
    const port = await freePort();
    server.base = `http://127.0.0.1:${port}`;
    const data = path.join(__dirname, '..', '..', 'test-results', `e2e-${name}-${Date.now()}`);
    app = await startApp(port, data, { AUTH: 'required' });
    if (!admin) return;
    const made = await fetch(`${server.base}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.base },
      body: JSON.stringify(admin),
    });
    expect(made.status).toBe(200);
  });
  test.afterAll(async () => {
    if (app) await kill(app);
  });
  return server;
}
