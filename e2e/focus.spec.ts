// Where the focus goes, one control at a time: the composer on load and after New chat, back to the trigger after
// the model picker and the Models dialog, back to Edit after Escape in a message edit, the first field of a dialog,
// the tool-approval card (announced); and what assistive technology reads: the upload control named as it reads,
// a main landmark on Runs, answer headings under the page's h1; the conversation and Agents lists, one Tab stop each.
import { expect, test } from '@playwright/test';
import { assistantTurns, composer, lastAnswer, openChat, send, userTurns } from './support/chat';
import { expectFocusVisible } from './support/focus';
import { setScenario } from './support/model';

test('the composer has the focus on load and after New chat', async ({ page }) => {
  await openChat(page);
  await expect(composer(page)).toBeFocused();
  await page.getByRole('button', { name: 'Settings' }).focus();
  await page.getByRole('button', { name: '+ New chat' }).click();
  await expect(composer(page)).toBeFocused();
});

test('the model picker and the Models dialog give the focus back to the picker', async ({ page }) => {
  await openChat(page);
  const picker = page.getByRole('combobox', { name: 'Model', exact: true });
  const list = page.getByRole('listbox', { name: 'Models' });
  await picker.click();
  await expect(page.getByRole('searchbox', { name: 'Search models' })).toBeFocused();
  // Picking with the mouse: the focus is on the picker again.
  await list.getByRole('option', { name: /scripted-e2e/ }).click();
  await expect(list).toBeHidden();
  await expect(picker).toBeFocused();
  // The options are no Tab stops of their own (the search box leads the list).
  await picker.click();
  await expect(list.getByRole('option').first()).not.toHaveAttribute('tabindex', '0');
  // "Manage models…" closes the picker; closing the dialog brings the focus back to the picker.
  await page.getByRole('button', { name: 'Manage models…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Models' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(picker).toBeFocused();
});

test('Escape in a message edit gives the focus back to its Edit button', async ({ page }) => {
  await setScenario({ rules: [{ when: { lastUserIncludes: 'focus-vole' }, reply: { content: 'Voles dig.' } }] });
  await openChat(page);
  await send(page, 'What do voles do? focus-vole');
  await expect(await lastAnswer(page)).toContainText('Voles dig.');
  const message = userTurns(page).last();
  await message.getByRole('button', { name: 'Edit' }).click();
  const box = message.getByRole('textbox', { name: 'Edit message' });
  await expect(box).toBeFocused();
  await box.press('Escape');
  await expect(box).toBeHidden();
  await expect(message.getByRole('button', { name: 'Edit' })).toBeFocused();
});

test('renaming a conversation from the keyboard gives the focus back to its Rename button; deleting one keeps it in the list', async ({
  page,
}) => {
  await setScenario({ rules: [{ when: { lastUserIncludes: 'focus-marten' }, reply: { content: 'Martens climb.' } }] });
  await openChat(page);
  await send(page, 'Do martens climb? focus-marten');
  await expect(await lastAnswer(page)).toContainText('Martens climb.');
  const nav = page.getByRole('navigation', { name: 'Conversations' });
  await nav.getByRole('button', { name: 'Rename Do martens climb? focus-marten' }).press('Enter');
  const title = nav.getByRole('textbox', { name: 'New title' });
  await expect(title).toBeFocused();
  await title.press('Escape');
  await expect(title).toBeHidden();
  await expect(nav.getByRole('button', { name: 'Rename Do martens climb? focus-marten' })).toBeFocused();

  await page.keyboard.press('Enter');
  await title.fill('Marten notes');
  await title.press('Enter');
  await expect(nav.getByRole('button', { name: 'Rename Marten notes' })).toBeFocused();

  await nav.getByRole('button', { name: 'Delete Marten notes' }).press('Enter');
  await page
    .getByRole('dialog', { name: /^Delete “Marten notes”/ })
    .getByRole('button', { name: 'Delete' })
    .press('Enter');
  await expect(nav.getByRole('button', { name: 'Marten notes', exact: true })).toHaveCount(0);
  // On the conversation that took its place, or the search box when none is left.
  await expect(nav.locator(':focus')).toHaveCount(1);
  await expectFocusVisible(page);
});

test('an agent the server refuses to save puts the focus on the field at fault', async ({ page }) => {
  await openChat(page);
  await page.getByRole('button', { name: 'New agent' }).click();
  const editor = page.getByRole('dialog', { name: 'Agent' });
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editor.getByRole('alert')).toContainText('An agent needs a name.');
  // The refusal is read out, and the keyboard is where the fix goes (not on the page's body, behind the dialog).
  await expect(editor.getByRole('textbox', { name: 'Name' })).toBeFocused();
  await editor.getByRole('textbox', { name: 'Name' }).fill('Focus ferret');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editor).toBeHidden();
  await page.getByRole('button', { name: 'Delete Focus ferret' }).click();
  await page
    .getByRole('dialog', { name: /^Delete the agent/ })
    .getByRole('button', { name: 'Delete', exact: true })
    .click();
  await expect(page.getByRole('button', { name: 'Chat with Focus ferret' })).toHaveCount(0);
});

