import { expect, test } from '@playwright/test';
import { assistantTurns, lastAnswer, openChat, send, userTurns } from './support/chat';
import { chatRequests, setScenario } from './support/model';

test('Edit and "Save and send" replaces the message and its answer', async ({ page }) => {
  await setScenario({
    rules: [
      { when: { lastUserIncludes: 'edit-old-quokka' }, reply: { content: 'Answer to the old question.' } },
      { when: { lastUserIncludes: 'edit-new-quokka' }, reply: { content: 'Answer to the new question.' } },
    ],
  });
  await openChat(page);
  await send(page, 'First version edit-old-quokka');
  await expect(await lastAnswer(page)).toContainText('Answer to the old question.');

  const message = userTurns(page).last();
  await message.getByRole('button', { name: 'Edit' }).click();
  const box = message.getByRole('textbox', { name: 'Edit message' });
  await expect(box).toHaveValue('First version edit-old-quokka');
  await box.fill('Second version edit-new-quokka');
  await message.getByRole('button', { name: 'Save and send' }).click();

  await expect(await lastAnswer(page)).toContainText('Answer to the new question.');
  await expect(userTurns(page)).toHaveCount(1);
  await expect(userTurns(page)).toContainText('Second version edit-new-quokka');
  await expect(assistantTurns(page)).toHaveCount(1);
  await expect(page.getByText('Answer to the old question.')).toHaveCount(0);
  await expect(userTurns(page).filter({ hasText: 'edit-old-quokka' })).toHaveCount(0);

  // What the model got: the new message, and nothing of the old exchange.
  const sent = await chatRequests();
  const last = JSON.stringify(sent[sent.length - 1]?.body.messages);
  expect(last).toContain('Second version edit-new-quokka');
  expect(last).not.toContain('edit-old-quokka');
  expect(last).not.toContain('Answer to the old question.');

  // Still so after a reload (the server dropped the old turn, not just the page).
  await page.reload();
  await expect(userTurns(page)).toHaveCount(1);
  await expect(await lastAnswer(page)).toContainText('Answer to the new question.');
  await expect(page.getByText('Answer to the old question.')).toHaveCount(0);
});
