// The accounts pages (a server of their own with AUTH=required): "Create account" works before the page hydrates
// (what is typed meanwhile stays, and the form posts without JavaScript), and every accounts page fits a 390×844
// phone and has no axe violations, in English and in Chinese. On Admin, a new invite link can be copied and is no
// longer offered once revoked, and a user's delete confirmation and password form close from the keyboard. Sign-in and
// Create account switch their language before anyone is signed in, and the app keeps it once they are; so do the
// Not allowed (403) and Sign in again (401) pages.
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { slowActions } from './support/actions';
import { freePort, kill, startApp } from './support/app-process';
import { allViolations } from './support/axe';
import { tabTo } from './support/focus';
import { hydrated } from './support/hydrated';
import { outsideScreen, pageWidth } from './support/viewport';

const ADMIN = { email: 'pages-admin@example.com', password: 'correct horse battery' };
const NO_SCRIPT = { email: 'no-script@example.com', password: 'a long enough password' };
const SCREEN = { width: 390, height: 844 };

let app: ChildProcess;
let base: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(90_000);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  app = await startApp(port, path.join(__dirname, '..', 'test-results', `e2e-accounts-pages-${Date.now()}`), {
    AUTH: 'required',
  });
});

test.afterAll(async () => {
  if (app) await kill(app);
});

/** The page's React has taken over the form (the email field has its fiber). */
async function signIn(browser: Browser, locale = 'en-US'): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: base, locale })).newPage();
  await page.goto('/sign-in');
  await hydrated(page.locator('input[name="email"]'));
  await page.getByLabel(locale === 'en-US' ? 'Email' : '邮箱', { exact: true }).fill(ADMIN.email);
  await page.getByLabel(locale === 'en-US' ? 'Password' : '密码', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: locale === 'en-US' ? 'Sign in' : '登录', exact: true }).click();
  await expect(page).toHaveURL(`${base}/`);
  return page;
}

/** Holds the page's scripts back, as on a slow connection, until `release()`. (Scripts only: held stylesheets would
 *  keep the page from being drawn at all.) */
async function holdScripts(page: Page): Promise<{ release: () => void; stop: () => Promise<void> }> {
  let release!: () => void;
  const scripts = new Promise<void>((r) => (release = r));
  const script = (url: URL) => url.pathname.startsWith('/_next/static/') && url.pathname.endsWith('.js');
  await page.route(script, async (route) => {
    await scripts;
    await route.continue();
  });
  return { release, stop: () => page.unroute(script) };
}

test('what is typed before the page hydrates stays once it has (in the fields, with the focus where it was)', async ({
  browser,
}) => {
  for (const path of ['/sign-in', '/sign-up']) {
    const page = await (await browser.newContext({ baseURL: base })).newPage();
    const { release } = await holdScripts(page);
    await page.goto(path, { waitUntil: 'commit' });
    const email = page.getByLabel('Email', { exact: true });
    const password = page.getByLabel('Password', { exact: true });
    await email.fill('early@example.com');
    await password.fill('typed early');
    release();
    await hydrated(page.locator('input[name="email"]'));
    await page.waitForLoadState('networkidle');
    await expect(email, path).toHaveValue('early@example.com');
    await expect(password, path).toHaveValue('typed early');
    await expect(password, path).toBeFocused();
    await page.context().close();
  }
});

test('Create account sent before the page hydrates (scripts still loading) makes the account', async ({ browser }) => {
  const page = await (await browser.newContext({ baseURL: base })).newPage();
  // The form is filled and sent while the page's scripts are still held back.
  const { release } = await holdScripts(page);
  await page.goto('/sign-up', { waitUntil: 'commit' });
  await page.getByLabel('Email', { exact: true }).fill(ADMIN.email);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Create account', exact: true }).click();
  await expect(page).toHaveURL(`${base}/`);
  release();
  await expect(page.getByRole('button', { name: `Account menu for ${ADMIN.email}` })).toBeVisible();
});

