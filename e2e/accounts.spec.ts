// Accounts in Chromium: the admin creates the first account, signs out and in again, invites a second user, who
// signs up by the link and sees an empty conversation list (none of the admin's). Its own server with AUTH=required
// (the suite's shared server runs without accounts), on the scripted model server the suite starts.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { conversations, interactive, lastAnswer, send } from './support/chat';
import { hydrated } from './support/hydrated';
import { setScenario } from './support/model';
import { spawnOwned } from './support/owned-processes';

const ADMIN = { email: 'admin@example.com', password: 'correct horse battery' };
const INVITED = { email: 'invited@example.com', password: 'another good password' };

let server: ChildProcess;
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

test.beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawnOwned(
    path.join(__dirname, '../node_modules/.bin/next'),
    ['start', '-p', String(port), '-H', '127.0.0.1'],
    {
      cwd: path.join(__dirname, '..'),
      stdio: 'ignore',
      env: {
        ...process.env,
        AUTH: 'required',
        DATA_DIR: mkdtempSync(path.join(tmpdir(), 'e2e-accounts-')),
        OPENAI_BASE_URL: `${process.env.E2E_MODEL_URL}/v1`,
        OPENAI_API_KEY: 'sk-e2e-accounts',
        OPENAI_MODEL: 'scripted-e2e',
        LLM_MAX_RETRIES: '0',
      },
    },
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    const status = await fetch(`${base}/api/health`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 401) break; // up, and asking for a sign-in
    if (Date.now() > deadline) throw new Error(`the accounts server never came up (last status ${status})`);
    await new Promise((r) => setTimeout(r, 200));
  }
});

test.afterAll(() => {
  if (server.pid) process.kill(-server.pid, 'SIGTERM');
});

async function fillAndSubmit(page: Page, who: { email: string; password: string }, button: string) {
  await page.getByLabel('Email', { exact: true }).fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: button, exact: true }).click();
}

function userMenu(page: Page, email: string) {
  return page.getByRole('button', { name: `Account menu for ${email}` });
}

