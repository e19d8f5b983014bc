// Creating an account keeps where the visitor was going, as signing in does (a server of its own with AUTH=required
// and sign-up open): a page opened signed out sends them to sign in with `?next=`; "Create account" there carries it
// to the sign-up page, and the new account opens that page, by the page's script and without it (a refusal of the
// form keeps it). An invite's sign-up page takes a `next` beside the invite; a `next` leading off the app lands on the
// start page; another user's conversation stays "not found" for the new account.
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { buildActionId } from '../test/support/server-actions';
import { accountsServer } from './support/accounts-server';
import { interactive, lastAnswer, notice, send, userTurns } from './support/chat';
import { tabTo } from './support/focus';
import { hydrated } from './support/hydrated';
import { setScenario } from './support/model';
import { pageWidth } from './support/viewport';

const ADMIN = { email: 'sign-up-admin@example.com', password: 'correct horse battery' };
const PASSWORD = 'a long enough password';
const PHONE = { width: 390, height: 844 };

const server = accountsServer('sign-up-return', ADMIN);

/** The admin, signed in (by the endpoint: the sign-in page has its own tests). */
async function admin(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: server.base });
  const signedIn = await context.request.post(`${server.base}/api/auth/sign-in/email`, {
    data: ADMIN,
    headers: { origin: server.base },
  });
  expect(signedIn.status()).toBe(200);
  return context;
}

// Sign-up open to anyone (the admin's setting), once the server has started (the hooks run in order).
test.beforeAll(async ({ browser }) => {
  const context = await admin(browser);
  const opened = await context.request.post(`${server.base}/admin`, {
    headers: {
      'next-action': buildActionId(process.cwd(), 'updateServerSettings'),
      'content-type': 'text/plain;charset=UTF-8',
      accept: 'text/x-component',
      origin: server.base,
    },
    data: JSON.stringify([{ signUp: 'open' }]),
  });
  expect(opened.status()).toBe(200);
  await context.close();
});

/** Fills the sign-up form the browser is on and sends it. */
async function signUpHere(page: Page, email: string, labels = { email: 'Email', password: 'Password' }) {
  await page.getByLabel(labels.email, { exact: true }).fill(email);
  await page.getByLabel(labels.password, { exact: true }).fill(PASSWORD);
  await page.locator('form button[type="submit"]').click();
}

test('Create account on the sign-in page opens the page asked for once the account is made, with and without the script', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  for (const javaScriptEnabled of [true, false]) {
    const script = javaScriptEnabled ? 'on' : 'off';
    const page = await (await browser.newContext({ baseURL: server.base, javaScriptEnabled })).newPage();
    await page.goto('/runs?q=beacon');
    await expect(page).toHaveURL(/\/sign-in\?next=/);
    await page.getByRole('link', { name: 'Create account', exact: true }).click();
    await expect(page, `script ${script}`).toHaveURL(
      `${server.base}/sign-up?next=${encodeURIComponent('/runs?q=beacon')}`,
    );
    if (javaScriptEnabled) await hydrated(page.locator('input[name="email"]'));
    else {
      // Refused (the email has an account): back on the form, which says why and still knows where to go.
      await signUpHere(page, ADMIN.email);
      await expect(page).toHaveURL(/\/sign-up\?.*error=email-taken/);
      expect(new URL(page.url()).searchParams.get('next')).toBe('/runs?q=beacon');
      await expect(page.getByRole('alert')).toContainText('An account with this email exists already');
    }
    await signUpHere(page, `beacon-${script}@example.com`);
    await expect(page, `script ${script}`).toHaveURL(`${server.base}/runs?q=beacon`);
    await expect(page.getByRole('searchbox', { name: 'Search runs' })).toHaveValue('beacon');
    await page.context().close();
  }
});