test('the admin and API keys pages show their buttons disabled until a click works, then enabled', async ({
  browser,
}) => {
  const page = await signIn(browser);
  for (const [path, buttons] of [
    ['/admin', ['Create invite link', 'Save web search']],
    ['/account', ['Create key']],
  ] as const) {
    const { release, stop } = await holdScripts(page);
    await page.goto(path, { waitUntil: 'commit' });
    for (const name of buttons) await expect(page.getByRole('button', { name, exact: true }), path).toBeDisabled();
    if (path === '/admin')
      await expect(page.getByRole('combobox', { name: 'Who may create an account' })).toBeDisabled();
    release();
    for (const name of buttons) await expect(page.getByRole('button', { name, exact: true }), path).toBeEnabled();
    await stop();
  }
  // A long name: the keys' table is wider than a phone, and must scroll in its box, not widen the page (checked below).
  const name = 'early key for the nightly deploy of the platform team';
  await page.getByRole('textbox', { name: 'Key name' }).fill(name);
  await page.getByRole('button', { name: 'Create key', exact: true }).click();
  await expect(page.getByRole('cell', { name, exact: true })).toBeVisible();
  await page.context().close();
});

test('Create account works without JavaScript: the form posts, signs in and opens the app', async ({ browser }) => {
  const admin = await signIn(browser);
  await admin.goto('/admin');
  // No wait for hydration: the button is disabled until its click works, and Playwright waits for it to be enabled.
  await admin.getByRole('button', { name: 'Create invite link' }).click();
  const link = (await admin.getByTestId('invite-link').textContent())!;
  expect(link).toMatch(/\/sign-up\?invite=/);

  const page = await (await browser.newContext({ baseURL: base, javaScriptEnabled: false })).newPage();
  await page.goto(link);
  await page.getByLabel('Email', { exact: true }).fill(ADMIN.email);
  await page.getByLabel('Password', { exact: true }).fill(NO_SCRIPT.password);
  await page.getByRole('button', { name: 'Create account', exact: true }).click();
  // Refused (the address has an account): said on the page, the invite kept.
  await expect(page.getByRole('alert')).toContainText('exists already');
  await expect(page).toHaveURL(/invite=/);
  await page.getByLabel('Email', { exact: true }).fill(NO_SCRIPT.email);
  await page.getByLabel('Password', { exact: true }).fill(NO_SCRIPT.password);
  await page.getByRole('button', { name: 'Create account', exact: true }).click();
  await expect(page).toHaveURL(`${base}/`);
  await expect(page.getByRole('button', { name: `Account menu for ${NO_SCRIPT.email}` })).toBeVisible();
});

test('a new invite link has Copy link, and is no longer offered to send once its invite is revoked', async ({
  browser,
}) => {
  const admin = await signIn(browser);
  await admin.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  await admin.goto('/admin');
  const invites = admin.locator('section[aria-labelledby="admin-invites"]');
  const revoke = invites.getByRole('button', { name: 'Revoke' });
  await expect(admin.getByRole('button', { name: 'Create invite link' })).toBeEnabled();
  const before = await revoke.count();
  await admin.getByRole('button', { name: 'Create invite link' }).click();
  const shown = admin.getByTestId('invite-link');
  const link = (await shown.textContent())!;
  // The new invite is listed as its link shows (same render), not once the list has been read again.
  expect(await revoke.count()).toBe(before + 1);
  await admin.getByRole('button', { name: 'Copy link', exact: true }).click();
  await expect(admin.getByRole('button', { name: 'Copied', exact: true })).toBeVisible();
  expect(await admin.evaluate(() => navigator.clipboard.readText())).toBe(link);

  for (let open = await revoke.count(); open > 0; open--) {
    await revoke.first().click();
    // Asked first (e2e/revoke-confirm.spec.ts): confirmed.
    await admin.getByRole('dialog').getByRole('button', { name: 'Revoke', exact: true }).click();
    await expect(revoke).toHaveCount(open - 1);
  }
  await expect(invites.getByText('No open invites.')).toBeVisible();
  // The revoked link is not left on the page with "send this link".
  await expect(shown).toBeHidden();
  await expect(invites.getByText('Send this link to the person you invite')).toBeHidden();
});

