// The page under its Content-Security-Policy (nothing it needs is blocked: scripts, KaTeX, highlighted code), and
// signing in with ACCESS_TOKEN in a real browser (a server of its own, started with the token).
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { lastAnswer, openChat, send } from './support/chat';
import { hydrated } from './support/hydrated';
import { modelServerUrl, setScenario } from './support/model';
import { spawnOwned } from './support/owned-processes';

test('the page runs under its CSP: math, highlighted code and the answer render, and nothing is refused', async ({
  page,
}) => {
  const refused: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) refused.push(m.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(`Refused to load (Content Security Policy): ${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  await setScenario({
    rules: [
      {
        when: { lastUserIncludes: 'csp-check' },
        reply: { content: 'Euler: $e^{i\\pi} + 1 = 0$\n\n```python\ndef f(x):\n    return x * 2\n```\n\nDone.' },
      },
    ],
  });
  await openChat(page);
  await send(page, 'csp-check');
  const answer = await lastAnswer(page);
  await expect(answer.locator('.katex').first()).toBeVisible();
  await expect(answer.locator('code.hljs, pre code[class*="hljs"], .hljs').first()).toBeVisible();
  await expect(answer).toContainText('Done.');
  expect(refused).toEqual([]);
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (typeof a === 'object' && a ? resolve(a.port) : reject(new Error('no port'))));
    });
  });
}

test.describe('with ACCESS_TOKEN', () => {
  const TOKEN = 'e2e-access-token-0123456789';
  let child: ChildProcess;
  let base: string;
  let dataDir: string;

  test.beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    dataDir = mkdtempSync(path.join(tmpdir(), 'e2e-token-'));
    child = spawnOwned('./node_modules/.bin/next', ['start', '-p', String(port), '-H', '127.0.0.1'], {
      stdio: 'ignore',
      env: {
        ...process.env,
        ACCESS_TOKEN: TOKEN,
        OPENAI_BASE_URL: `${modelServerUrl()}/v1`,
        OPENAI_MODEL: 'scripted-e2e',
        DATA_DIR: dataDir,
      },
    });
    const deadline = Date.now() + 30_000;
    for (;;) {
      const ok = await fetch(`${base}/api/health`, { headers: { authorization: `Bearer ${TOKEN}` } })
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) break;
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error('next start with ACCESS_TOKEN did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  test.afterAll(() => {
    if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('the page asks for the token once, then the app works and stays signed in', async ({ page }) => {
    await setScenario({
      rules: [{ when: { lastUserIncludes: 'signed-in' }, reply: { content: 'Hello, signed-in user.' } }],
    });
    await page.goto(`${base}/?c=nothing-yet`);
    await expect(page).toHaveURL(`${base}/sign-in?next=%2F%3Fc%3Dnothing-yet`);
    const field = page.getByLabel('Access token');
    await field.fill('not the token at all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Within the page's main part: once the page is hydrated, Next's route announcer is an (empty) alert too.
    await expect(page.getByRole('main').getByRole('alert')).toHaveText(
      'That is not the access token. Check it and try again.',
    );
    await page.getByLabel('Access token').fill(TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(`${base}/?c=nothing-yet`);
    await expect(page.getByRole('button', { name: /^Switch to (dark|light) theme$/ })).toBeVisible();
    // The address names no conversation: the page says so (a message sent before it knew would wait for it and
    // stay in the box), and a message then starts a new one.
    await expect(page.getByRole('main').getByText('This conversation no longer exists.')).toBeVisible();
    await send(page, 'are we signed-in?');
    await expect(await lastAnswer(page)).toContainText('Hello, signed-in user.');
    const cookies = await page.context().cookies(base);
    expect(cookies.find((c) => c.name === 'agent_studio_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    // A reload stays in the app (the cookie is sent), on the conversation just made.
    await page.reload();
    await expect(page).toHaveURL(/\/\?c=[0-9a-f-]{36}$/);
    await expect(await lastAnswer(page)).toContainText('Hello, signed-in user.');
  });

  test('a Chinese browser is asked for the token in Chinese, and may switch the page to English first', async ({
    browser,
  }) => {
    const context = await browser.newContext({ locale: 'zh-CN' });
    const page = await context.newPage();
    await page.goto(`${base}/`);
    await expect(page).toHaveURL(`${base}/sign-in`); // no ?next= for the app's own start page
    await expect(page).toHaveTitle('登录 · Agent Studio');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('登录 Agent Studio');
    await page.getByLabel('访问令牌').fill('not the token at all');
    await page.getByRole('button', { name: '登录' }).click();
    await expect(page.getByRole('main').getByRole('alert')).toHaveText('访问令牌不正确，请检查后重试。');
    // The Language control works before the token is given, and the app keeps the choice once it is.
    const language = page.getByRole('combobox', { name: '语言', exact: true });
    await hydrated(language);
    await language.selectOption('en');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to Agent Studio');
    await page.getByLabel('Access token').fill(TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(`${base}/`);
    await expect(page.getByRole('combobox', { name: 'Language', exact: true })).toHaveValue('en');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await context.close();
  });
});
