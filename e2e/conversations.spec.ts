import { expect, test, type Page } from '@playwright/test';
import { buildActionId } from '../test/support/server-actions';
import {
  assistantTurns,
  composer,
  conversations,
  interactive,
  lastAnswer,
  openChat,
  send,
  userTurns,
} from './support/chat';
import { chatRequests, setScenario } from './support/model';

test('a conversation can be renamed, found by a word of its answer, and deleted', async ({ page }) => {
  await setScenario({
    rules: [{ when: { lastUserIncludes: 'convo-tapir' }, reply: { content: 'Tapirs enjoy xylophonic mudbaths.' } }],
  });
  await openChat(page);
  await send(page, 'Tell me about convo-tapir');
  await expect(await lastAnswer(page)).toContainText('xylophonic');
  const nav = conversations(page);
  await expect(nav.getByRole('button', { name: 'Tell me about convo-tapir', exact: true })).toBeVisible();

  // Rename: the list and the header follow.
  await nav.getByRole('button', { name: 'Rename Tell me about convo-tapir' }).click();
  const title = nav.getByRole('textbox', { name: 'New title' });
  await title.fill('Tapir notes');
  await nav.getByRole('button', { name: 'Save' }).click();
  await expect(nav.getByRole('button', { name: 'Tapir notes', exact: true })).toBeVisible();
  await expect(nav.getByRole('button', { name: 'Tell me about convo-tapir', exact: true })).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Tapir notes');

  // Search: a word only the answer holds finds it; a nonsense word finds nothing.
  const search = nav.getByRole('searchbox', { name: 'Search conversations' });
  await search.fill('xylophonic');
  await expect(nav.getByRole('listitem')).toHaveCount(1);
  await expect(nav.getByRole('button', { name: 'Tapir notes', exact: true })).toBeVisible();
  await search.fill('qzxvwplk');
  await expect(nav.getByText('No conversation matches.')).toBeVisible();
  await expect(nav.getByRole('button', { name: 'Tapir notes', exact: true })).toHaveCount(0);

  // Delete, after confirming.
  await search.fill('');
  await expect(nav.getByRole('button', { name: 'Tapir notes', exact: true })).toBeVisible();
  await nav.getByRole('button', { name: 'Delete Tapir notes' }).click();
  await page
    .getByRole('dialog', { name: /^Delete “/ })
    .getByRole('button', { name: 'Delete', exact: true })
    .click();
  await expect(nav.getByRole('button', { name: 'Tapir notes', exact: true })).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('New chat');
  await expect(nav.getByText('No conversations yet.').or(nav.getByRole('listitem').first())).toBeVisible();
});