test("a user's delete confirmation and password form close with Escape or their button, the focus back where it was", async ({
  browser,
}) => {
  const admin = await signIn(browser);
  await admin.goto('/admin');
  await admin.getByRole('button', { name: 'Create invite link' }).click();
  const invite = new URL((await admin.getByTestId('invite-link').textContent())!).searchParams.get('invite');
  const email = 'kept@example.com';
  // From a context of its own: signing up sets that user's session cookie.
  const made = await (
    await browser.newContext()
  ).request.post(`${base}/api/auth/sign-up/email`, {
    data: { email, password: 'a long enough password', invite },
    headers: { origin: base },
  });
  expect(made.status()).toBe(200);
  await admin.reload();
  const row = admin.getByRole('row').filter({ hasText: email });

  const remove = row.getByRole('button', { name: `Delete ${email}` });
  await remove.click();
  const confirm = admin.getByRole('alertdialog', { name: `Delete ${email}` });
  // The focus starts on "Keep", so a stray Enter deletes nothing.
  await expect(confirm.getByRole('button', { name: 'Keep' })).toBeFocused();
  await admin.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(remove).toBeFocused();
  await admin.keyboard.press('Enter');
  await expect(confirm.getByRole('button', { name: 'Keep' })).toBeFocused();
  await admin.keyboard.press('Enter');
  await expect(confirm).toBeHidden();
  await expect(remove).toBeFocused();

  const reset = row.getByRole('button', { name: 'Reset password' });
  await reset.click();
  const password = admin.getByLabel(`New password for ${email}`);
  await expect(password).toBeFocused();
  await admin.keyboard.press('Escape');
  await expect(password).toBeHidden();
  await expect(reset).toBeFocused();
  await reset.click();
  await row.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(password).toBeHidden();
  await expect(reset).toBeFocused();
  await expect(row).toBeVisible(); // nothing was deleted on the way

  // Deleted from the keyboard: the row goes, and the focus lands on the list's heading, not on the page's body.
  await remove.focus();
  await admin.keyboard.press('Enter');
  await admin.keyboard.press('Shift+Tab');
  await expect(confirm.getByRole('button', { name: 'Delete for good' })).toBeFocused();
  await admin.keyboard.press('Enter');
  await expect(row).toBeHidden();
  await expect(admin.getByRole('status').filter({ hasText: `${email} was deleted` })).toBeVisible();
  await expect(admin.getByRole('heading', { name: 'Users', exact: true })).toBeFocused();
});

