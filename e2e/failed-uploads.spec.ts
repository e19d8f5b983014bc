// Uploads that failed (a damaged file the server stored as failed, a file over the size limit refused in the page)
// show their error above the composer until the next message or upload, never go with a message and never hold one
// back; Remove and "Clear errors (N)" dismiss them from the keyboard, the focus going on to the next chip or the
// message box. At phone width.
import { expect, test, type Page } from '@playwright/test';
import { composer, lastAnswer, openChat } from './support/chat';
import { chatRequests, setScenario } from './support/model';

const NOT_A_PDF = Buffer.from('%PDF-1.7 this is not a PDF at all');

function chips(page: Page) {
  return page.getByRole('list', { name: 'Documents' }).getByRole('listitem');
}

function chip(page: Page, name: string) {
  return chips(page).filter({ hasText: name });
}

async function upload(page: Page, files: Record<string, Buffer>): Promise<void> {
  await page
    .getByLabel('Upload files')
    .setInputFiles(Object.entries(files).map(([name, buffer]) => ({ name, mimeType: 'text/plain', buffer })));
}

/** The names of the failed documents the server keeps for the open conversation. */
async function storedFailures(page: Page): Promise<string[]> {
  const id = new URL(page.url()).searchParams.get('c');
  const res = await page.request.get(`/api/files?conversationId=${encodeURIComponent(id ?? '')}`);
  const { documents } = (await res.json()) as { documents: { name: string; state: string }[] };
  return documents.filter((d) => d.state === 'error').map((d) => d.name);
}

/** Drops a file over the 50 MB limit on the page: refused before it is sent. */
async function dropHuge(page: Page): Promise<void> {
  const drop = await page.evaluateHandle(() => {
    const data = new DataTransfer();
    data.items.add(new File([new Uint8Array(51 * 1024 * 1024)], 'huge.bin'));
    return data;
  });
  await page.locator('main').dispatchEvent('drop', { dataTransfer: drop });
}

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
});

test('a message goes without the failed uploads and clears them; a reload does not bring them back', async ({
  page,
}) => {
  await setScenario({ rules: [{ when: { lastUserIncludes: 'plover' }, reply: { content: 'Read the notes.' } }] });
  await openChat(page);
  await upload(page, {
    'notes.md': Buffer.from('# Notes\n\nThe plover nests on the shingle.'),
    'broken.pdf': NOT_A_PDF,
  });
  await expect(chip(page, 'broken.pdf')).toContainText('error: broken.pdf is a corrupt PDF');
  await expect(chip(page, 'notes.md')).toContainText('ready, 1 page');

  await composer(page).fill('What do the notes say? plover');
  await composer(page).press('Enter');
  await expect(await lastAnswer(page)).toContainText('Read the notes.');
  await expect(page.getByRole('list', { name: 'Documents' })).toHaveCount(0);
  const sent = JSON.stringify((await chatRequests()).at(-1)!.body.messages.at(-1));
  expect(sent).toContain('[file](notes.md)');
  expect(sent).not.toContain('broken.pdf');
  await expect(page.getByRole('list', { name: 'Attached files' })).toHaveText('notes.md');
  await expect.poll(() => storedFailures(page)).toEqual([]);

  await page.reload();
  await expect(page.getByRole('list', { name: 'Attached files' })).toHaveText('notes.md');
  await expect(page.getByRole('list', { name: 'Documents' })).toHaveCount(0);
});

test('another upload replaces the earlier failures; from the keyboard, Remove and "Clear errors" dismiss them', async ({
  page,
}) => {
  await openChat(page);
  await dropHuge(page);
  await expect(chip(page, 'huge.bin')).toContainText('error: huge.bin is larger than the 50 MB limit per file.');

  await upload(page, { 'first.pdf': NOT_A_PDF, 'second.pdf': NOT_A_PDF, 'third.pdf': NOT_A_PDF });
  await expect(chip(page, 'third.pdf')).toContainText('error: third.pdf is a corrupt PDF');
  await expect(chip(page, 'first.pdf')).toContainText('error:');
  await expect(chip(page, 'second.pdf')).toContainText('error:');
  await expect(chip(page, 'huge.bin')).toHaveCount(0);
  // The failures fit the phone's width.
  const box = (await chip(page, 'first.pdf').boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);

  // Remove with the keyboard: the focus goes on to the next failure's Remove, not to the page.
  const removeFirst = page.getByRole('button', { name: 'Remove first.pdf' });
  await removeFirst.focus();
  await page.keyboard.press('Enter');
  await expect(chip(page, 'first.pdf')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Remove second.pdf' })).toBeFocused();

  // The rest at once: the focus goes to the message box.
  const clear = page.getByRole('button', { name: 'Clear errors (2)' });
  await clear.focus();
  await page.keyboard.press('Enter');
  await expect(chips(page)).toHaveCount(0);
  await expect(composer(page)).toBeFocused();
  await expect.poll(() => storedFailures(page)).toEqual([]);

  await page.reload();
  await expect(page.getByRole('list', { name: 'Documents' })).toHaveCount(0);
});
