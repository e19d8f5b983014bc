// Settings → Models → Local: a GGUF uploaded from this computer (the suite writes a tiny one) through the page and
// the real POST /api/local-models, listed from its header and picked; a web page saved as .gguf dropped on the
// upload area is refused with the reason and nothing is listed; a file over LOCAL_MODEL_UPLOAD_MAX_BYTES is refused
// before it is sent. Its own app, so the models folder starts empty and the limit is small.
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { buildTinyModel } from '../scripts/tiny-gguf/tiny-model';
import { freePort, kill, startApp } from './support/app-process';
import { openChat } from './support/chat';
import { openLocalModels } from './support/models';

let app: ChildProcess;
let appUrl: string;
const tiny = Buffer.from(buildTinyModel().bytes);

test.beforeAll(async () => {
  test.setTimeout(60_000);
  const port = await freePort();
  appUrl = `http://127.0.0.1:${port}`;
  const dataDir = path.join(__dirname, '..', 'test-results', `e2e-model-upload-${Date.now()}`);
  app = await startApp(port, dataDir, { LOCAL_MODEL_UPLOAD_MAX_BYTES: String(1024 * 1024) });
});

test.afterAll(async () => {
  await kill(app);
});

async function openLocal(page: Page) {
  await openChat(page, appUrl);
  return openLocalModels(page);
}

test('a GGUF uploaded from the page is checked, listed and picked; a bad one is refused; a big one never sent', async ({
  page,
}) => {
  const { dialog, local } = await openLocal(page);
  const zone = local.getByRole('group', { name: 'Upload a GGUF file: drop it here' });
  await expect(zone).toContainText('at most 1 MB'); // 1024 × 1024 bytes, in binary units as every size

  // Dropped: a web page saved under a .gguf name. The server refuses it for what it is; nothing is listed.
  const dropped = await page.evaluateHandle(() => {
    const data = new DataTransfer();
    const html = '<!DOCTYPE html><html><body>Sign in</body></html>';
    data.items.add(new File([html], 'page.gguf', { type: 'application/octet-stream' }));
    return data;
  });
  await zone.dispatchEvent('dragover', { dataTransfer: dropped });
  await zone.dispatchEvent('drop', { dataTransfer: dropped });
  await expect(zone.getByRole('alert')).toHaveText(
    'page.gguf was refused. Not a GGUF file: it is a web page (it starts with "<!DOCTYP"), perhaps a login or error page instead of the model.',
  );
  await expect(local.getByRole('listitem', { name: 'page.gguf', exact: true })).toHaveCount(0);

  // Over the limit: said at once, with the limit, and not sent.
  const uploads: string[] = [];
  page.on('request', (r) => r.url().includes('/api/local-models') && uploads.push(r.url()));
  await local.getByLabel('GGUF file to upload').setInputFiles({
    name: 'huge.gguf',
    mimeType: 'application/octet-stream',
    buffer: Buffer.concat([tiny.subarray(0, 16), Buffer.alloc(2 * 1024 * 1024)]),
  });
  await expect(zone.getByRole('alert')).toHaveText('huge.gguf is 2 MB, larger than the 1 MB upload limit.');
  expect(uploads).toEqual([]);

  // Chosen with the button's file input: uploaded with its progress, checked, and listed ready to use.
  await local.getByLabel('GGUF file to upload').setInputFiles({
    name: 'tiny-upload.gguf',
    mimeType: 'application/octet-stream',
    buffer: tiny,
  });
  await expect(zone.getByRole('status')).toHaveText('tiny-upload.gguf was uploaded and is ready to use.');
  expect(uploads).toHaveLength(1);
  const row = local.getByRole('listitem', { name: 'tiny-upload.gguf', exact: true });
  await expect(row).toContainText('llama');
  await local.getByRole('button', { name: 'Use tiny-upload.gguf' }).click();
  await expect(row).toContainText('in use');
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await expect(page.getByRole('combobox', { name: 'Model', exact: true })).toContainText('tiny-upload.gguf');
});