test('dialogs start on their first field', async ({ page }) => {
  await setScenario({
    rules: [
      {
        when: { lastUserIncludes: 'focus-stoat' },
        reply: [
          { toolCalls: [{ name: 'calculator', arguments: '{"expression": "2+2"}' }] },
          { content: 'Four (focus-stoat).' },
        ],
      },
    ],
  });
  await openChat(page);
  await page.getByRole('button', { name: 'New agent' }).click();
  const editor = page.getByRole('dialog', { name: 'Agent' });
  await expect(editor.getByRole('textbox', { name: 'Name' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(editor).toBeHidden();

  await send(page, 'Add two and two focus-stoat');
  const answer = await lastAnswer(page);
  await answer.getByRole('button', { name: 'Replay run' }).click();
  const replay = page.getByRole('dialog', { name: 'Replay run' });
  await expect(replay.getByRole('combobox', { name: 'From iteration' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(replay).toBeHidden();
  await expectFocusVisible(page);
});

test('the tool-approval card takes the focus and is announced', async ({ page }) => {
  await setScenario({
    rules: [
      {
        when: { lastUserIncludes: 'focus-marten' },
        reply: [
          { toolCalls: [{ name: 'calculator', arguments: '{"expression": "6*7"}' }] },
          { content: 'Done (focus-marten).' },
        ],
      },
    ],
  });
  await openChat(page);
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('checkbox', { name: /Pause before tools/ }).check();
  await page.getByRole('button', { name: 'Settings' }).click();
  await send(page, 'Six times seven? focus-marten');
  const approval = assistantTurns(page).last().getByRole('group', { name: 'Approve calculator' });
  await expect(approval).toBeVisible();
  await expect(approval).toBeFocused();
  // Said by screen readers as it appears: the pause is in a live region.
  await expect(approval.locator('[aria-live], [role="alert"], [role="status"]')).toContainText('The run is paused');
  await page.keyboard.press('Tab');
  await expect(approval.getByRole('textbox', { name: 'Arguments' })).toBeFocused();
  await approval.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(await lastAnswer(page)).toContainText('Done (focus-marten).');
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('checkbox', { name: /Pause before tools/ }).uncheck();
});

test('names and landmarks: the upload control reads as it shows, Runs has a main, answer headings are below h1', async ({
  page,
}) => {
  await setScenario({
    rules: [
      {
        when: { lastUserIncludes: 'focus-heading' },
        reply: { content: '# Otters\n\n## Food\n\nFish (focus-heading).' },
      },
    ],
  });
  await openChat(page);
  // The upload control's accessible name is the text it shows.
  const upload = page.getByLabel('Upload files', { exact: true });
  await expect(upload).toHaveCount(1);
  await expect(page.locator('label[for="composer-upload"]')).toHaveText('Upload files');

  await send(page, 'Tell me about otters focus-heading');
  const answer = await lastAnswer(page);
  await expect(answer).toContainText('Fish (focus-heading).');
  await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
  await expect(answer.getByRole('heading', { name: 'Otters', level: 2 })).toBeVisible();
  await expect(answer.getByRole('heading', { name: 'Food', level: 3 })).toBeVisible();

  await page.goto('/runs');
  await expect(page.getByRole('main')).toHaveCount(1);
  await expect(page.getByRole('main').getByRole('heading', { name: 'Runs', level: 1 })).toBeVisible();
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });
  test('the upload control reads as it shows', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByLabel('上传文件', { exact: true })).toHaveCount(1);
    await expect(page.locator('label[for="composer-upload"]')).toHaveText('上传文件');
  });
});

test('the first Tab stop skips the sidebar to the conversation', async ({ page }) => {
  await setScenario({ rules: [{ when: {}, reply: { content: 'Skipped along.' } }] });
  await openChat(page);
  await send(page, 'A message to skip to');
  await expect(await lastAnswer(page)).toContainText('Skipped along.');
  // From the top of the page, as after loading it with the focus nowhere.
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    document.body.tabIndex = -1;
    document.body.focus();
    document.body.removeAttribute('tabindex');
  });
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to the conversation' });
  await expect(skip).toBeFocused();
  await expectFocusVisible(page);
  await page.keyboard.press('Enter');
  const thread = page.getByRole('region', { name: 'Messages' });
  await expect(thread).toBeFocused();
  // The next Tab is in the thread: the first message's Edit.
  await page.keyboard.press('Tab');
  await expect(userTurns(page).first().getByRole('button', { name: 'Edit' })).toBeFocused();
});

