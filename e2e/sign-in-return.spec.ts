// A link opened while signed out is kept through the sign-in (a server of its own with AUTH=required): a
// conversation's link and a filtered /runs link open where they pointed once signed in, and a `next` leading off the
// app (written so that it looks like a path here) lands on the app's start page instead. A session that ends while a
// page is open comes back to the page it went on to.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { accountsServer } from './support/accounts-server';
import { interactive, lastAnswer, send, userTurns } from './support/chat';
import { hydrated } from './support/hydrated';
import { setScenario } from './support/model';

const ADMIN = { email: 'return-admin@example.com', password: 'correct horse battery' };

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
