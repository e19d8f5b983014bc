// OpenID Connect sign-in in Chromium, against a real provider on loopback (panva's oidc-provider, run by
// test/fixtures/oidc-provider.mjs with its development login pages): a team's user signs in with the provider and
// gets an account of their own (OIDC_SIGN_UP=open); the first account, the admin's, must be made with a password.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { conversations } from './support/chat';
import { spawnOwned } from './support/owned-processes';

const ROOT = path.join(__dirname, '..');
const SECRET = 'the-oidc-client-secret-of-this-test';
const children: ChildProcess[] = [];
let base: string;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

function start(command: string, args: string[], env: Record<string, string>): ChildProcess {
  const child = spawnOwned(command, args, { cwd: ROOT, stdio: 'ignore', env: { ...process.env, ...env } });
  children.push(child);
  return child;
}

async function until(url: string, ok: (status: number) => boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const status = await fetch(url).then(
      (r) => r.status,
      () => 0,
    );
    if (ok(status)) return;
    if (Date.now() > deadline) throw new Error(`${url} never came up (last status ${status})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

test.beforeAll(async () => {
  const [appPort, idpPort] = [await freePort(), await freePort()];
  base = `http://127.0.0.1:${appPort}`;
  const issuer = `http://127.0.0.1:${idpPort}`;
  start(
    process.execPath,
    ['test/fixtures/oidc-provider.mjs', String(idpPort), `${base}/api/auth/callback/oidc`, SECRET],
    {},
  );
  await until(`${issuer}/.well-known/openid-configuration`, (s) => s === 200);
  start(path.join(ROOT, 'node_modules/.bin/next'), ['start', '-p', String(appPort), '-H', '127.0.0.1'], {
    AUTH: 'required',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'e2e-oidc-')),
    OPENAI_BASE_URL: `${process.env.E2E_MODEL_URL}/v1`,
    OPENAI_API_KEY: 'sk-e2e-oidc',
    OPENAI_MODEL: 'scripted-e2e',
    OIDC_ISSUER: issuer,
    OIDC_CLIENT_ID: 'agent-studio',
    OIDC_CLIENT_SECRET: SECRET,
    OIDC_NAME: 'Test IdP',
    OIDC_SIGN_UP: 'open',
  });
  await until(`${base}/api/health`, (s) => s === 401);
});

test.afterAll(() => {
  for (const child of children) if (child.pid) process.kill(-child.pid, 'SIGTERM');
});

/** The provider's development pages: any login name, then consent. */
async function signInAtProvider(page: Page, login: string): Promise<void> {
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('anything');
  await page.locator('button[type="submit"]').click();
  await page.locator('button[type="submit"]').click(); // consent
}

test('a team user signs in with the OpenID Connect provider and gets an account of their own', async ({ browser }) => {
  const page = await browser.newPage({ baseURL: base });

  // No account yet: the provider cannot make the first one (the admin signs up with a password).
  await page.goto('/sign-in');
  await page.getByRole('button', { name: 'Sign in with Test IdP' }).click();
  await signInAtProvider(page, 'early');
  await expect(page).toHaveURL(/\/sign-in\?error=oidc-admin-first$/);
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(
    /Create the admin account with an email and password first/,
  );
  await page.goto('/sign-up');
  await page.getByLabel('Email', { exact: true }).fill('admin@example.com');
  await page.getByLabel('Password', { exact: true }).fill('correct horse battery');
  await page.getByRole('button', { name: 'Create account', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Account menu for admin@example.com' })).toBeVisible();

  // A user of the provider, in a browser of their own.
  const other = await (await browser.newContext({ baseURL: base })).newPage();
  await other.goto('/');
  await expect(other).toHaveURL(/\/sign-in$/);
  await other.getByRole('button', { name: 'Sign in with Test IdP' }).click();
  await signInAtProvider(other, 'alice');
  const menu = other.getByRole('button', { name: 'Account menu for alice@idp.example' });
  await expect(menu).toBeVisible();
  await expect(menu).toHaveText('IdP user alice');
  await other.waitForLoadState('networkidle');
  await expect(conversations(other).getByText('No conversations yet.')).toBeVisible();
});