test('Escape closes Settings on a desktop too, from the panel or its button, and the focus goes back to Settings', async ({
  page,
}) => {
  await openChat(page);
  const settings = page.getByRole('button', { name: 'Settings' });
  const panel = page.locator('#settings-panel');
  await settings.press('Enter');
  await expect(panel).toBeVisible();
  await expect(settings).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(settings).toBeFocused();

  await settings.press('Enter');
  await panel.getByRole('checkbox').first().focus();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(settings).toHaveAttribute('aria-expanded', 'false');
  await expect(settings).toBeFocused();
});

test('the conversation list is one Tab stop: arrows move between conversations and to Rename and Delete', async ({
  page,
}) => {
  await setScenario({ rules: [{ when: {}, reply: { content: 'Listed.' } }] });
  await openChat(page);
  for (const word of ['first-stoat', 'second-stoat', 'third-stoat']) {
    await page.getByRole('button', { name: '+ New chat' }).click();
    await send(page, `Tell me ${word}`);
    await expect(await lastAnswer(page)).toContainText('Listed.');
  }
  const nav = page.getByRole('navigation', { name: 'Conversations' });
  const row = (word: string) => nav.getByRole('button', { name: `Tell me ${word}`, exact: true });
  await expect(row('first-stoat')).toBeVisible();
  // From the search box, one Tab reaches the open conversation, the next one leaves the list.
  await nav.getByRole('searchbox', { name: 'Search conversations' }).focus();
  await page.keyboard.press('Tab');
  await expect(row('third-stoat')).toBeFocused();
  await expect(nav.getByText('↑ ↓ to move between conversations, → to rename or delete')).toBeVisible();
  await page.keyboard.press('Tab');
  expect(await nav.locator('li').evaluateAll((rows) => rows.some((r) => r.contains(document.activeElement)))).toBe(
    false,
  );
  await expectFocusVisible(page);

  // Back into the list; the arrows walk it.
  await page.keyboard.press('Shift+Tab');
  await expect(row('third-stoat')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(row('second-stoat')).toBeFocused();
  // The list holds the other tests' conversations too: End is its last (oldest) one.
  await page.keyboard.press('End');
  await expect(nav.locator('li button[data-conversation]').last()).toBeFocused();
  await page.keyboard.press('Home');
  await expect(row('third-stoat')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await expect(nav.getByRole('button', { name: 'Rename Tell me second-stoat' })).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(nav.getByRole('button', { name: 'Delete Tell me second-stoat' })).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(row('second-stoat')).toBeFocused();
  // The list's Tab stop is where the keyboard left it: Enter opens that conversation.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Shift+Tab');
  await expect(row('second-stoat')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(userTurns(page)).toHaveText([/Tell me second-stoat/]);
});

test('the Agents list is one Tab stop too: arrows move between agents and along their actions; Enter does one', async ({
  page,
}) => {
  await openChat(page);
  const agents = page.getByRole('region', { name: 'Agents' });
  const names = ['Keys kite 1', 'Keys kite 2', 'Keys kite 3'];
  for (const name of names) {
    await agents.getByRole('button', { name: 'New agent' }).click();
    const editor = page.getByRole('dialog', { name: 'Agent' });
    await editor.getByRole('textbox', { name: 'Name' }).fill(name);
    await editor.getByRole('button', { name: 'Save' }).click();
    await expect(editor).toBeHidden();
  }
  const chatWith = (name: string) => agents.getByRole('button', { name: `Chat with ${name}`, exact: true });
  const inList = () => agents.locator('li').evaluateAll((rows) => rows.some((r) => r.contains(document.activeElement)));
  await expect(chatWith('Keys kite 3')).toBeVisible();

  // From Import agent (the last control before the list), one Tab enters the list, the next one leaves it.
  await agents.getByRole('button', { name: 'Import agent' }).focus();
  await page.keyboard.press('Tab');
  await expect(agents.locator('li button').first()).toBeFocused();
  await expect(agents.getByText('↑ ↓ to move between agents, → to edit, duplicate, export or delete')).toBeVisible();
  await page.keyboard.press('Tab');
  expect(await inList()).toBe(false);
  await expectFocusVisible(page);
  await page.keyboard.press('Shift+Tab');
  expect(await inList()).toBe(true);

  // The arrows walk the list: End and Home are its ends, ↓ ↑ the next and the one before.
  await page.keyboard.press('End');
  await expect(agents.locator('li:has(button)').last().locator('button').first()).toBeFocused();
  await page.keyboard.press('Home');
  await expect(agents.locator('li:has(button)').first().locator('button').first()).toBeFocused();
  await chatWith('Keys kite 1').focus();
  await page.keyboard.press('ArrowDown');
  await expect(chatWith('Keys kite 2')).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(chatWith('Keys kite 1')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(chatWith('Keys kite 3')).toBeFocused();

  // → ← go along the row's actions.
  for (const action of ['Edit', 'Duplicate', 'Export', 'Delete']) {
    await page.keyboard.press('ArrowRight');
    await expect(agents.getByRole('button', { name: `${action} Keys kite 3`, exact: true })).toBeFocused();
  }
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(agents.getByRole('button', { name: 'Duplicate Keys kite 3', exact: true })).toBeFocused();
  // The list's Tab stop is where the keyboard left it.
  await page.keyboard.press('Tab');
  expect(await inList()).toBe(false);
  await page.keyboard.press('Shift+Tab');
  await expect(chatWith('Keys kite 3')).toBeFocused();

  // Enter on an action does it: Edit opens the editor on that agent; Delete (after asking) deletes it.
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  const editor = page.getByRole('dialog', { name: 'Agent' });
  await expect(editor.getByRole('textbox', { name: 'Name' })).toHaveValue('Keys kite 3');
  await page.keyboard.press('Escape');
  await expect(editor).toBeHidden();
  for (const name of names) {
    await chatWith(name).focus();
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
    await expect(agents.getByRole('button', { name: `Delete ${name}`, exact: true })).toBeFocused();
    await page.keyboard.press('Enter');
    await page
      .getByRole('dialog', { name: `Delete the agent "${name}"?`, exact: false })
      .getByRole('button', { name: 'Delete', exact: true })
      .click();
    await expect(chatWith(name)).toHaveCount(0);
  }
});