test('a message the server refuses (its conversation was deleted in another tab) stays in the composer', async ({
  page,
  context,
}) => {
  await setScenario({
    rules: [{ when: { lastUserIncludes: 'convo-okapi' }, reply: { content: 'Okapis have long tongues.' } }],
  });
  await openChat(page);
  await send(page, 'Tell me about convo-okapi');
  await expect(await lastAnswer(page)).toContainText('long tongues');

  // Another tab deletes the conversation this one still shows.
  const other = await context.newPage();
  await openChat(other, page.url());
  await conversations(other).getByRole('button', { name: 'Delete Tell me about convo-okapi' }).click();
  await other
    .getByRole('dialog', { name: /^Delete “/ })
    .getByRole('button', { name: 'Delete', exact: true })
    .click();
  await expect(conversations(other).getByRole('button', { name: 'Tell me about convo-okapi' })).toHaveCount(0);
  await other.close();

  await send(page, 'A long follow-up question I would hate to type again');
  await expect(page.getByRole('alert').filter({ hasText: 'This conversation no longer exists.' })).toBeVisible();
  await expect(composer(page)).toHaveValue('A long follow-up question I would hate to type again');
  await expect(userTurns(page)).toHaveCount(1);

  // Regenerate and Edit, refused as well, leave the thread as it was (not an empty answer, not a vanished message).
  await page.getByRole('button', { name: 'Dismiss' }).click();
  await page.getByRole('button', { name: 'Regenerate' }).click();
  const gone = 'This message no longer exists (it or its conversation was deleted).';
  await expect(page.getByRole('alert').filter({ hasText: gone })).toBeVisible();
  await expect(assistantTurns(page)).toHaveCount(1);
  await expect(assistantTurns(page).last()).toContainText('Okapis have long tongues.');
  await expect(page.getByRole('button', { name: 'Regenerate' })).toBeVisible();
  await page.getByRole('button', { name: 'Dismiss' }).click();
  await userTurns(page).last().getByRole('button', { name: 'Edit' }).click();
  await page.getByRole('textbox', { name: 'Edit message' }).fill('Tell me more about convo-okapi');
  await page.getByRole('textbox', { name: 'Edit message' }).press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: gone })).toBeVisible();
  await expect(userTurns(page)).toHaveCount(1);
  await expect(assistantTurns(page).last()).toContainText('Okapis have long tongues.');
  // The edited text is not lost: the edit box is open again with it, holding the focus; Cancel shows the message.
  const editBox = page.getByRole('textbox', { name: 'Edit message' });
  await expect(editBox).toHaveValue('Tell me more about convo-okapi');
  await expect(editBox).toBeFocused();
  await userTurns(page).last().getByRole('button', { name: 'Cancel' }).click();
  await expect(editBox).toHaveCount(0);
  await expect(userTurns(page).last()).toContainText('Tell me about convo-okapi');
});

test('each conversation keeps its own draft, and the new chat its own, for the session; sending clears it', async ({
  page,
}) => {
  await setScenario({
    rules: [{ when: { lastUserIncludes: 'draft-ibis' }, reply: { content: 'Ibises probe the mud.' } }],
  });
  const nav = conversations(page);
  const open = (title: string) => nav.getByRole('button', { name: title, exact: true }).press('Enter');
  const type = async (text: string) => {
    await composer(page).focus();
    await page.keyboard.type(text);
  };
  await openChat(page);
  await send(page, 'First draft-ibis');
  await expect(await lastAnswer(page)).toContainText('Ibises probe the mud.');
  await page.getByRole('button', { name: '+ New chat' }).press('Enter');
  await send(page, 'Second draft-ibis');
  await expect(await lastAnswer(page)).toContainText('Ibises probe the mud.');

  // Half a message in the second; the first shows none of it, and keeps its own.
  await type('half a thought for the second');
  await open('First draft-ibis');
  await expect(userTurns(page).first()).toContainText('First draft-ibis');
  await expect(composer(page)).toHaveValue('');
  await type('one more for the first draft-ibis');
  await page.getByRole('button', { name: '+ New chat' }).press('Enter');
  await expect(composer(page)).toHaveValue('');
  await type('a new chat’s start');
  await open('Second draft-ibis');
  await expect(composer(page)).toHaveValue('half a thought for the second');
  await open('First draft-ibis');
  await expect(composer(page)).toHaveValue('one more for the first draft-ibis');

  // A reload of the tab keeps them (the session's).
  await page.reload();
  await interactive(page);
  await expect(composer(page)).toHaveValue('one more for the first draft-ibis');

  // Sent, a draft is gone: back in that conversation the box is empty; the others keep theirs.
  await composer(page).press('Enter');
  await expect(userTurns(page)).toHaveCount(2);
  await expect(composer(page)).toHaveValue('');
  await expect(await lastAnswer(page)).toContainText('Ibises probe the mud.');
  await open('Second draft-ibis');
  await expect(composer(page)).toHaveValue('half a thought for the second');
  await open('First draft-ibis');
  await expect(userTurns(page)).toHaveCount(2);
  await expect(composer(page)).toHaveValue('');
  await page.getByRole('button', { name: '+ New chat' }).press('Enter');
  await expect(composer(page)).toHaveValue('a new chat’s start');
});

