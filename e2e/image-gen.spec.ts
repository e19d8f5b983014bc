// image_gen from the page: a connection's "Image model" (Settings → Models → Edit) gives it an images endpoint; the
// tool is then offered in Settings → Tools, and a call makes the image at that endpoint (the scripted model server's
// /v1/images/generations) and shows it in the answer.
import { expect, test } from '@playwright/test';
import { lastAnswer, openChat, send } from './support/chat';
import { modelServerUrl, requests, setScenario } from './support/model';
import { openAddConnection, openModelsDialog } from './support/models';

test('a connection with an image model makes image_gen available; its image shows in the answer', async ({ page }) => {
  await openChat(page);
  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('region', { name: 'Settings' });
  await expect(settings.getByRole('checkbox', { name: /image_zoom_in/ })).toBeVisible();
  await expect(settings.getByRole('checkbox', { name: /image_gen/ })).toHaveCount(0); // no images endpoint yet

  const { dialog, form } = await openAddConnection(page);
  const name = `Painter ${Date.now()}`;
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Base URL (ending in /v1)').fill(`${modelServerUrl()}/v1`);
  await form.getByLabel(/^Image model/).fill('img-e2e');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByRole('listitem', { name })).toBeVisible();

  // The tools offered are the page's as it loads.
  await page.reload();
  await page.getByRole('button', { name: 'Settings' }).click();
  await settings.getByRole('checkbox', { name: /image_gen/ }).check();
  await setScenario({
    replies: [
      { toolCalls: [{ name: 'image_gen', arguments: JSON.stringify({ prompt: 'a lighthouse, #ffcc00' }) }] },
      { content: 'Here is your lighthouse (ig-heron).' },
    ],
    fallback: { content: 'Lighthouse' },
  });
  await send(page, 'Draw a lighthouse, ig-heron');
  const answer = await lastAnswer(page);
  await expect(answer).toContainText('Here is your lighthouse (ig-heron).');
  const image = answer.getByRole('img').first();
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  const made = (await requests()).filter((r) => r.path === '/v1/images/generations');
  expect(made.map((r) => r.body)).toEqual([
    expect.objectContaining({ model: 'img-e2e', prompt: 'a lighthouse, #ffcc00' }),
  ]);

  // Edited, the connection shows its image model; removed, it leaves the other specs' model list as it was.
  await openModelsDialog(page);
  const row = dialog.getByRole('listitem', { name });
  await row.getByRole('button', { name: 'Edit' }).click();
  await expect(dialog.getByRole('form', { name: `Edit ${name}` }).getByLabel(/^Image model/)).toHaveValue('img-e2e');
  await dialog
    .getByRole('form', { name: `Edit ${name}` })
    .getByRole('button', { name: 'Cancel' })
    .click();
  await row.getByRole('button', { name: 'Remove' }).click();
  await page
    .getByRole('dialog', { name: /^Remove the connection/ })
    .getByRole('button', { name: 'Remove', exact: true })
    .click();
  await expect(row).toHaveCount(0);
});
