// The environment's connection (OPENAI_BASE_URL and friends, no OPENAI_PRICE_*) as the admin and as a user see it, on
// a server of its own with accounts: in the Models dialog, only the admin is told to change the server's environment
// (a user is told the admin set it); a run on it with no price says where its prices are set: the admin, in
// OPENAI_PRICE_INPUT / OPENAI_PRICE_OUTPUT (it has no Edit button in Settings → Models), a user, by the admin. In the
// run inspector on the chat page and on the Runs page, in English and in Chinese.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { buildActionId } from '../test/support/server-actions';
import { accountsServer, type Account } from './support/accounts-server';
import { lastAnswer } from './support/chat';
import { setScenario } from './support/model';

const ADMIN = { email: 'env-words-admin@example.com', password: 'correct horse battery' };
const USER = { email: 'env-words-user@example.com', password: 'another good password' };

const server = accountsServer('env-connection-words', ADMIN);

// Sign-up open to anyone (the admin's setting), and the user's account made.
test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext({ baseURL: server.base });
  const headers = { origin: server.base };
  expect((await context.request.post('/api/auth/sign-in/email', { data: ADMIN, headers })).status()).toBe(200);
  const opened = await context.request.post('/admin', {
    headers: {
      ...headers,
      'next-action': buildActionId(process.cwd(), 'updateServerSettings'),
      'content-type': 'text/plain;charset=UTF-8',
      accept: 'text/x-component',
    },
    data: JSON.stringify([{ signUp: 'open' }]),
  });
  expect(opened.status()).toBe(200);
  await context.close();
  const made = await fetch(`${server.base}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(USER),
  });
  expect(made.status).toBe(200);
});

const WORDS = {
  'en-US': {
    theme: /^Switch to (dark|light) theme$/,
    message: 'Message',
    send: 'Send',
    model: 'Model',
    manage: 'Manage models…',
    models: 'Models',
    environment: 'Environment',
    inspect: 'Inspect run',
    inspector: 'Run inspector',
    cost: 'Cost',
    runsInspect: (m: string) => `Inspect the run of “${m}”`,
    admin: {
      help: "Set by OPENAI_BASE_URL, OPENAI_API_KEY and OPENAI_MODEL in the server's environment: change it there.",
      noPrice:
        "No price set for this model (the environment's connection takes its prices from OPENAI_PRICE_INPUT and OPENAI_PRICE_OUTPUT in the server's environment)",
    },
    user: {
      help: "Set by the server's admin: ask them to change it.",
      noPrice: "No price set for this model (the server's admin sets the prices of this connection)",
    },
  },
  'zh-CN': {
    theme: /^切换到(深色|浅色)主题$/,
    message: '消息',
    send: '发送',
    model: '模型',
    manage: '管理模型…',
    models: '模型',
    environment: '环境变量',
    inspect: '检查运行',
    inspector: '运行检查器',
    cost: '费用',
    runsInspect: (m: string) => `检查“${m}”的运行`,
    admin: {
      help: '由服务器环境中的 OPENAI_BASE_URL、OPENAI_API_KEY 和 OPENAI_MODEL 设置：请在那里修改。',
      noPrice: '此模型未设置价格（环境连接的价格取自服务器环境中的 OPENAI_PRICE_INPUT 和 OPENAI_PRICE_OUTPUT）',
    },
    user: {
      help: '由服务器管理员设置：如需修改，请联系管理员。',
      noPrice: '此模型未设置价格（这个连接的价格由服务器管理员设置）',
    },
  },
} as const;

async function signedIn(browser: Browser, who: Account, locale: keyof typeof WORDS): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.base, locale });
  const signIn = await context.request.post('/api/auth/sign-in/email', {
    data: who,
    headers: { origin: server.base },
  });
  expect(signIn.status()).toBe(200);
  return context.newPage();
}

for (const locale of ['en-US', 'zh-CN'] as const) {
  for (const who of ['admin', 'user'] as const) {
    test(`the environment's connection as the ${who} sees it: who changes it, where its prices are set (${locale})`, async ({
      browser,
    }) => {
      test.setTimeout(60_000);
      const w = WORDS[locale];
      const page = await signedIn(browser, who === 'admin' ? ADMIN : USER, locale);
      await setScenario({ fallback: 'echo' });
      await page.goto('/');
      await expect(page.getByRole('button', { name: w.theme })).toBeVisible(); // hydrated
      const message = `Priceless ${who} ${locale}`;
      await page.getByRole('textbox', { name: w.message, exact: true }).fill(message);
      await page.getByRole('button', { name: w.send, exact: true }).click();
      await expect(await lastAnswer(page)).toContainText(message);

      // The run on it, in the inspector: no price, and where it is set for this viewer.
      const dialog = page.getByRole('dialog', { name: w.inspector });
      const cost = dialog
        .locator('dl > dt', { hasText: new RegExp(`^${w.cost}$`) })
        .locator('xpath=following-sibling::dd[1]');
      await (await lastAnswer(page)).getByRole('button', { name: w.inspect, exact: true }).click();
      await expect(cost).toHaveText(w[who].noPrice);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(page).not.toHaveURL(/[?&]run=/);

      // The connection in the Models dialog: who changes it.
      await page.getByRole('combobox', { name: w.model, exact: true }).click();
      await page.getByRole('button', { name: w.manage }).click();
      const models = page.getByRole('dialog', { name: w.models, exact: true });
      const env = models.getByRole('listitem', { name: w.environment, exact: true });
      await expect(env).toContainText(w[who].help);
      await page.keyboard.press('Escape');
      await expect(models).toBeHidden();

      // The same run from the Runs page.
      await page.goto('/runs');
      await page.getByRole('button', { name: w.runsInspect(message) }).click();
      await expect(cost).toHaveText(w[who].noPrice);
      await page.context().close();
    });
  }
}