test('a conversation deleted in this tab takes its draft with it, shown or not', async ({ page }) => {
  await setScenario({
    rules: [{ when: { lastUserIncludes: 'draft-heron' }, reply: { content: 'Herons stand still.' } }],
  });
  const nav = conversations(page);
  const open = (title: string) => nav.getByRole('button', { name: title, exact: true }).press('Enter');
  const type = async (text: string) => {
    await composer(page).focus();
    await page.keyboard.type(text);
  };
  /** The drafts the tab keeps (sessionStorage), whatever their keys. */
  const kept = () =>
    page.evaluate(() =>
      Object.keys(sessionStorage)
        .filter((k) => k.startsWith('agent-studio:draft:'))
        .map((k) => sessionStorage.getItem(k)),
    );
  const remove = async (title: string) => {
    await nav.getByRole('button', { name: `Delete ${title}` }).click();
    await page
      .getByRole('dialog', { name: /^Delete “/ })
      .getByRole('button', { name: 'Delete', exact: true })
      .click();
    await expect(nav.getByRole('button', { name: title, exact: true })).toHaveCount(0);
  };
  await openChat(page);
  await send(page, 'Grey draft-heron');
  await expect(await lastAnswer(page)).toContainText('Herons stand still.');
  await page.getByRole('button', { name: '+ New chat' }).press('Enter');
  await send(page, 'Blue draft-heron');
  await expect(await lastAnswer(page)).toContainText('Herons stand still.');

  // A draft in each; the grey one's deleted while the blue one is shown.
  await type('unsent about the blue heron');
  await open('Grey draft-heron');
  // Typed before the page has moved, the text would rightly go to the conversation still shown.
  await expect(userTurns(page).first()).toContainText('Grey draft-heron');
  await expect(composer(page)).toHaveValue('');
  await type('unsent about the grey heron');
  await open('Blue draft-heron');
  await expect(composer(page)).toHaveValue('unsent about the blue heron');
  expect((await kept()).sort()).toEqual(['unsent about the blue heron', 'unsent about the grey heron']);
  await remove('Grey draft-heron');
  await expect.poll(kept).toEqual(['unsent about the blue heron']);

  // The one shown, deleted: the page goes to a new chat with an empty box, and the draft is gone from the tab, also
  // after typing in the new chat and a reload.
  await remove('Blue draft-heron');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('New chat');
  await expect(composer(page)).toHaveValue('');
  await expect.poll(kept).toEqual([]);
  await type('a new start');
  await page.reload();
  await interactive(page);
  await expect(composer(page)).toHaveValue('a new start');
  expect(await kept()).toEqual(['a new start']);
});

test('the edit box shows the whole message, and Enter that picks an input method’s candidate does not send it', async ({
  page,
}) => {
  await setScenario({ rules: [{ when: { lastUserIncludes: 'edit-tern' }, reply: { content: 'Terns migrate far.' } }] });
  await openChat(page);
  const message = ['Four lines about edit-tern:', 'where they nest,', 'what they eat,', 'and how far they fly.'];
  await composer(page).fill(message.join('\n'));
  await composer(page).press('Enter');
  await expect(await lastAnswer(page)).toContainText('Terns migrate far.');

  await userTurns(page).last().getByRole('button', { name: 'Edit' }).click();
  const editBox = page.getByRole('textbox', { name: 'Edit message' });
  await expect(editBox).toHaveValue(message.join('\n'));
  // All four lines in view, in a box wide enough to read them (before: about 16rem wide and two lines tall).
  const size = await editBox.evaluate((el) => ({
    width: el.clientWidth,
    fits: el.scrollHeight <= el.clientHeight + 1,
  }));
  expect(size.fits).toBe(true);
  expect(size.width).toBeGreaterThan(400);

  // A Chinese input method's Enter confirms its candidate: the edit is not sent, nor is the box closed.
  await editBox.press('Control+End');
  await editBox.pressSequentially(' 燕鸥');
  await editBox.dispatchEvent('keydown', { key: 'Enter', code: 'Enter', isComposing: true, bubbles: true });
  await expect(editBox).toBeVisible();
  await editBox.press('Enter');
  await expect(userTurns(page).last()).toContainText('and how far they fly. 燕鸥');
  await expect(editBox).toHaveCount(0);
});