test('sign-in and create-account have the Language control: by keyboard on a phone, kept once signed in', async ({
  browser,
}) => {
  // An English browser: the Chinese pages below come from the choice made on them.
  const page = await (await browser.newContext({ baseURL: base, locale: 'en-US', viewport: SCREEN })).newPage();
  const reachable = async (language: Locator, from: 'top' | 'first field') => {
    // From where the page puts the focus: the page itself, or the sign-in form's email field (before it: Shift+Tab).
    await tabTo(page, language, { back: from === 'first field', max: 3 });
    const box = (await language.boundingBox())!;
    expect(box.x + box.width, `${page.url()}: the Language control is off the screen`).toBeLessThanOrEqual(
      SCREEN.width,
    );
    expect((await pageWidth(page)).scrollWidth, `${page.url()}: wider than the screen`).toBeLessThanOrEqual(
      SCREEN.width,
    );
  };

  // Create account (by invitation only here: it says so), switched to Chinese.
  await page.goto('/sign-up');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Create account');
  const english = page.getByRole('combobox', { name: 'Language', exact: true });
  await expect(english).toHaveValue('en');
  await hydrated(english);
  await reachable(english, 'top');
  await english.selectOption('zh-CN');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('创建账户');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  // Within the page's main part: once the page is hydrated, Next's route announcer is an alert too.
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(
    '这台服务器只能凭邀请注册：请向管理员索取邀请链接。',
  );
  const chinese = page.getByRole('combobox', { name: '语言', exact: true });
  await expect(chinese).toHaveValue('zh-CN');

  // Sign in: still Chinese; switched to English and back there.
  await page.getByRole('link', { name: '登录', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('登录 Agent Studio');
  await expect(chinese).toHaveValue('zh-CN');
  await hydrated(page.locator('input[name="email"]'));
  await reachable(chinese, 'first field');
  await chinese.selectOption('en');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to Agent Studio');
  await expect(page.getByLabel('Email', { exact: true })).toBeVisible();
  await english.selectOption('zh-CN');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('登录 Agent Studio');

  // Signed in, the app is in the language picked before.
  await page.getByLabel('邮箱', { exact: true }).fill(ADMIN.email);
  await page.getByLabel('密码', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expect(page).toHaveURL(`${base}/`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByRole('button', { name: `${ADMIN.email} 的账户菜单` })).toBeVisible();
  await expect(chinese).toHaveValue('zh-CN');
  await page.context().close();
});

test('Not allowed (403) and Sign in again (401) have the Language control: by keyboard on a phone, both ways', async ({
  browser,
}) => {
  // A user who is not the admin, signed up by an invite.
  const admin = await signIn(browser);
  await admin.goto('/admin');
  await admin.getByRole('button', { name: 'Create invite link' }).click();
  const invite = new URL((await admin.getByTestId('invite-link').textContent())!).searchParams.get('invite');
  await admin.context().close();
  const context = await browser.newContext({ baseURL: base, locale: 'en-US', viewport: SCREEN });
  const made = await context.request.post(`${base}/api/auth/sign-up/email`, {
    data: { email: 'not-the-admin@example.com', password: 'a long enough password', invite },
    headers: { origin: base },
  });
  expect(made.status()).toBe(200);
  const page = await context.newPage();
  const heading = page.getByRole('heading', { level: 1 });

  /** From the keyboard: Tab reaches the Language control, on the screen; ↓ switches to Chinese and ↑ back. */
  const switchesBothWays = async (en: string, zh: string) => {
    await expect(heading).toHaveText(en);
    const english = page.locator('header').getByRole('combobox', { name: 'Language', exact: true });
    await expect(english).toHaveValue('en');
    await hydrated(english);
    await tabTo(page, english, { max: 3 });
    const box = (await english.boundingBox())!;
    expect(box.x + box.width, `${en}: the Language control is off the screen`).toBeLessThanOrEqual(SCREEN.width);
    expect((await pageWidth(page)).scrollWidth, `${en}: wider than the screen`).toBeLessThanOrEqual(SCREEN.width);
    await page.keyboard.press('ArrowDown');
    await expect(heading).toHaveText(zh);
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    const chinese = page.locator('header').getByRole('combobox', { name: '语言', exact: true });
    await expect(chinese).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await expect(heading).toHaveText(en);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(english).toBeFocused();
  };

  // 403: the Admin page, for a user who is not the admin.
  expect((await page.goto('/admin'))?.status()).toBe(403);
  await switchesBothWays('Not allowed', '无权访问');

  // 401: the sign-in gone while a page is open (signed out elsewhere), its next action refused for want of one.
  await page.goto('/account');
  const create = page.getByRole('button', { name: 'Create key', exact: true });
  await expect(create).toBeEnabled();
  await context.clearCookies();
  await page.getByRole('textbox', { name: 'Key name' }).fill('after the sign-out');
  await create.click();
  await switchesBothWays('Sign in again', '请重新登录');
  await context.close();
});

test('one click, one thing made: a double-clicked Create invite link makes one invite, Enter twice one API key', async ({
  browser,
}) => {
  const page = await signIn(browser);
  await page.goto('/admin');
  const invites = page.locator('section[aria-labelledby="admin-invites"]');
  const create = page.getByRole('button', { name: 'Create invite link' });
  await expect(create).toBeEnabled();
  const before = await invites.getByRole('button', { name: 'Revoke' }).count();
  let fast = await slowActions(page, 500);
  await create.dblclick();
  // Unavailable while its request runs (it keeps the focus: aria-disabled, not disabled), then available again.
  await expect(create).toBeDisabled();
  await expect(create).toBeFocused();
  await expect(page.getByTestId('invite-link')).toBeVisible();
  await expect(create).toBeEnabled();
  await fast();
  await page.reload();
  await expect(invites.getByRole('button', { name: 'Revoke' })).toHaveCount(before + 1);

  // The key form from the keyboard: Enter, and Enter again while the key is being made.
  await page.goto('/account');
  const name = page.getByRole('textbox', { name: 'Key name' });
  await expect(page.getByRole('button', { name: 'Create key', exact: true })).toBeEnabled();
  await name.fill('pressed twice');
  fast = await slowActions(page, 500);
  await name.press('Enter');
  await expect(page.getByRole('button', { name: 'Create key', exact: true })).toBeDisabled();
  await name.press('Enter');
  await expect(page.getByTestId('new-api-key')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create key', exact: true })).toBeEnabled();
  await fast();
  await page.reload();
  await expect(page.getByRole('cell', { name: 'pressed twice', exact: true })).toHaveCount(1);
  await page.context().close();
});

test('an API key name over 60 characters is refused, said why; a long one wraps, its Revoke in reach at 1280 and 390 px', async ({
  browser,
}) => {
  const page = await signIn(browser);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/account');
  const name = page.getByRole('textbox', { name: 'Key name' });
  const create = page.getByRole('button', { name: 'Create key', exact: true });
  await expect(create).toBeEnabled();
  // The field stops at 60; past it (a page whose field was edited, a script), the server refuses, saying the limit.
  await expect(name).toHaveAttribute('maxlength', '60');
  await name.evaluate((el) => el.removeAttribute('maxlength'));
  await name.fill('k'.repeat(2000));
  await create.click();
  await expect(page.getByRole('alert').filter({ hasText: 'name' })).toHaveText(
    'A key’s name is at most 60 characters.',
  );
  await expect(page.getByRole('cell', { name: /^kkkk/ })).toHaveCount(0);

  // 60 characters without a space: the name wraps in its cell, and the row's Revoke stays on the screen.
  const long = 'w'.repeat(60);
  await name.fill(long);
  await create.click();
  const cell = page.getByRole('cell', { name: long, exact: true });
  await expect(cell).toBeVisible();
  const revoke = page.getByRole('button', { name: `Revoke the key ${long}` });
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    // The name takes at most 16rem of a table's row (on the phone, where each key is a block, the screen's width);
    // reached by Tab, Revoke is drawn whole on the screen, not past the edge.
    expect((await cell.boundingBox())!.width, `${viewport.width} px: the name's cell`).toBeLessThanOrEqual(
      viewport.width < 640 ? viewport.width : 16 * 16 + 16,
    );
    // Tab onto it from the control before it (Shift+Tab, Tab): the browser scrolls it into view as it is focused.
    await revoke.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await expect(revoke).toBeFocused();
    await expect(revoke).toBeInViewport({ ratio: 1 });
    const box = (await revoke.boundingBox())!;
    expect(box.x + box.width, `${viewport.width} px`).toBeLessThanOrEqual(viewport.width);
  }
  await revoke.click();
  await page
    .getByRole('dialog', { name: `Revoke the key ${long}?` })
    .getByRole('button', { name: 'Revoke' })
    .click();
  await expect(page.getByRole('row').filter({ has: cell })).toContainText('revoked');
  await page.context().close();
});

for (const [locale, w] of [
  [
    'en-US',
    { name: 'Key name', create: 'Create key', list: 'Your API keys', revoke: 'Revoke the key', scope: 'Scope: read' },
  ],
  ['zh-CN', { name: '密钥名称', create: '创建密钥', list: '你的 API 密钥', revoke: '撤销密钥', scope: '权限：只读' }],
] as const) {
  test(`the API keys list fits a 390 px phone: each key's values named, its Revoke on the screen without scrolling sideways (${locale})`, async ({
    browser,
  }) => {
    const page = await signIn(browser, locale);
    await page.setViewportSize(SCREEN);
    await page.goto('/account');
    const create = page.getByRole('button', { name: w.create, exact: true });
    await expect(create).toBeEnabled();
    const name = `phone key ${locale}`;
    await page.getByRole('textbox', { name: w.name }).fill(name);
    await create.click();
    const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) });
    await expect(row).toHaveCount(1);
    const list = page.getByRole('region', { name: w.list });
    const box = await list.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(box.scroll, 'the list is wider than its box: it scrolls sideways').toBeLessThanOrEqual(box.client);
    // Revoke is within the screen's width as drawn: not past its edge, with no sideways scrolling or Tab to bring it
    // there (below the other keys, it is reached by scrolling down, as any row is).
    const revoke = row.getByRole('button', { name: `${w.revoke} ${name}` });
    await revoke.scrollIntoViewIfNeeded();
    await expect(revoke).toBeInViewport({ ratio: 1 });
    const at = (await revoke.boundingBox())!;
    expect(at.x).toBeGreaterThanOrEqual(0);
    expect(at.x + at.width).toBeLessThanOrEqual(SCREEN.width);
    expect((await pageWidth(page)).scrollWidth).toBeLessThanOrEqual(SCREEN.width);
    // Each value says what it is (the table's head is not drawn on a phone).
    await expect(row).toContainText(w.scope);
    await page.context().close();
  });
}

