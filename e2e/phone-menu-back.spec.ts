// On a phone the chat page's menu covers the page, and the browser's Back closes it, as Back closes a phone app's
// drawer: the conversation under it stays, and the focus goes back to Menu. What is picked in the menu takes its step
// over, so Back from there lands where the menu was opened, menu closed; closing it (Close, Escape) leaves no step
// behind; Back from Runs, opened from the menu, comes back to the menu. Before, the menu was no step of the history:
// Back left the conversation for the one before, with the menu still open over it.
import { expect, test, type Page } from '@playwright/test';
import { conversations, lastAnswer, openChat, send } from './support/chat';
import { hydrated } from './support/hydrated';
import { setScenario } from './support/model';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

const heading = (page: Page) => page.getByRole('heading', { level: 1 });

/** Two conversations, made one after the other; the page is on the second. Returns their addresses. */
async function twoConversations(page: Page, menu: string, newChat: string): Promise<[string, string]> {
  await setScenario({ fallback: 'echo' });
  await openChat(page);
  await send(page, 'the lighthouse keeper');
  await lastAnswer(page);
  await expect(page).toHaveURL(/\?c=/);
  const first = page.url();
  await page.getByRole('button', { name: menu, exact: true }).click();
  await conversations(page).getByRole('button', { name: newChat }).click();
  await send(page, 'the harbour master');
  await lastAnswer(page);
  await expect(page).not.toHaveURL(first);
  await expect(page).toHaveURL(/\?c=/);
  return [first, page.url()];
}

test('Back closes the phone menu and stays on the conversation; what the menu opens takes its step', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const [first, second] = await twoConversations(page, 'Menu', '+ New chat');
  const menuButton = page.getByRole('button', { name: 'Menu', exact: true });
  const list = conversations(page);

  // Opened from the keyboard, closed by Back: the same conversation, the focus back on Menu.
  await menuButton.focus();
  await page.keyboard.press('Enter');
  await expect(list).toBeVisible();
  await page.goBack();
  await expect(list).toBeHidden();
  await expect(page).toHaveURL(second);
  await expect(heading(page)).toHaveText('the harbour master');
  await expect(menuButton).toBeFocused();
  // Forward opens it again.
  await page.goForward();
  await expect(list).toBeVisible();
  await page.goBack();
  await expect(list).toBeHidden();

  // A conversation picked in it: Back lands on the one the menu was opened over, the menu closed.
  await menuButton.click();
  await list.getByRole('button', { name: 'the lighthouse keeper', exact: true }).click();
  await expect(heading(page)).toHaveText('the lighthouse keeper');
  await expect(page).toHaveURL(first);
  await page.goBack();
  await expect(page).toHaveURL(second);
  await expect(heading(page)).toHaveText('the harbour master');
  await expect(list).toBeHidden();

  // Closed by Close, or by Escape: no step left behind (Back goes to the conversation before, at once).
  await menuButton.click();
  await page.locator('aside').getByRole('button', { name: 'Close', exact: true }).click();
  await expect(list).toBeHidden();
  await menuButton.click();
  await expect(list).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(list).toBeHidden();
  await expect(menuButton).toBeFocused();
  await expect(page).toHaveURL(second);
  await page.goBack();
  await expect(page).toHaveURL(first);
  await expect(heading(page)).toHaveText('the lighthouse keeper');
  await expect(list).toBeHidden();
});

test('Back from Runs, opened from the phone menu, comes back to the menu; Back again closes it (in Chinese)', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({
    locale: 'zh-CN',
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  await setScenario({ fallback: 'echo' });
  await page.goto('/');
  const message = page.getByRole('textbox', { name: '消息', exact: true });
  await hydrated(message);
  await message.fill('灯塔看守人');
  await message.press('Enter');
  await expect(page).toHaveURL(/\?c=/);
  const conversation = page.url();
  await expect(heading(page)).toHaveText('灯塔看守人');

  const menuButton = page.getByRole('button', { name: '菜单', exact: true });
  const list = page.getByRole('navigation', { name: '对话' });
  await menuButton.click();
  await expect(list).toBeVisible();
  await page.goBack();
  await expect(list).toBeHidden();
  await expect(page).toHaveURL(conversation);
  await expect(heading(page)).toHaveText('灯塔看守人');

  await menuButton.click();
  await list.getByRole('link', { name: '运行记录' }).click();
  await expect(page).toHaveURL(/\/runs$/);
  await page.goBack();
  await expect(page).toHaveURL(conversation);
  await expect(list).toBeVisible();
  await page.goBack();
  await expect(list).toBeHidden();
  await expect(page).toHaveURL(conversation);
  await expect(heading(page)).toHaveText('灯塔看守人');
  await context.close();
});

test('Back with the agent editor open over the phone menu closes the editor first, then the menu', async ({ page }) => {
  test.setTimeout(90_000);
  const [, conversation] = await twoConversations(page, 'Menu', '+ New chat');
  const menuButton = page.getByRole('button', { name: 'Menu', exact: true });
  const list = conversations(page);
  const editor = page.getByRole('dialog', { name: 'Agent', exact: true });
  const newAgent = page.getByRole('button', { name: 'New agent', exact: true });

  // Nothing typed: Back closes the editor, the menu stays open under it with the focus on New agent.
  await menuButton.click();
  await newAgent.click();
  await expect(editor).toBeVisible();
  await page.goBack();
  await expect(editor).toBeHidden();
  await expect(list).toBeVisible();
  await expect(newAgent).toBeFocused();
  await expect(page).toHaveURL(conversation);
  // Back again closes the menu, on the same conversation.
  await page.goBack();
  await expect(list).toBeHidden();
  await expect(page).toHaveURL(conversation);
  await expect(heading(page)).toHaveText('the harbour master');

  // Something typed: Back asks first, as Escape does; Keep editing keeps it, and the next Back asks again.
  await menuButton.click();
  await newAgent.click();
  await editor.getByRole('textbox', { name: 'Name', exact: true }).fill('Tide watcher');
  await page.goBack();
  const ask = page.getByRole('dialog', { name: 'Discard the changes to this agent?' });
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Keep editing' }).click();
  await expect(editor.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('Tide watcher');
  await page.goBack();
  await ask.getByRole('button', { name: 'Discard' }).click();
  await expect(editor).toBeHidden();
  await expect(list).toBeVisible();
  await page.goBack();
  await expect(list).toBeHidden();
  await expect(page).toHaveURL(conversation);
  await expect(heading(page)).toHaveText('the harbour master');
});
