// The setup code in Chromium: a server reachable beyond its machine (here a LAN name in ALLOWED_HOSTS, as behind a
// reverse proxy) prints a one-time code in its log; the Create account page asks for it in a "Setup code" field (in
// Chinese too, on a phone), says so when it is wrong, and makes the admin with it, from the keyboard alone. Then the
// API keys page makes a key of the scope chosen and lists it with that scope.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { freePort, kill } from './support/app-process';
import { modelServerUrl } from './support/model';
import { hydrated } from './support/hydrated';
import { spawnOwned } from './support/owned-processes';

const OWNER = { email: 'owner@example.com', password: 'correct horse battery' };

let server: ChildProcess;
let base: string;
let log = '';

test.beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawnOwned(
    path.join(__dirname, '../node_modules/.bin/next'),
    ['start', '-p', String(port), '-H', '127.0.0.1'],
    {
      cwd: path.join(__dirname, '..'),
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        AUTH: 'required',
        ALLOWED_HOSTS: 'studio.lan',
        DATA_DIR: mkdtempSync(path.join(tmpdir(), 'e2e-setup-code-')),
        OPENAI_BASE_URL: `${modelServerUrl()}/v1`,
        OPENAI_API_KEY: 'sk-e2e-setup-code',
        OPENAI_MODEL: 'scripted-e2e',
        LLM_MAX_RETRIES: '0',
      },
    },
  );
  server.stdout!.on('data', (b: Buffer) => (log += b.toString()));
  server.stderr!.on('data', (b: Buffer) => (log += b.toString()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    const status = await fetch(`${base}/api/health`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 401) break;
    if (Date.now() > deadline) throw new Error(`the server never came up (last status ${status}):\n${log}`);
    await new Promise((r) => setTimeout(r, 200));
  }
});

test.afterAll(() => kill(server));

test('the first account asks for the setup code from the server’s log; with it, the admin; keys by scope', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const code = /Setup code for the first account: (\S+)/.exec(log)?.[1];
  expect(code, log).toMatch(/^\w{4}-\w{4}-\w{4}$/);

  // In Chinese, on a phone: the field is there, labelled in Chinese.
  const phone = await (
    await browser.newContext({ baseURL: base, locale: 'zh-CN', viewport: { width: 390, height: 844 } })
  ).newPage();
  await phone.goto('/sign-up');
  await expect(phone.getByLabel('初始设置码', { exact: true })).toBeVisible();
  await phone.close();

  const page = await (await browser.newContext({ baseURL: base })).newPage();
  await page.goto('/sign-up');
  await expect(page.getByText(/needs the setup code the server printed in its log/)).toBeVisible();
  // From the keyboard alone: a wrong code first.
  await page.getByLabel('Email', { exact: true }).focus();
  await page.keyboard.type(OWNER.email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(OWNER.password);
  await page.getByLabel('Setup code', { exact: true }).focus();
  await page.keyboard.type('AAAA-BBBB-CCCC');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main').getByRole('alert')).toContainText('That is not the setup code.');
  // The form is cleared after a refusal (as the sign-in form is): typed again, with the code from the log.
  await page.getByLabel('Email', { exact: true }).fill(OWNER.email);
  await page.getByLabel('Password', { exact: true }).fill(OWNER.password);
  await page.getByLabel('Setup code', { exact: true }).fill(code!);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: `Account menu for ${OWNER.email}` })).toBeVisible();

  // The API keys page: a run key, then a read key; each listed with its scope.
  await page.goto('/account');
  await hydrated(page.getByLabel('Key name', { exact: true }));
  for (const [name, scope, shown] of [
    ['ci', /^Run/, 'run'],
    ['dashboard', /^Read/, 'read'],
  ] as const) {
    await page.getByLabel('Key name', { exact: true }).fill(name);
    const select = page.getByLabel('What it may do', { exact: true });
    const option = (await select.locator('option').allTextContents()).find((t) => scope.test(t))!;
    await select.selectOption({ label: option });
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect(page.getByTestId('new-api-key')).toHaveText(new RegExp(`^as_${shown}_`));
    await expect(page.getByRole('row').filter({ hasText: name })).toContainText(shown);
  }
});
