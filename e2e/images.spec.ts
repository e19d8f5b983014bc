import { expect, test, type Page } from '@playwright/test';
import { makeImage } from '../test/support/images';
import { freePort, kill, startApp } from './support/app-process';
import { lastAnswer, openChat, send, userTurns } from './support/chat';
import { chatRequests, setScenario } from './support/model';

/** Attaches an image with the file input and waits until the server has checked it (its thumbnail shows). */
async function attachImage(page: Page, name: string, buffer: Buffer): Promise<void> {
  await page.getByLabel('Upload files').setInputFiles([{ name, mimeType: 'image/png', buffer }]);
  const chip = page.getByRole('list', { name: 'Documents' }).getByRole('listitem').filter({ hasText: name });
  await expect(chip).toContainText('image, ready');
  await expect(chip.getByRole('img', { name: `${name} (thumbnail)` })).toBeVisible();
}

/** The image has loaded (the CSP or a wrong URL would leave it broken). */
async function expectLoaded(page: Page, name: string): Promise<void> {
  const img = userTurns(page).last().getByRole('img', { name });
  await expect(img).toBeVisible();
  await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(96);
}

function blockedByCsp(page: Page): string[] {
  const blocked: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) blocked.push(m.text());
  });
  return blocked;
}

test('an image attached in the page reaches a vision model as an image part, and is shown on the turn after a reload', async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000); // a second server starts
  const port = await freePort();
  // A model whose name says it sees images (Qwen2.5-VL): images go to it.
  const app = await startApp(port, testInfo.outputPath('data'), { OPENAI_MODEL: 'qwen2.5-vl-7b-instruct' });
  try {
    await setScenario({ replies: [{ content: 'A blue rectangle on its own.' }] });
    const blocked = blockedByCsp(page);
    await openChat(page, `http://127.0.0.1:${port}/`);
    const png = await makeImage('png', 96, 64);
    await attachImage(page, 'swatch.png', png);
    await send(page, 'What is in this picture?');

    await expect(await lastAnswer(page)).toContainText('A blue rectangle on its own.');
    await expectLoaded(page, 'swatch.png');
    const [request] = await chatRequests();
    const user = request!.body.messages.filter((m: { role: string }) => m.role === 'user').at(-1);
    expect(user.content).toEqual([
      { type: 'text', text: 'What is in this picture?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } },
    ]);
    await expect(page.getByText(/cannot see images/)).toHaveCount(0);

    await page.reload();
    await expectLoaded(page, 'swatch.png');
    await userTurns(page).last().getByRole('button', { name: 'Open swatch.png full size' }).click();
    await expect(page.getByRole('dialog', { name: 'swatch.png' })).toBeVisible();
    expect(blocked).toEqual([]);
  } finally {
    await kill(app);
  }
});

test('a model that cannot see gets no image, and the turn says why, once', async ({ page }) => {
  await setScenario({
    replies: [{ content: 'I was told of a file called swatch.png.' }, { content: 'Green, I am told.' }],
  });
  await openChat(page);
  await attachImage(page, 'swatch.png', await makeImage('png', 96, 64, '#22aa44'));
  await send(page, 'Describe the picture.');

  const answer = await lastAnswer(page);
  await expect(answer).toContainText('I was told of a file called swatch.png.');
  await expect(answer.getByRole('note')).toContainText(
    'This model cannot see images, so 1 attached image was not sent to it',
  );
  await expectLoaded(page, 'swatch.png'); // the user still sees what they attached
  const [request] = await chatRequests();
  expect(JSON.stringify(request!.body)).not.toContain('image_url');
  const user = request!.body.messages.filter((m: { role: string }) => m.role === 'user').at(-1);
  expect(user.content).toBe('(Uploaded ![image](swatch.png)) Describe the picture.');

  // The next turn carries no image: no notice there, and the first turn keeps its own.
  await send(page, 'What colour is it?');
  const next = await lastAnswer(page);
  await expect(next).toContainText('Green, I am told.');
  await expect(next.getByRole('note')).toHaveCount(0);
  await expect(page.getByText(/cannot see images/)).toHaveCount(1);
});