test('the admin creates the first account, signs out and in; an invited user signs up by the link and sees an empty list', async ({
  browser,
}) => {
  test.setTimeout(90_000); // two users and a Chinese browser, one after another, on a shared machine
  await setScenario({ fallback: 'echo' }); // the shared model server keeps the last spec's script otherwise
  const page = await browser.newPage({ baseURL: base });

  // Nobody is signed in: the app sends the browser to sign in, which offers to create the first (admin) account.
  await page.goto('/');
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.getByRole('link', { name: 'Create the admin account' }).click();
  await expect(page.getByRole('heading', { name: 'Create account' })).toBeVisible();
  await fillAndSubmit(page, ADMIN, 'Create account');
  await expect(userMenu(page, ADMIN.email)).toBeVisible();
  await interactive(page);

  // The admin's first conversation.
  await send(page, 'A question only the admin asked');
  await expect(await lastAnswer(page)).toContainText('A question only the admin asked');
  await expect(conversations(page).getByRole('listitem').filter({ hasText: 'only the admin asked' })).toBeVisible();
  // The run inspected is in the address: a link to it, for the invited user to try below.
  await (await lastAnswer(page)).getByRole('button', { name: 'Inspect run' }).click();
  await expect(page.getByRole('dialog', { name: 'Run inspector' })).toContainText('Iteration 1');
  await expect(page).toHaveURL(/&run=[\w-]+$/);
  const adminRun = new URL(page.url()).searchParams.get('run')!;
  await page.keyboard.press('Escape');
  // Closing goes back a step of the history: taken before signing out, whose navigation it would abort.
  await expect(page.getByRole('dialog', { name: 'Run inspector' })).toBeHidden();
  await expect(page).not.toHaveURL(/[?&]run=/);

  // Sign out from the header's menu, then sign in again.
  await userMenu(page, ADMIN.email).click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await fillAndSubmit(page, { ...ADMIN, password: 'not the password' }, 'Sign in');
  await expect(page.getByRole('alert').filter({ hasText: 'Wrong' })).toHaveText('Wrong email or password.');
  await fillAndSubmit(page, ADMIN, 'Sign in');
  await expect(userMenu(page, ADMIN.email)).toBeVisible();
  await expect(conversations(page).getByRole('listitem').filter({ hasText: 'only the admin asked' })).toBeVisible();

  // An invite link from the admin page.
  await userMenu(page, ADMIN.email).click();
  await page.getByRole('link', { name: 'Admin' }).click();
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  await hydrated(page.getByRole('button', { name: 'Create invite link' }));
  await page.getByRole('button', { name: 'Create invite link' }).click();
  const link = (await page.getByTestId('invite-link').textContent())!;
  expect(link).toMatch(/\/sign-up\?invite=/);

  // The invited user, in a browser of their own.
  const other = await browser.newContext({ baseURL: base, permissions: ['clipboard-read', 'clipboard-write'] });
  const invited = await other.newPage();
  await invited.goto(link);
  await expect(invited.getByText('You were invited to this Agent Studio.')).toBeVisible();
  await fillAndSubmit(invited, INVITED, 'Create account');
  await expect(userMenu(invited, INVITED.email)).toBeVisible();
  await interactive(invited);
  // Once the list has loaded (nothing is left in flight), it is empty; their own first message is then all it holds.
  await invited.waitForLoadState('networkidle');
  await expect(conversations(invited).getByText('No conversations yet.')).toBeVisible();
  // Their Runs page says there are none yet (not that its filters, none set, match nothing).
  await invited.goto('/runs');
  await expect(invited.getByText(/^No runs yet: every answer/)).toBeVisible();
  await invited.goto('/');
  await interactive(invited);
  await send(invited, 'The invited user’s own question');
  await expect(await lastAnswer(invited)).toContainText('own question');
  await expect(conversations(invited).getByRole('listitem')).toHaveCount(1);
  await expect(conversations(invited).getByRole('listitem')).toContainText('own question');
  // Code is not enabled for users (the default): TIRMathAgent, which runs Python, is shown and cannot be picked.
  await invited.getByRole('button', { name: 'Settings' }).click();
  const settings = invited.getByRole('region', { name: 'Settings' });
  await settings.getByText('Advanced', { exact: true }).click();
  const tir = settings
    .getByRole('combobox', { name: 'Agent', exact: true })
    .getByRole('option', { name: /^TIRMathAgent/ });
  await expect(tir).toHaveText(/runs Python on the server, which the admin has not enabled for you$/);
  await expect(tir).toBeDisabled();
  // The admin's run, by its link: unknown to them, worded as a run that does not exist.
  await invited.goto(`/?run=${adminRun}`);
  await expect(invited.getByRole('dialog', { name: 'Run inspector' }).getByRole('alert')).toHaveText(
    `Could not load the run: Run ${adminRun} was not found (its conversation may have been deleted).`,
  );
  await invited.keyboard.press('Escape');
  await expect(invited.getByRole('dialog', { name: 'Run inspector' })).toBeHidden();
  await userMenu(invited, INVITED.email).click();
  await expect(invited.getByRole('link', { name: 'Admin' })).toHaveCount(0);
  await expect(invited.getByRole('link', { name: 'API keys' })).toBeVisible();

  // The API keys page says the base URL OpenAI clients take, and a new key is copied in one click.
  await invited.getByRole('link', { name: 'API keys' }).click();
  await expect(invited.getByText(`${base}/v1`, { exact: true })).toBeVisible();
  await hydrated(invited.getByRole('button', { name: 'Copy base URL' }));
  await invited.getByRole('button', { name: 'Copy base URL' }).click();
  expect(await invited.evaluate(() => navigator.clipboard.readText())).toBe(`${base}/v1`);
  await invited.getByLabel('Key name').fill('cli');
  await invited.getByRole('button', { name: 'Create key' }).click();
  const key = invited.getByTestId('new-api-key');
  await expect(key).toHaveText(/\S{20,}/);
  await invited.getByRole('button', { name: 'Copy key' }).click();
  await expect(invited.getByRole('status').getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await invited.evaluate(() => navigator.clipboard.readText())).toBe(await key.textContent());
  expect((await invited.goto('/admin'))?.status()).toBe(403);

  // The link was for one account only.
  const third = await (await browser.newContext({ baseURL: base })).newPage();
  await third.goto(link);
  await expect(third.getByText(/used already, revoked, or it expired/)).toBeVisible();
  await other.close();

  // A Chinese browser: the sign-in page, the server's refusal and the header's menu in Chinese.
  const zh = await (await browser.newContext({ baseURL: base, locale: 'zh-CN' })).newPage();
  await zh.goto('/sign-in');
  await expect(zh.getByRole('heading', { name: '登录 Agent Studio' })).toBeVisible();
  await zh.getByLabel('邮箱', { exact: true }).fill(INVITED.email);
  await zh.getByLabel('密码', { exact: true }).fill('not the password');
  await zh.getByRole('button', { name: '登录', exact: true }).click();
  await expect(zh.getByRole('main').getByRole('alert')).toHaveText('邮箱或密码不正确。');
  await zh.getByLabel('密码', { exact: true }).fill(INVITED.password);
  await zh.getByRole('button', { name: '登录', exact: true }).click();
  await zh.getByRole('button', { name: `${INVITED.email} 的账户菜单` }).click();
  await expect(zh.getByRole('button', { name: '退出登录' })).toBeVisible();
});
