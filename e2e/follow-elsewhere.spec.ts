// Two windows of the chat side by side, both in view, one focused: the one without the focus follows what is done
// in the other, without being focused first (a message, its answer as it streams, conversations started, renamed,
// moved up and deleted), and another user's windows follow none of it; a hidden or focused window asks the server
// nothing for it. Before, such a window changed only once it got the focus.
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { buildActionId } from '../test/support/server-actions';
import { freePort, kill, startApp } from './support/app-process';
import { assistantTurns, conversations, lastAnswer, openChat, send, userTurns } from './support/chat';
import { setScenario } from './support/model';
import { expectInViewUnfocused, focusOn } from './support/windows';

// About nine seconds of answer: long enough to be seen streaming in the other window.
const FACTS = Array.from({ length: 60 }, (_, i) => `Otter fact ${i + 1}.`).join(' ');

/** A word no other test's conversation has (the suite's server keeps every conversation of the run). */
function unique(): string {
  return Date.now().toString(36);
}

/** The conversation's row in the list, by its title. */
function listed(page: Page, title: string) {
  return conversations(page).getByRole('button', { name: title, exact: true });
}

/** Waits until the page has read its list of conversations (nothing is left in flight): what it shows after that
 *  was read again. */
async function listRead(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  const list = conversations(page);
  await expect(list.getByText('No conversations yet.').or(list.getByRole('listitem').first())).toBeVisible();
}

/** The titles of the list's rows that match `pattern`, top first. */
async function order(page: Page, pattern: RegExp): Promise<string[]> {
  const rows = await conversations(page).getByRole('listitem').allTextContents();
  return rows.map((row) => pattern.exec(row)?.[0]).filter((title): title is string => Boolean(title));
}

test('a window in view without the focus shows a message sent in the other, and its answer as it streams', async ({
  context,
}) => {
  test.setTimeout(90_000);
  await setScenario({
    rules: [
      { when: { lastUserIncludes: 'side-otter' }, reply: { content: FACTS, chunkSize: 4, delayMs: 40 } },
      { when: {}, reply: { content: 'Noted.' } },
    ],
  });
  const hello = `Hello side otters ${unique()}`;
  const a = await context.newPage();
  const b = await context.newPage();
  await openChat(a);
  await send(a, hello);
  await expect(await lastAnswer(a)).toContainText('Noted.');
  await expect(a).toHaveURL(/\?c=[\w-]+/);
  await openChat(b, a.url());
  await expect(assistantTurns(b).last()).toContainText('Noted.');
  await focusOn(a, b);

  await send(a, 'Otter facts, please side-otter');
  // B shows A's message, then the answer while it is still streaming (followed, not read once it is over).
  await expect(userTurns(b)).toHaveText([/Hello side otters/, /side-otter/]);
  await expect(assistantTurns(b).last()).toContainText('Otter fact 1.');
  await expect(assistantTurns(b).last()).toHaveAttribute('aria-busy', 'true');
  await expect(assistantTurns(a).last()).toHaveAttribute('aria-busy', 'true');
  await expect(assistantTurns(b).last()).toContainText('Otter fact 60.', { timeout: 30_000 });
  await expect(assistantTurns(b).last()).toHaveAttribute('aria-busy', 'false');
  await expect(assistantTurns(b).last()).toContainText(FACTS);
  await expect(
    assistantTurns(b)
      .last()
      .getByText(/^Interrupted/),
  ).toHaveCount(0);
  await expectInViewUnfocused(b);

  // The focus then comes to B, which reads what changed once more: nothing is shown twice.
  await focusOn(b, a);
  await b.waitForTimeout(3_000);
  await expect(userTurns(b)).toHaveText([/Hello side otters/, /side-otter/]);
  await expect(assistantTurns(b)).toHaveCount(2);
  await expect(assistantTurns(b).last()).toContainText(FACTS);
  await expect(listed(b, hello)).toHaveCount(1);
  // And B's own message goes, once, after A's turn.
  await send(b, 'One more from side window B');
  await expect(await lastAnswer(b)).toContainText('Noted.');
  await expect(userTurns(b)).toHaveText([/Hello side otters/, /side-otter/, /side window B/]);
  await expect(userTurns(a)).toHaveText([/Hello side otters/, /side-otter/, /side window B/]);
});

