import { expect, test, type CDPSession, type Page } from '@playwright/test';
import { makeDocx } from '../test/support/document-fixtures';
import { makePdf, textPage } from '../test/support/pdf-writer';
import { seriousViolations } from './support/axe';
import { lastAnswer, openChat, send } from './support/chat';
import { chatRequests, setScenario } from './support/model';

function documents(page: Page) {
  return page.getByRole('list', { name: 'Documents' }).getByRole('listitem');
}

function documentItem(page: Page, name: string) {
  return documents(page).filter({ hasText: name });
}

/** Chromium's network emulation: uploads at `bytesPerSecond` (-1: unthrottled). */
async function throttleUploads(cdp: CDPSession, bytesPerSecond: number): Promise<void> {
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
}

test('upload several files: progress, then ready with page counts or a clear error; remove one; a reload keeps the list', async ({
  page,
}) => {
  test.setTimeout(90_000); // a throttled upload, two reloads and a model turn
  await page.emulateMedia({ colorScheme: 'light' });
  await openChat(page);
  // Slow the upload link down so the progress bar can be seen (Chromium's network emulation).
  const cdp = await page.context().newCDPSession(page);
  await throttleUploads(cdp, 256 * 1024);
  const pdf = makePdf([
    textPage('Tide tables', ['High water at Tidewick is at 06:12 on Monday.']),
    textPage('Notes', ['Fog expected near Gullrock.']),
    textPage('Contacts', ['Harbour master on channel 12.']),
  ]);
  await page.getByLabel('Upload files').setInputFiles([
    { name: 'tides.pdf', mimeType: 'application/pdf', buffer: pdf },
    {
      name: 'pilots.docx',
      mimeType: 'application/octet-stream',
      buffer: makeDocx([{ text: 'Pilot boarding at the buoy.' }]),
    },
    { name: 'cargo.csv', mimeType: 'text/csv', buffer: Buffer.from('port,tonnes\nTidewick,4200\nGullrock,1300\n') },
    { name: 'broken.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.7 this is not a PDF at all') },
    { name: 'big.txt', mimeType: 'text/plain', buffer: Buffer.from('tide '.repeat(200_000)) },
  ]);

  // The 1 MB text file takes seconds at this speed: its progress bar shows.
  await expect(page.getByRole('progressbar', { name: 'Uploading big.txt' })).toBeVisible();
  await expect(documentItem(page, 'big.txt')).toContainText(/uploading \d+%/);

  // The throttled link also holds back the page's status requests until the big upload is through.
  await expect(documentItem(page, 'big.txt')).toContainText('ready, 1 page', { timeout: 20_000 });
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  await throttleUploads(cdp, -1);
  await expect(documentItem(page, 'tides.pdf')).toContainText('ready, 3 pages');
  await expect(documentItem(page, 'pilots.docx')).toContainText('ready, 1 page');
  await expect(documentItem(page, 'cargo.csv')).toContainText('ready, 1 page');
  await expect(documentItem(page, 'broken.pdf')).toContainText('error: broken.pdf is a corrupt PDF');

  // The files created the conversation: the address holds it.
  await expect(page).toHaveURL(/\?c=[\w-]+/);

  await page.getByRole('button', { name: 'Remove cargo.csv' }).click();
  await expect(documentItem(page, 'cargo.csv')).toHaveCount(0);

  await page.reload();
  await expect(documentItem(page, 'tides.pdf')).toContainText('ready, 3 pages');
  await expect(documentItem(page, 'broken.pdf')).toContainText('error: broken.pdf is a corrupt PDF');
  await expect(documents(page)).toHaveCount(4);
  await expect(documentItem(page, 'cargo.csv')).toHaveCount(0);

  // The list (ready and refused documents) reads well to assistive technology, light and dark.
  for (const theme of ['light', 'dark']) {
    const found = await seriousViolations(page);
    expect(found, `${theme} theme:\n${found.join('\n')}`).toEqual([]);
    if (theme === 'light') await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  }

  // The next message carries the ready documents: the model is told of them.
  await setScenario({ rules: [{ when: { lastUserIncludes: 'upload-heron' }, reply: { content: 'Read them.' } }] });
  await send(page, 'What do the files say? upload-heron');
  await expect(await lastAnswer(page)).toContainText('Read them.');
  const last = (await chatRequests()).at(-1)!.body.messages.at(-1);
  // Uploads finish in any order; each ready document is named once, the refused one is not.
  expect(last.content).toMatch(/^\(Uploaded (\[file\]\([\w.]+\) ?){3}\) What do the files say\? upload-heron$/);
  for (const name of ['tides.pdf', 'pilots.docx', 'big.txt']) expect(last.content).toContain(`[file](${name})`);
  expect(last.content).not.toContain('broken.pdf');

  // After a reload the message shows the files it carried.
  await page.reload();
  const attached = page.getByRole('list', { name: 'Attached files' });
  await expect(attached.getByRole('listitem')).toHaveCount(3);
  await expect(attached).toContainText('tides.pdf');
});

test('at phone width, a file over the size limit dropped on the page is refused before it is sent', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openChat(page);
  const drop = await page.evaluateHandle(() => {
    const data = new DataTransfer();
    // 51 MB of nothing: over the default 50 MB limit.
    data.items.add(new File([new Uint8Array(51 * 1024 * 1024)], 'huge.bin'));
    return data;
  });
  await page.locator('main').dispatchEvent('drop', { dataTransfer: drop });
  await expect(documentItem(page, 'huge.bin')).toContainText(
    'error: huge.bin is larger than the 50 MB limit per file.',
  );
  // The error fits the narrow screen, and the attach control is there.
  const box = await documentItem(page, 'huge.bin').boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  await expect(page.getByText('Upload files', { exact: true })).toBeVisible();
  // Nothing was sent: no conversation was started for it.
  await expect(page).not.toHaveURL(/\?c=/);
});

test('a message sent while its file is still uploading waits for it, then goes with the file', async ({ page }) => {
  await setScenario({
    rules: [{ when: { lastUserIncludes: 'osprey' }, reply: { content: 'Read the ferry log (osprey).' } }],
  });
  await openChat(page);
  const cdp = await page.context().newCDPSession(page);
  await throttleUploads(cdp, 128 * 1024);
  // About 300 KB: more than two seconds on the way up.
  const log = Buffer.from(
    Array.from({ length: 8000 }, (_, i) => `Line ${i}: the ferry left Tidewick on time.`).join('\n'),
  );
  await page.getByLabel('Upload files').setInputFiles([{ name: 'ferry-log.txt', mimeType: 'text/plain', buffer: log }]);
  await expect(page.getByRole('progressbar', { name: 'Uploading ferry-log.txt' })).toBeVisible();

  // Held back until the file is up: said meanwhile, so Send's click is all that is waited for here.
  await send(page, 'What does the log say? osprey', { waitForTurn: false });
  await expect(
    page.getByRole('status').filter({ hasText: 'Your message goes as soon as the files are uploaded.' }),
  ).toBeVisible();
  await expect(await lastAnswer(page)).toContainText('Read the ferry log (osprey).');
  await expect(page.getByRole('status').filter({ hasText: 'as soon as the files are uploaded' })).toHaveCount(0);

  const sent = (await chatRequests()).at(-1)!.body.messages as { role: string; content: string }[];
  expect(sent.at(-1)).toMatchObject({
    role: 'user',
    content: '(Uploaded [file](ferry-log.txt)) What does the log say? osprey',
  });
});