test('in Chinese, on a 390 px phone, from the keyboard: 创建账户 and back to 登录 keep where the visitor was going', async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const context = await browser.newContext({ baseURL: server.base, locale: 'zh-CN', viewport: PHONE });
  const page = await context.newPage();
  await page.goto('/account');
  await expect(page).toHaveURL(/\/sign-in\?next=%2Faccount$/);
  const create = page.getByRole('link', { name: '创建账户', exact: true });
  await hydrated(create);
  await tabTo(page, create);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(`${server.base}/sign-up?next=%2Faccount`);
  expect((await pageWidth(page)).scrollWidth, 'the sign-up page is wider than the phone').toBeLessThanOrEqual(
    PHONE.width,
  );
  // Its 登录 link goes back to signing in, still on the way there.
  await expect(page.getByRole('link', { name: '登录', exact: true })).toHaveAttribute(
    'href',
    '/sign-in?next=%2Faccount',
  );
  const email = page.getByLabel('邮箱', { exact: true });
  await hydrated(email);
  await expect(email).toBeFocused();
  await page.keyboard.type('keyboard-zh@example.com');
  await tabTo(page, page.getByLabel('密码', { exact: true }));
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(`${server.base}/account`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await context.close();
});

test('an invite’s sign-up page keeps a `next` beside the invite; one leading off the app lands on the start page', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const adminContext = await admin(browser);
  const adminPage = await adminContext.newPage();
  await adminPage.goto('/admin');
  const inviteLink = async () => {
    await adminPage.getByRole('button', { name: 'Create invite link' }).click();
    const link = adminPage.getByTestId('invite-link');
    await expect(link).toBeVisible();
    const made = new URL((await link.textContent())!);
    // Hidden again before the next one is made, so that the next read is the new link's.
    await adminPage.reload();
    return `${made.pathname}${made.search}`;
  };

  for (const javaScriptEnabled of [true, false]) {
    const script = javaScriptEnabled ? 'on' : 'off';
    const invite = await inviteLink();
    const page = await (await browser.newContext({ baseURL: server.base, javaScriptEnabled })).newPage();
    await page.goto(`${invite}&next=${encodeURIComponent('/runs?q=invited')}`);
    await expect(page.getByText('You were invited to this Agent Studio.')).toBeVisible();
    if (javaScriptEnabled) await hydrated(page.locator('input[name="email"]'));
    await signUpHere(page, `invited-${script}@example.com`);
    await expect(page, `script ${script}`).toHaveURL(`${server.base}/runs?q=invited`);
    await page.context().close();
  }

  for (const javaScriptEnabled of [true, false]) {
    const script = javaScriptEnabled ? 'on' : 'off';
    const page = await (await browser.newContext({ baseURL: server.base, javaScriptEnabled })).newPage();
    await page.route(
      (url) => url.hostname === 'example.com',
      (route) => route.fulfill({ contentType: 'text/plain', body: 'elsewhere' }),
    );
    await page.goto(`/sign-up?next=${encodeURIComponent('/..//example.com')}`);
    if (javaScriptEnabled) await hydrated(page.locator('input[name="email"]'));
    await signUpHere(page, `elsewhere-${script}@example.com`);
    await expect(page, `script ${script}`).toHaveURL(`${server.base}/`);
    await page.context().close();
  }
  await adminContext.close();
});

test('a new account sent on to another user’s conversation finds it "not found"', async ({ browser }) => {
  test.setTimeout(60_000);
  await setScenario({ fallback: 'echo' });
  const adminContext = await admin(browser);
  const author = await adminContext.newPage();
  await author.goto('/');
  await interactive(author);
  await send(author, 'the admin’s secret harbour');
  await lastAnswer(author);
  await expect(author).toHaveURL(/\?c=/);
  const link = new URL(author.url());
  await adminContext.close();

  const page = await (await browser.newContext({ baseURL: server.base })).newPage();
  await page.goto(`${link.pathname}${link.search}`);
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  await page.getByRole('link', { name: 'Create account', exact: true }).click();
  await hydrated(page.locator('input[name="email"]'));
  await signUpHere(page, 'someone-else@example.com');
  await expect(notice(page)).toContainText('This conversation no longer exists.');
  await expect(userTurns(page)).toHaveCount(0);
  await expect(page.getByText('the admin’s secret harbour')).toHaveCount(0);
  await page.context().close();
});