/** Holds each load of a conversation the page asks for until the test lets it go; `loading()` waits for the one
 *  asked for now and returns what lets it go. */
async function holdLoads(page: Page): Promise<{ loading(): Promise<() => void> }> {
  const load = buildActionId(process.cwd(), 'loadConversation');
  const held: (() => void)[] = [];
  await page.route('**/*', async (route) => {
    const request = route.request();
    if (request.method() !== 'POST' || (await request.headerValue('next-action')) !== load) return route.fallback();
    await new Promise<void>((go) => held.push(go));
    await route.fallback();
  });
  return {
    async loading() {
      await expect.poll(() => held.length).toBe(1);
      return held.shift()!;
    },
  };
}

test('a message sent while a conversation is still loading goes to it, opened by its address or from the list', async ({
  page,
}) => {
  await setScenario({
    rules: [{ when: { lastUserIncludes: 'load-kiwi' }, reply: { content: 'Kiwis sleep by day.' } }],
  });
  const nav = conversations(page);
  await openChat(page);
  await send(page, 'Brown load-kiwi');
  await expect(await lastAnswer(page)).toContainText('Kiwis sleep by day.');
  await page.getByRole('button', { name: '+ New chat' }).press('Enter');
  await send(page, 'Spotted load-kiwi');
  await expect(await lastAnswer(page)).toContainText('Kiwis sleep by day.');
  const spotted = page.url();
  const loads = await holdLoads(page);

  // By its address: the message typed and sent before the conversation is in goes to it, not to a new chat.
  await page.goto(spotted);
  await interactive(page);
  let letGo = await loads.loading();
  await expect(page.getByRole('status').filter({ hasText: 'Opening the conversation…' })).toBeVisible();
  await composer(page).fill('More about the spotted load-kiwi');
  await composer(page).press('Enter');
  letGo();
  await expect(userTurns(page)).toHaveText([/Spotted load-kiwi/, /More about the spotted load-kiwi/]);
  await expect(await lastAnswer(page)).toContainText('Kiwis sleep by day.');
  await expect(page).toHaveURL(spotted);
  await expect(nav.getByRole('button', { name: /^More about the/ })).toHaveCount(0); // no new conversation

  // From the list, while another conversation is shown: it goes to the one being opened, not the one still shown;
  // the page says it waits, and Send waits with it.
  await nav.getByRole('button', { name: 'Brown load-kiwi', exact: true }).press('Enter');
  letGo = await loads.loading();
  await composer(page).fill('More about the brown load-kiwi');
  await composer(page).press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'as soon as the conversation is open' })).toBeVisible();
  letGo();
  await expect(userTurns(page)).toHaveText([/Brown load-kiwi/, /More about the brown load-kiwi/]);
  await expect(await lastAnswer(page)).toContainText('Kiwis sleep by day.');
  await expect(nav.getByRole('button', { name: /^More about the/ })).toHaveCount(0);
  // Each went once, after its own conversation: the model saw each with the message before it.
  const asked = (await chatRequests()).map((r) => JSON.stringify(r.body));
  expect(asked.filter((b) => b.includes('More about the spotted') && b.includes('Spotted load-kiwi'))).toHaveLength(1);
  expect(asked.filter((b) => b.includes('More about the brown') && b.includes('Brown load-kiwi'))).toHaveLength(1);
});
