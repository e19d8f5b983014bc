// A link opened while signed out is kept through the sign-in (a server of its own with AUTH=required): a
// conversation's link and a filtered /runs link open where they pointed once signed in, and a `next` leading off the
// app (written so that it looks like a path here) lands on the app's start page instead. A session that ends while a
// page is open comes back to the page it went on to: a search of Runs, the conversation being opened and its run in
// the inspector (for their owner only: another user signing in there finds neither).
import { expect, test, type Browser, type Page } from '@playwright/test';
import { accountsServer } from './support/accounts-server';
import { conversations, interactive, lastAnswer, notice, send, userTurns } from './support/chat';
import { hydrated } from './support/hydrated';
import { setScenario } from './support/model';

const ADMIN = { email: 'return-admin@example.com', password: 'correct horse battery' };
const OTHER = { email: 'return-other@example.com', password: 'another long password' };

const server = accountsServer('sign-in-return', ADMIN);

async function signedOut(browser: Browser): Promise<Page> {
  return (await browser.newContext({ baseURL: server.base })).newPage();
}

/** Signs in on the sign-in page the browser is on, once its form is the page's own (hydrated). */
async function signInHere(page: Page) {
  await hydrated(page.locator('input[name="email"]'));
  await page.getByLabel('Email', { exact: true }).fill(ADMIN.email);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

test('a link opened signed out (a conversation, filtered runs) opens where it pointed once signed in', async ({
  browser,
}) => {
  test.setTimeout(60_000);
  await setScenario({ fallback: 'echo' });
  // A conversation of the admin's, and its link.
  const author = await signedOut(browser);
  await author.goto('/sign-in');
  await signInHere(author);
  await expect(author).toHaveURL(`${server.base}/`);
  await interactive(author);
  await send(author, 'remember the lighthouse');
  await lastAnswer(author);
  await expect(author).toHaveURL(/\?c=/);
  const link = new URL(author.url());
  await author.context().close();

  // Opened in a browser that is not signed in: sent to sign in, then into that conversation.
  const page = await signedOut(browser);
  await page.goto(`${link.pathname}${link.search}`);
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  await signInHere(page);
  await expect(page).toHaveURL(`${server.base}${link.pathname}${link.search}`);
  await expect(userTurns(page).first()).toContainText('remember the lighthouse');
  await page.context().close();

  // A filtered runs page: the same page with the same search once signed in.
  const runs = await signedOut(browser);
  await runs.goto('/runs?q=lighthouse');
  await expect(runs).toHaveURL(/\/sign-in\?next=/);
  await signInHere(runs);
  await expect(runs).toHaveURL(`${server.base}/runs?q=lighthouse`);
  await expect(runs.getByRole('searchbox', { name: 'Search runs' })).toHaveValue('lighthouse');
  await runs.context().close();
});

test('signed out while Runs is open: the next search goes to sign in, and comes back to it', async ({ browser }) => {
  test.setTimeout(60_000);
  const page = await signedOut(browser);
  await page.goto('/runs?q=lighthouse');
  await signInHere(page);
  await expect(page).toHaveURL(`${server.base}/runs?q=lighthouse`);
  const search = page.getByRole('searchbox', { name: 'Search runs' });
  await hydrated(search);
  // The session ends (signed out elsewhere, expired): the next search goes to sign in, and back to it.
  await page.context().clearCookies();
  await search.fill('remember');
  await search.press('Enter');
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  await signInHere(page);
  await expect(page).toHaveURL(`${server.base}/runs?q=remember`);
  await page.context().close();
});

test('a `next` that leads off the app lands on the start page, by the page and without its script', async ({
  browser,
}) => {
  test.setTimeout(120_000); // ten sign-ins on a shared machine
  // Each looks like a path here; the last two only become "//example.com" once the dots are resolved.
  for (const next of ['//example.com', '/\\example.com', 'https://example.com/', '/..//example.com', '/.//example.com'])
    for (const javaScriptEnabled of [true, false]) {
      const page = await (await browser.newContext({ baseURL: server.base, javaScriptEnabled })).newPage();
      // Had it gone there, the browser would show this (no request leaves the machine).
      await page.route(
        (url) => url.hostname === 'example.com',
        (route) => route.fulfill({ contentType: 'text/plain', body: 'elsewhere' }),
      );
      await page.goto(`/sign-in?next=${encodeURIComponent(next)}`);
      if (javaScriptEnabled) await signInHere(page);
      else {
        await page.getByLabel('Email', { exact: true }).fill(ADMIN.email);
        await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      }
      await expect(page, `${next} (script ${javaScriptEnabled ? 'on' : 'off'})`).toHaveURL(`${server.base}/`);
      await page.context().close();
    }
});

test('the session ends as a conversation opens with its run inspected: Sign in again comes back to both, and only for its owner', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  await setScenario({ fallback: 'echo' });
  // Another user, by an invite of the admin's.
  const admin = await signedOut(browser);
  await admin.goto('/sign-in');
  await signInHere(admin);
  await expect(admin).toHaveURL(`${server.base}/`);
  await admin.goto('/admin');
  await admin.getByRole('button', { name: 'Create invite link' }).click();
  const invite = new URL((await admin.getByTestId('invite-link').textContent())!).searchParams.get('invite');
  const made = await admin.context().request.post(`${server.base}/api/auth/sign-up/email`, {
    data: { ...OTHER, invite },
    headers: { origin: server.base },
  });
  expect(made.status()).toBe(200);
  await admin.context().close();

  // The admin's conversation with its run open in the inspector, and its address.
  const page = await signedOut(browser);
  await page.goto('/sign-in');
  await signInHere(page);
  await interactive(page);
  await send(page, 'remember the harbour');
  await (await lastAnswer(page)).getByRole('button', { name: 'Inspect run' }).click();
  const inspector = page.getByRole('dialog', { name: 'Run inspector' });
  await expect(inspector).toContainText('remember the harbour');
  await expect(page).toHaveURL(/\/\?c=[\w-]+&run=[\w-]+$/);
  const link = page.url();

  // The page is opened again (a reload, Back to it) and the session ends as it comes in (signed out in another tab,
  // expired): opening the conversation is refused, and the page says to sign in again, its address still the
  // conversation's and the run's.
  await page.goto(link, { waitUntil: 'commit' });
  await page.context().clearCookies();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in again');
  await expect(page).toHaveURL(link);
  await page.getByRole('link', { name: 'Go to the sign-in page' }).click();
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  expect(new URL(page.url()).searchParams.get('next')).toBe(new URL(link).pathname + new URL(link).search);
  const signInAgain = page.url();
  await signInHere(page);
  await expect(page).toHaveURL(link);
  await expect(userTurns(page).first()).toContainText('remember the harbour');
  await expect(inspector).toContainText('remember the harbour');

  // Someone else signing in on that sign-in page is sent there too, and finds neither.
  await page.context().clearCookies();
  await page.goto(signInAgain);
  await hydrated(page.locator('input[name="email"]'));
  await page.getByLabel('Email', { exact: true }).fill(OTHER.email);
  await page.getByLabel('Password', { exact: true }).fill(OTHER.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(link);
  await expect(notice(page)).toContainText('This conversation no longer exists.');
  await expect(inspector.getByRole('alert')).toContainText('was not found');
  await expect(page.getByText('remember the harbour')).toHaveCount(0);
  await page.context().close();
});

test('the session ends, then another conversation is picked: Sign in again opens the one picked', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  await setScenario({ fallback: 'echo' });
  const page = await signedOut(browser);
  await page.goto('/sign-in');
  await signInHere(page);
  await interactive(page);
  // The window has the focus (one without it asks the server every few seconds whether anything changed, which would
  // find the sign-in gone before the pick does), from now on.
  await page.bringToFront();
  expect(await page.evaluate(() => document.hasFocus())).toBe(true);
  await send(page, 'the first of two');
  await lastAnswer(page);
  const first = page.url();
  await page.getByRole('button', { name: '+ New chat' }).click();
  await send(page, 'the second of two');
  await lastAnswer(page);
  await expect(page).toHaveURL(/\?c=/);
  await expect(page).not.toHaveURL(first);

  await page.context().clearCookies();
  await conversations(page).getByRole('button', { name: 'the first of two', exact: true }).click();
  await expect(page).toHaveURL(first);
  // Whatever the page does next is refused for want of the sign-in (here: coming back to the window).
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in again');
  await expect(page).toHaveURL(first);
  await page.getByRole('link', { name: 'Go to the sign-in page' }).click();
  await signInHere(page);
  await expect(page).toHaveURL(first);
  await expect(userTurns(page).first()).toContainText('the first of two');
  await page.context().close();
});
