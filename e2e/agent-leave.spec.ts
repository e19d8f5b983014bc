// Unsaved agent edits are not lost without a word: leaving the page while the agent editor holds typed text asks
// the browser's "Leave site?" first; with nothing typed, the page goes at once.
import { expect, test, type Dialog } from '@playwright/test';
import { openChat } from './support/chat';

test('leaving the page with unsaved agent edits asks first, and keeps the text when the user stays', async ({
  page,
}) => {
  await openChat(page);
  await page.getByRole('button', { name: 'New agent' }).click();
  const editor = page.getByRole('dialog', { name: 'Agent' });
  const system = editor.getByRole('textbox', { name: 'System message' });
  await system.click();
  await system.pressSequentially('You answer in haiku.');

  const asked = new Promise<Dialog>((resolve) => page.once('dialog', resolve));
  await page.close({ runBeforeUnload: true });
  const dialog = await asked;
  expect(dialog.type()).toBe('beforeunload');
  await dialog.dismiss();
  await expect(system).toHaveValue('You answer in haiku.');
  expect(page.isClosed()).toBe(false);
});

test('with nothing typed in the editor, the page goes without asking', async ({ page }) => {
  await openChat(page);
  await page.getByRole('button', { name: 'New agent' }).click();
  await expect(page.getByRole('dialog', { name: 'Agent' }).getByRole('textbox', { name: 'Name' })).toBeVisible();
  let asked = false;
  page.on('dialog', (d) => {
    asked = true;
    void d.dismiss();
  });
  await page.close({ runBeforeUnload: true });
  await expect.poll(() => page.isClosed()).toBe(true);
  expect(asked).toBe(false);
});
