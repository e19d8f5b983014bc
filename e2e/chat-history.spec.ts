// The browser's Back and Forward on the chat page: each conversation opened (from the list, New chat) is a step of
// the history, and Back opens the one before, with the list, the composer and the focus following. Before, the page
// only replaced its address, so Back left the app.
import { expect, test, type Page } from '@playwright/test';
import { assistantTurns, composer, conversations, openChat, send } from './support/chat';
import { setScenario } from './support/model';

const ADDRESS = /\/\?c=[\w-]+$/;
// Titles of this test's own (the app's data is shared by the specs, and by a test's repeats).
let TAG = '';
test.beforeEach(() => {
  TAG = ` ${Date.now().toString(36)}`;
});

/** Sends `text` as the first message of the new chat shown; resolves with the conversation's address. */
async function startConversation(page: Page, text: string, answer: string): Promise<string> {
  await send(page, text);
  await expect(assistantTurns(page).last()).toContainText(answer);
  await expect(assistantTurns(page).last()).toHaveAttribute('aria-busy', 'false');
  await expect(page).toHaveURL(ADDRESS);
  return new URL(page.url()).search;
}

/** The page shows the conversation `title` (heading, list selection, thread), at `address`. */
async function expectShown(page: Page, address: string, title: string, answer: string): Promise<void> {
  await expect(page).toHaveURL(new RegExp(`/\\${address}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  const selected = conversations(page).locator('[aria-current="page"]');
  await expect(selected).toHaveAttribute('data-conversation', new URLSearchParams(address).get('c')!);
  await expect(selected).toHaveText(title);
  await expect(assistantTurns(page)).toHaveCount(1);
  await expect(assistantTurns(page).last()).toContainText(answer);
}

async function expectNewChat(page: Page): Promise<void> {
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('New chat');
  await expect(assistantTurns(page)).toHaveCount(0);
  await expect(conversations(page).locator('[aria-current="page"]')).toHaveCount(0);
}

test.beforeEach(async () => {
  await setScenario({
    rules: [
      { when: { lastUserIncludes: 'hist-aardvark' }, reply: { content: 'Aardvarks eat termites.' } },
      { when: { lastUserIncludes: 'hist-bison' }, reply: { content: 'Bison roam the plains.' } },
      { when: { lastUserIncludes: 'hist-civet' }, reply: { content: 'Civets climb trees.' } },
      { when: {}, reply: { content: 'Noted.' } },
    ],
  });
});

test('Back and Forward open the conversations opened from the list, with the list, the composer and the focus', async ({
  page,
}) => {
  const nav = conversations(page);
  await openChat(page);
  const a = await startConversation(page, `About hist-aardvark 1${TAG}`, 'Aardvarks eat termites.');
  await page.getByRole('button', { name: 'New chat' }).click();
  const b = await startConversation(page, `About hist-bison 1${TAG}`, 'Bison roam the plains.');

  // A draft typed in A stays A's; the list opens A, then B, from the keyboard.
  await nav.getByRole('button', { name: `About hist-aardvark 1${TAG}`, exact: true }).press('Enter');
  await expectShown(page, a, `About hist-aardvark 1${TAG}`, 'Aardvarks eat termites.');
  await composer(page).fill('half a question about aardvarks');
  await nav.getByRole('button', { name: `About hist-aardvark 1${TAG}`, exact: true }).focus();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await expectShown(page, b, `About hist-bison 1${TAG}`, 'Bison roam the plains.');
  await expect(composer(page)).toHaveValue('');

  // Back: A again, its draft in the composer, and the focus on its row (the list's selection and focus together).
  await page.goBack();
  await expectShown(page, a, `About hist-aardvark 1${TAG}`, 'Aardvarks eat termites.');
  await expect(composer(page)).toHaveValue('half a question about aardvarks');
  await expect(nav.getByRole('button', { name: `About hist-aardvark 1${TAG}`, exact: true })).toBeFocused();
  // Back again: B, as its first message made it; then A, the first one (its new chat became it).
  await page.goBack();
  await expectShown(page, b, `About hist-bison 1${TAG}`, 'Bison roam the plains.');
  await expect(composer(page)).toHaveValue('');
  await page.goBack();
  await expectShown(page, a, `About hist-aardvark 1${TAG}`, 'Aardvarks eat termites.');

  // Forward retraces them.
  await page.goForward();
  await expectShown(page, b, `About hist-bison 1${TAG}`, 'Bison roam the plains.');
  await page.goForward();
  await expectShown(page, a, `About hist-aardvark 1${TAG}`, 'Aardvarks eat termites.');
  await page.goForward();
  await expectShown(page, b, `About hist-bison 1${TAG}`, 'Bison roam the plains.');

  // A message sent after Back goes to the conversation Back opened.
  await page.goBack();
  await expectShown(page, a, `About hist-aardvark 1${TAG}`, 'Aardvarks eat termites.');
  await send(page, `More hist-aardvark 1${TAG}`);
  await expect(page.locator('article[data-role="user"]')).toHaveCount(2);
  await expect(page).toHaveURL(new RegExp(`/\\${a}$`));
});

test('New chat is a step of the history; its first message makes it the conversation, so Back skips no empty chat', async ({
  page,
}) => {
  await openChat(page);
  const a = await startConversation(page, `About hist-aardvark 2${TAG}`, 'Aardvarks eat termites.');

  // New chat: a step of its own, Back returns to A and Forward to the new chat, with its own (empty) draft.
  await page.getByRole('button', { name: 'New chat' }).click();
  await expectNewChat(page);
  await expect(composer(page)).toBeFocused();
  await composer(page).fill('new chat words');
  await page.goBack();
  await expectShown(page, a, `About hist-aardvark 2${TAG}`, 'Aardvarks eat termites.');
  await expect(composer(page)).toHaveValue('');
  await page.goForward();
  await expectNewChat(page);
  await expect(composer(page)).toHaveValue('new chat words');

  // Its first message: the new chat's step is now the conversation's, Back from it goes to A, Forward back to it.
  const c = await startConversation(page, `About hist-civet 2${TAG}`, 'Civets climb trees.');
  await page.goBack();
  await expectShown(page, a, `About hist-aardvark 2${TAG}`, 'Aardvarks eat termites.');
  await page.goForward();
  await expectShown(page, c, `About hist-civet 2${TAG}`, 'Civets climb trees.');
  await page.goForward(); // nothing further: the conversation stays
  await expectShown(page, c, `About hist-civet 2${TAG}`, 'Civets climb trees.');
});

test('Back to a conversation deleted since says it no longer exists, as its address does, and shows a new chat', async ({
  page,
}) => {
  const nav = conversations(page);
  await openChat(page);
  const a = await startConversation(page, `About hist-aardvark 3${TAG}`, 'Aardvarks eat termites.');
  await page.getByRole('button', { name: 'New chat' }).click();
  await startConversation(page, `About hist-bison 3${TAG}`, 'Bison roam the plains.');
  await page.goBack();
  await expectShown(page, a, `About hist-aardvark 3${TAG}`, 'Aardvarks eat termites.');
  await page.goForward();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`About hist-bison 3${TAG}`);

  await nav.getByRole('button', { name: `Delete About hist-aardvark 3${TAG}` }).click();
  await page
    .getByRole('dialog', { name: /^Delete “/ })
    .getByRole('button', { name: 'Delete', exact: true })
    .click();
  await expect(nav.getByRole('button', { name: `About hist-aardvark 3${TAG}`, exact: true })).toHaveCount(0);

  await page.goBack();
  await expect(page.getByRole('alert').filter({ hasText: 'This conversation no longer exists.' })).toBeVisible();
  await expectNewChat(page);
});

test('a conversation opened from the Runs page: Back returns to Runs, Forward to it, and Back from Runs to the chat', async ({
  page,
}) => {
  await openChat(page);
  const a = await startConversation(page, `About hist-aardvark 4${TAG}`, 'Aardvarks eat termites.');
  await page.getByRole('button', { name: 'New chat' }).click();
  await startConversation(page, `About hist-bison 4${TAG}`, 'Bison roam the plains.');
  await page.getByRole('link', { name: 'Runs' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Runs' })).toBeVisible();
  await page
    .getByRole('table', { name: 'Runs', exact: true })
    .getByRole('link', { name: `About hist-aardvark 4${TAG}` })
    .first()
    .click();
  await expectShown(page, a, `About hist-aardvark 4${TAG}`, 'Aardvarks eat termites.');

  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: 'Runs' })).toBeVisible();
  await page.goForward();
  await expectShown(page, a, `About hist-aardvark 4${TAG}`, 'Aardvarks eat termites.');
  // Back twice: Runs, then the chat on the conversation it was left on.
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: 'Runs' })).toBeVisible();
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`About hist-bison 4${TAG}`);
  await expect(page).toHaveURL(ADDRESS);
  // And on back through the chat's own steps.
  await page.goBack();
  await expectShown(page, a, `About hist-aardvark 4${TAG}`, 'Aardvarks eat termites.');
});

test('a new chat with a saved agent is a step too: Forward comes back to it with its agent', async ({ page }) => {
  await openChat(page);
  const a = await startConversation(page, `About hist-aardvark 5${TAG}`, 'Aardvarks eat termites.');
  await page.getByRole('button', { name: 'New agent' }).click();
  const editor = page.getByRole('dialog', { name: 'Agent' });
  await editor.getByRole('textbox', { name: 'Name' }).fill('History heron');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editor).toBeHidden();

  await page.getByRole('button', { name: 'Chat with History heron' }).click();
  await expect(page.getByText('A new conversation with History heron')).toBeVisible();
  await expectNewChat(page);
  await page.goBack();
  await expectShown(page, a, `About hist-aardvark 5${TAG}`, 'Aardvarks eat termites.');
  await expect(page.getByText('A new conversation with History heron')).toHaveCount(0);
  await page.goForward();
  await expectNewChat(page);
  await expect(page.getByText('A new conversation with History heron')).toBeVisible();

  // Other specs share the app's data (the Chinese page's must show no English name).
  await page.getByRole('button', { name: 'Delete History heron' }).click();
  await page
    .getByRole('dialog', { name: 'Delete the agent "History heron"?', exact: false })
    .getByRole('button', { name: 'Delete', exact: true })
    .click();
  await expect(page.getByRole('button', { name: 'Chat with History heron' })).toBeHidden();
});