test('a window in view without the focus follows the list: a conversation started, moved up, renamed and deleted in the other', async ({
  context,
}) => {
  test.setTimeout(90_000);
  await setScenario({ rules: [{ when: {}, reply: { content: 'Noted.' } }] });
  const a = await context.newPage();
  const b = await context.newPage();
  await openChat(a);
  await openChat(b);
  await listRead(b);
  await focusOn(a, b);
  const tag = unique();
  const tapirTitle = `Tell me about follow-tapir ${tag}`;
  const ibisTitle = `Tell me about follow-ibis ${tag}`;
  const renamed = `Tapir follow notes ${tag}`;
  const titles = new RegExp(`Tell me about follow-(tapir|ibis) ${tag}`);

  // Started in A: listed in B.
  await send(a, tapirTitle);
  await expect(await lastAnswer(a)).toContainText('Noted.');
  await expect(a).toHaveURL(/\?c=[\w-]+/);
  const tapir = a.url();
  await expect(listed(b, tapirTitle)).toBeVisible();
  await a.getByRole('button', { name: '+ New chat' }).click();
  await send(a, ibisTitle);
  await expect(await lastAnswer(a)).toContainText('Noted.');
  await expect.poll(() => order(b, titles)).toEqual([ibisTitle, tapirTitle]);

  // B shows the first one; a message sent to it in A moves it up in B's list, and shows in B's thread.
  await openChat(b, tapir);
  await focusOn(a, b);
  await listed(a, tapirTitle).click();
  // Opened (the ibis conversation shown until then has one message too).
  await expect(a.getByRole('heading', { level: 1 })).toHaveText(tapirTitle);
  await expect(userTurns(a)).toHaveText([/follow-tapir/]);
  await send(a, 'And another follow-tapir thing');
  await expect(assistantTurns(a)).toHaveCount(2);
  await expect(await lastAnswer(a)).toContainText('Noted.');
  await expect.poll(() => order(b, titles)).toEqual([tapirTitle, ibisTitle]);
  await expect(userTurns(b)).toHaveText([/Tell me about follow-tapir/, /And another follow-tapir thing/]);
  await expect(assistantTurns(b)).toHaveCount(2);

  // Renamed in A: B's list and B's header say the new title.
  await conversations(a)
    .getByRole('button', { name: `Rename ${tapirTitle}` })
    .click();
  await conversations(a).getByRole('textbox', { name: 'New title' }).fill(renamed);
  await conversations(a).getByRole('button', { name: 'Save' }).click();
  await expect(listed(b, renamed)).toBeVisible();
  await expect(listed(b, tapirTitle)).toHaveCount(0);
  await expect(b.getByRole('heading', { level: 1 })).toHaveText(renamed);

  // Deleted in A: gone from B's list, and B, which shows it, says it no longer exists.
  await conversations(a)
    .getByRole('button', { name: `Delete ${renamed}` })
    .click();
  await a
    .getByRole('dialog', { name: /^Delete “/ })
    .getByRole('button', { name: 'Delete', exact: true })
    .click();
  await expect(listed(b, renamed)).toHaveCount(0);
  await expect(b.getByRole('alert').filter({ hasText: 'This conversation no longer exists.' })).toBeVisible();
  await expect(listed(b, ibisTitle)).toBeVisible();
  await expectInViewUnfocused(b);
});

test('a window asks whether anything changed only while it is in view without the focus: hidden, it asks nothing', async ({
  context,
}) => {
  const a = await context.newPage();
  const b = await context.newPage();
  await openChat(a);
  await openChat(b);
  const version = buildActionId(process.cwd(), 'conversationListVersion');
  const asked: number[] = [];
  b.on('request', (request) => {
    if (request.headers()['next-action'] === version) asked.push(Date.now());
  });
  const askedWithin = async (ms: number) => {
    const from = asked.length;
    await b.waitForTimeout(ms);
    return asked.length - from;
  };
  // That it asks is seen as soon as it does (polled every 100 ms); that it does not, only over the whole while.
  const asksWithin = (ms: number) => {
    const from = asked.length;
    return expect.poll(() => asked.length - from, { timeout: ms, intervals: [100] }).toBeGreaterThanOrEqual(1);
  };
  await focusOn(a, b);
  await asksWithin(4_500);
  // Hidden (its tab in the background, its window minimised), as the browser tells a page.
  await b.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await b.waitForTimeout(500); // a question already on its way
  expect(await askedWithin(5_000)).toBe(0);
  // In view again, it asks again; focused, it asks nothing (the focus itself caught up).
  await b.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await asksWithin(4_500);
  await focusOn(b, a);
  await b.waitForTimeout(500);
  expect(await askedWithin(5_000)).toBe(0);
});

