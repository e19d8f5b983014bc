import { expect, test } from '@playwright/test';
import { conversations, lastAnswer, openChat, send } from './support/chat';
import { setScenario } from './support/model';

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
  page.once('dialog', (d) => void d.accept());
  await nav.getByRole('button', { name: 'Delete Tapir notes' }).click();
  await expect(nav.getByRole('button', { name: 'Tapir notes', exact: true })).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('New chat');
  await expect(nav.getByText('No conversations yet.').or(nav.getByRole('listitem').first())).toBeVisible();
});