for (const locale of ['en-US', 'zh-CN']) {
  test(`every accounts page fits a phone and has no axe violations (${locale})`, async ({ browser }) => {
    test.setTimeout(90_000);
    const check = async (page: Page, what: string) => {
      const width = await pageWidth(page);
      expect(width.innerWidth, `${what}: the page is wider than the screen`).toBe(SCREEN.width);
      expect(width.scrollWidth, `${what}: the page is wider than the screen`).toBeLessThanOrEqual(SCREEN.width);
      const outside = await outsideScreen(page, SCREEN);
      expect(outside, `${what}: drawn outside the screen\n${outside.join('\n')}`).toEqual([]);
      const violations = await allViolations(page);
      expect(violations, `${what} (${locale}):\n${violations.join('\n')}`).toEqual([]);
    };
    const phone = { baseURL: base, locale, viewport: SCREEN, isMobile: true, hasTouch: true };
    const visitor = await (await browser.newContext(phone)).newPage();
    for (const p of ['/sign-in', '/sign-up']) {
      await visitor.goto(p);
      await expect(visitor.getByRole('heading', { level: 1 })).toBeVisible();
      await check(visitor, p);
    }

    const page = await (await browser.newContext(phone)).newPage();
    // The model list is held back (its server actions wait), so the header is measured as a slow start shows it,
    // with "Loading models…" in the picker.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/*', async (route) => {
      if (route.request().method() === 'POST' && route.request().headers()['next-action']) await held;
      await route.continue();
    });
    await page.goto('/sign-in');
    await hydrated(page.locator('input[name="email"]'));
    await page.getByLabel(locale === 'en-US' ? 'Email' : '邮箱', { exact: true }).fill(ADMIN.email);
    await page.getByLabel(locale === 'en-US' ? 'Password' : '密码', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: locale === 'en-US' ? 'Sign in' : '登录', exact: true }).click();
    await expect(page).toHaveURL(`${base}/`);
    await expect(
      page.getByRole('combobox', { name: locale === 'en-US' ? 'Model' : '模型', exact: true }),
    ).toHaveAttribute('aria-busy', 'true');
    const menu = page.getByRole('button', {
      name: locale === 'en-US' ? `Account menu for ${ADMIN.email}` : `${ADMIN.email} 的账户菜单`,
    });
    await menu.click();
    const popup = page.locator('#user-menu');
    await expect(popup).toBeVisible();
    const outside = await outsideScreen(page, SCREEN, popup);
    expect(outside, `the user menu: drawn outside the screen\n${outside.join('\n')}`).toEqual([]);
    await check(page, 'the chat with the user menu open, the models still loading');
    release();
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await expect(
      page.getByRole('combobox', { name: locale === 'en-US' ? 'Model' : '模型', exact: true }),
    ).toHaveAttribute('aria-busy', 'false');
    await check(page, 'the chat with the user menu open');
    for (const p of ['/account', '/admin']) {
      await page.goto(p);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await check(page, p);
    }
  });
}