test.describe('with accounts', () => {
  let app: ChildProcess;
  let base: string;
  const PASSWORD = 'correct horse battery';

  test.beforeAll(async () => {
    test.setTimeout(90_000);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    app = await startApp(port, path.join(__dirname, '..', 'test-results', `e2e-follow-accounts-${Date.now()}`), {
      AUTH: 'required',
    });
  });

  test.afterAll(async () => {
    if (app) await kill(app);
  });

  /** A new account, signed in in `context` (the first one made is the admin). */
  async function signUp(context: BrowserContext, email: string): Promise<void> {
    const made = await context.request.post(`${base}/api/auth/sign-up/email`, {
      data: { email, password: PASSWORD },
      headers: { origin: base },
    });
    expect(made.status()).toBe(200);
  }

  test('another user’s window, in view without the focus, follows none of it', async ({ browser }) => {
    test.setTimeout(90_000);
    await setScenario({ rules: [{ when: {}, reply: { content: 'Noted.' } }] });
    const mine = await browser.newContext({ baseURL: base });
    await signUp(mine, 'follow-owner@example.com');
    const opened = await mine.request.post(`${base}/admin`, {
      headers: {
        'next-action': buildActionId(process.cwd(), 'updateServerSettings'),
        'content-type': 'text/plain;charset=UTF-8',
        accept: 'text/x-component',
        origin: base,
      },
      data: JSON.stringify([{ signUp: 'open' }]),
    });
    expect(opened.status()).toBe(200);
    const theirs = await browser.newContext({ baseURL: base });
    await signUp(theirs, 'follow-other@example.com');

    const mineA = await mine.newPage();
    const mineB = await mine.newPage();
    // Each browser context has a window at its front: the other user's is another tab of theirs, so that their
    // chat is in view without the focus too.
    const theirFront = await theirs.newPage();
    const other = await theirs.newPage();
    for (const page of [mineA, mineB, other]) await openChat(page);
    await expect(conversations(other).getByText('No conversations yet.')).toBeVisible();
    await listRead(mineB);
    await focusOn(mineA, mineB);
    await focusOn(theirFront, other);

    // The owner's second window follows the owner's new conversation; the other user's window shows none of it.
    await send(mineA, 'The owner’s follow-walrus secret');
    await expect(await lastAnswer(mineA)).toContainText('Noted.');
    await expect(listed(mineB, 'The owner’s follow-walrus secret')).toBeVisible();
    await expect(conversations(other).getByText('No conversations yet.')).toBeVisible();

    // The other user starts one of theirs: the owner's windows never show it, even once they have read the list
    // again after it (B shows the owner's rename, made after it).
    await focusOn(other, theirFront);
    await send(other, 'Their own follow-narwhal');
    await expect(await lastAnswer(other)).toContainText('Noted.');
    await focusOn(theirFront, other);
    await conversations(mineA).getByRole('button', { name: 'Rename The owner’s follow-walrus secret' }).click();
    await conversations(mineA).getByRole('textbox', { name: 'New title' }).fill('Walrus follow notes');
    await conversations(mineA).getByRole('button', { name: 'Save' }).click();
    await expect(listed(mineB, 'Walrus follow notes')).toBeVisible();
    await expect(conversations(mineB).getByRole('listitem')).toHaveCount(1);
    await expect(conversations(mineB).getByText('follow-narwhal')).toHaveCount(0);
    // The other user's window, following its owner's list the while, holds only its own conversation.
    await other.waitForTimeout(4_500);
    await expect(conversations(other).getByRole('listitem')).toHaveCount(1);
    await expect(listed(other, 'Their own follow-narwhal')).toBeVisible();
    await expect(conversations(other).getByText(/follow-walrus|Walrus follow/)).toHaveCount(0);
    await expectInViewUnfocused(other);
    await mine.close();
    await theirs.close();
  });
});
