// The agent editor's Upload… with several files at once, some refused: every file's outcome is listed in the page's
// language (a file over UPLOAD_MAX_BYTES refused before it is sent, a damaged PDF, an old .doc with what to save it
// as, and the one added), in English on a desktop and in Chinese on a 390 px phone from the keyboard. Its own app, so
// that the upload limit is small.
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { freePort, kill, startApp } from './support/app-process';
import { openChat } from './support/chat';
import { outsideScreen } from './support/viewport';

let app: ChildProcess;
let appUrl: string;
const LIMIT = 64 * 1024;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  const port = await freePort();
  appUrl = `http://127.0.0.1:${port}`;
  const dataDir = path.join(__dirname, '..', 'test-results', `e2e-agent-documents-upload-${Date.now()}`);
  app = await startApp(port, dataDir, { UPLOAD_MAX_BYTES: String(LIMIT) });
});

test.afterAll(async () => {
  await kill(app);
});

/** An OLE compound file holding a `WordDocument` stream: what Word 97–2003 saved as .doc. */
function oldDoc(): Buffer {
  const bytes = Buffer.alloc(2048);
  Buffer.from('d0cf11e0a1b11ae1', 'hex').copy(bytes);
  Buffer.from('WordDocument', 'utf16le').copy(bytes, 1024);
  return bytes;
}

const FILES = [
  { name: 'big.txt', mimeType: 'text/plain', buffer: Buffer.from('big words '.repeat((LIMIT * 2) / 10)) },
  { name: 'broken.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\nthis is not really a pdf\n') },
  { name: 'old.doc', mimeType: 'application/msword', buffer: oldDoc() },
  { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('The heron rota puts Wilhelmina on Thursday.\n') },
];

/** The names of the files the page sent to the server. */
function uploadsSent(page: Page): string[] {
  const sent: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (r.method() === 'POST' && url.pathname === '/api/files') sent.push(url.searchParams.get('name') ?? '');
  });
  return sent;
}

test('four files at once: each one’s outcome is listed, the big one refused before it is sent', async ({ page }) => {
  const sent = uploadsSent(page);
  await openChat(page, appUrl);
  await page.getByRole('button', { name: 'New agent' }).click();
  const editor = page.getByRole('dialog', { name: 'Agent' });
  await editor.getByRole('textbox', { name: 'Name' }).fill('Rota reader');
  await editor.getByLabel('Upload…').setInputFiles(FILES);

  const outcomes = editor.getByRole('list', { name: 'Uploaded files' });
  await expect(outcomes.getByRole('listitem')).toHaveText([
    'big.txt is larger than the 64 KB limit per file.',
    /^broken\.pdf .*(damaged|cannot be read|could not be read)/,
    'old.doc is an old Word document (.doc), which cannot be read: save it as .docx and upload that.',
    'notes.txt added.',
  ]);
  await expect(editor.getByRole('alert')).toContainText('old.doc');
  await expect(editor.getByRole('list', { name: 'Documents (its knowledge)' })).toHaveText(/notes\.txt/);
  expect(sent).toEqual(['broken.pdf', 'old.doc', 'notes.txt']);
  await editor.getByRole('button', { name: 'Cancel' }).click();
});

test.describe('in Chinese, on a 390 px phone, from the keyboard', () => {
  test.use({ locale: 'zh-CN', viewport: { width: 390, height: 844 } });

  test('every outcome in Chinese, the old .doc with its advice', async ({ page }) => {
    const sent = uploadsSent(page);
    await page.goto(appUrl);
    await expect(page.getByRole('button', { name: /^切换到(深色|浅色)主题$/ })).toBeVisible(); // hydrated
    await page.getByRole('button', { name: '菜单' }).click();
    await page.getByRole('button', { name: '新建智能体' }).press('Enter');
    const editor = page.getByRole('dialog', { name: '智能体' });
    await editor.getByRole('textbox', { name: '名称' }).fill('值班表');
    const upload = editor.getByLabel('上传…');
    // Focused and pressed in one step: the editor may still be settling its own focus when it has just opened.
    const chooser = page.waitForEvent('filechooser');
    await upload.press('Space');
    await (await chooser).setFiles(FILES);

    const outcomes = editor.getByRole('list', { name: '已上传的文件' });
    await expect(outcomes.getByRole('listitem')).toHaveText([
      'big.txt 超过了单个文件 64 KB 的大小上限。',
      'broken.pdf 已损坏，无法读取。',
      'old.doc 是旧版 Word 文档（.doc），无法读取。请在 Word 中“另存为” .docx 后上传。',
      '已添加 notes.txt。',
    ]);
    await expect(outcomes).not.toContainText(/cannot|could not|which|save it/i);
    // Nothing runs off the phone's screen (the editor scrolls to it).
    await outcomes.scrollIntoViewIfNeeded();
    expect(await outsideScreen(page, { width: 390, height: 844 }, outcomes)).toEqual([]);
    expect(sent).toEqual(['broken.pdf', 'old.doc', 'notes.txt']);
    // The focus stayed on Upload…, ready for the next files.
    await expect(upload).toBeFocused();
  });
});
