// A new user with nothing configured: the app is started without any OPENAI_* variable, the page leads to
// Settings → Models, a server is connected from there (a wrong key gives the 401 message, the right one lists its
// models), a model is picked and answers, the model is switched for the next message; a server on one of the
// scanned ports is found and used in one click. The scan's port list is the app's MODEL_SCAN_PORTS, pointed here at
// a scripted server on a free port (the default ports may be taken on a shared machine).
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import { createModelServer, type ModelServer } from '../scripts/model-server/server';
import { buildTinyModel } from '../scripts/tiny-gguf/tiny-model';
import { actionsSent, slowActions } from './support/actions';
import { freePort, kill, startApp } from './support/app-process';
import { assistantTurns, composer, lastAnswer, openChat, send } from './support/chat';
import { openLocalModels, openModelsDialog } from './support/models';

const KEY = 'sk-models-e2e-never-shown';

let app: ChildProcess;
let appUrl: string;
let lab: ModelServer;
let found: ModelServer;
/** A scanned port with nothing on it when the app starts (a model server started later takes it). */
let latePort: number;
/** Serves a tiny GGUF the suite builds (/tiny.gguf) and a web page saved as one (/page.gguf). */
let files: Server;
let filesUrl: string;

test.beforeAll(async () => {
  test.setTimeout(60_000);
  lab = await createModelServer({ model: 'alpha-chat', moreModels: ['beta-chat'], apiKey: KEY });
  found = await createModelServer({ model: 'found-model' });
  const tiny = Buffer.from(buildTinyModel().bytes);
  files = createServer((req, res) => {
    const body = req.url === '/tiny.gguf' ? tiny : Buffer.from('<html>Not found, but 200</html>');
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(body.length) });
    res.end(body);
  });
  await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
  filesUrl = `http://127.0.0.1:${(files.address() as { port: number }).port}`;
  latePort = await freePort();
  const port = await freePort();
  appUrl = `http://127.0.0.1:${port}`;
  const dataDir = path.join(__dirname, '..', 'test-results', `e2e-models-${Date.now()}`);
  app = await startApp(port, dataDir, {
    OPENAI_BASE_URL: '',
    OPENAI_API_KEY: '',
    OPENAI_MODEL: '',
    MODEL_SCAN_PORTS: `vllm:${found.port},sglang:${latePort}`,
    MODEL_SCAN_TIMEOUT_MS: '2000',
  });
});

test.afterAll(async () => {
  await kill(app);
  await lab.close();
  await found.close();
  await new Promise((r) => files.close(r));
});

/**
 * Waits for a download's row to show its retry's outcome. When it does not, the failure says what the server holds for
 * the job (its progress stream answers with the job's state first) and whether the row still waits on its click, so a
 * stale row is told apart from a retry the server never started.
 */
async function expectRetried(page: Page, row: Locator, name: string, outcome: RegExp) {
  try {
    await expect(row).toContainText(outcome, { timeout: 30_000 });
  } catch (e) {
    const server = await page.evaluate(async (file) => {
      const stop = new AbortController();
      const res = await fetch(`/api/local-models/downloads?name=${encodeURIComponent(file)}`, { signal: stop.signal });
      const first = await res.body!.getReader().read();
      stop.abort();
      return `${res.status} ${new TextDecoder().decode(first.value)}`;
    }, name);
    const busy = await row.locator('[aria-busy="true"]').count();
    throw new Error(`${(e as Error).message}\nThe server's job: ${server}\nThe row waits on its click: ${busy > 0}`);
  }
}

function picker(page: Page) {
  return page.getByRole('combobox', { name: 'Model', exact: true });
}

async function pick(page: Page, model: string) {
  await picker(page).click();
  await page.getByRole('searchbox', { name: 'Search models' }).fill(model.slice(0, 4));
  await page.getByRole('option', { name: model }).click();
  await expect(picker(page)).toContainText(model);
}

test('nothing configured: connect a server from the page, chat, switch the model for the next message', async ({
  page,
}) => {
  await openChat(page, appUrl);
  await expect(page.getByRole('status').filter({ hasText: 'No model is connected yet.' })).toBeVisible();
  await expect(composer(page)).toBeDisabled();

  await page.getByRole('button', { name: 'Connect a server' }).click();
  const dialog = page.getByRole('dialog', { name: 'Models' });
  const form = dialog.getByRole('form', { name: 'Add a connection' });
  await form.getByLabel('Name').fill('Lab');
  await form.getByLabel('Base URL (ending in /v1)').fill(lab.url);
  await form.getByLabel('API key').fill('sk-wrong');
  await form.getByRole('button', { name: 'Test connection' }).click();
  await expect(form.getByRole('alert')).toContainText('The key was refused (401).');

  await form.getByLabel('API key').fill(KEY);
  await form.getByRole('button', { name: 'Test connection' }).click();
  await expect(form.getByRole('status')).toContainText('Connected: 2 models.');
  await form.getByRole('button', { name: 'Save' }).click();
  const row = dialog.getByRole('listitem', { name: 'Lab' });
  await expect(row).toContainText('key set');
  await expect(row).not.toContainText(KEY);
  await dialog.getByRole('button', { name: 'Close' }).first().click();

  // The first model of the new connection is the conversation's; the page never received the key.
  await expect(composer(page)).toBeEnabled();
  await expect(picker(page)).toContainText('alpha-chat');
  await send(page, 'hello lab');
  await expect(await lastAnswer(page)).toContainText('hello lab');
  await expect(assistantTurns(page).last().getByTestId('turn-model')).toHaveText('alpha-chat · Lab');

  await pick(page, 'beta-chat');
  await send(page, 'now beta');
  await expect(await lastAnswer(page)).toContainText('now beta');
  await expect(assistantTurns(page).last().getByTestId('turn-model')).toHaveText('beta-chat · Lab');
  const chats = lab.requests.filter((r) => r.path === '/v1/chat/completions');
  expect(chats.map((r) => (r.body as { model: string }).model)).toEqual(['alpha-chat', 'beta-chat']);
  expect(chats.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);

  // Stored with the conversation: a reload shows it, and Regenerate keeps it.
  await page.reload();
  await expect(picker(page)).toContainText('beta-chat');
  await page.getByRole('button', { name: 'Regenerate' }).click();
  await expect(await lastAnswer(page)).toContainText('now beta');
  await expect(assistantTurns(page).last().getByTestId('turn-model')).toHaveText('beta-chat · Lab');
  expect(await page.content()).not.toContain(KEY);

  // A new chat starts with the model and tools chosen last, after a reload too.
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('checkbox', { name: /^calculator/ }).uncheck();
  await page.getByRole('button', { name: '+ New chat' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('New chat');
  await expect(picker(page)).toContainText('beta-chat');
  await expect(page.getByRole('checkbox', { name: /^calculator/ })).not.toBeChecked();
  await page.goto(appUrl);
  await expect(picker(page)).toContainText('beta-chat');
  await send(page, 'new chat on beta');
  await expect(assistantTurns(page).last().getByTestId('turn-model')).toHaveText('beta-chat · Lab');
});

test('a model server started after the app shows up when the Models dialog opens, without Scan again', async ({
  page,
}) => {
  await openChat(page, appUrl);
  const dialog = page.getByRole('dialog', { name: 'Models' });
  const foundList = dialog.getByRole('region', { name: 'Found on this machine' });
  const openModels = () => openModelsDialog(page);
  await openModels();
  await expect(foundList.getByRole('listitem', { name: /^vLLM/ })).toBeVisible();
  await expect(foundList.getByRole('listitem', { name: `SGLang (${latePort})` })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Close' }).first().click();

  const late = await createModelServer({ model: 'late-model', port: latePort });
  try {
    // Opening the dialog scans (a scan of the last few seconds is reused, so it may take another opening).
    await expect(async () => {
      await openModels();
      try {
        await expect(foundList.getByRole('listitem', { name: `SGLang (${latePort})` })).toContainText(
          '1 model: late-model',
          { timeout: 3000 },
        );
      } finally {
        await dialog.getByRole('button', { name: 'Close' }).first().click();
      }
    }).toPass({ timeout: 30_000 });
  } finally {
    await late.close();
  }
});

test('a server on a scanned port is found, and used in one click', async ({ page }) => {
  await openChat(page, appUrl);
  const dialog = await openModelsDialog(page);
  await dialog.getByRole('button', { name: 'Scan again' }).click();
  const server = dialog
    .getByRole('region', { name: 'Found on this machine' })
    .getByRole('listitem', { name: `vLLM (${found.port})` });
  await expect(server).toContainText('1 model: found-model');
  await server.getByRole('button', { name: `Use vLLM (${found.port})` }).click();
  await expect(server).toContainText('connected');
  await expect(dialog.getByRole('region', { name: 'Connections' })).toContainText(`vLLM (${found.port})`);
  await dialog.getByRole('button', { name: 'Close' }).first().click();

  await expect(picker(page)).toContainText('found-model');
  await send(page, 'hello found');
  await expect(await lastAnswer(page)).toContainText('hello found');
  await expect(assistantTurns(page).last().getByTestId('turn-model')).toHaveText(`found-model · vLLM (${found.port})`);
});

test('a GGUF downloaded from the page (its host allowed), checked, picked and run in the app', async ({ page }) => {
  test.setTimeout(90_000);
  await openChat(page, appUrl);
  const { dialog, local } = await openLocalModels(page);

  // Not a GGUF: refused with the reason, and nothing is kept.
  await local.getByRole('textbox', { name: 'URL of a .gguf file' }).fill(`${filesUrl}/page.gguf`);
  await local.getByRole('button', { name: 'Download', exact: true }).last().click();
  const bad = local.getByRole('listitem', { name: 'Download of page.gguf' });
  // From the keyboard here, with the mouse for the next one.
  await bad.getByRole('button', { name: 'Allow 127.0.0.1 and retry' }).press('Enter');
  // Refused again, now for what the file is rather than where it is. A wait, not a speed target: the click's server
  // action queues behind the page's earlier ones, which a loaded machine may take seconds over.
  await expectRetried(page, bad, 'page.gguf', /GGUF/);
  await expect(bad).toContainText('failed');
  await bad.getByRole('button', { name: 'Dismiss' }).click();

  // A loopback URL is refused until the user allows its host; then it downloads with its progress and is checked.
  await local.getByRole('textbox', { name: 'URL of a .gguf file' }).fill(`${filesUrl}/tiny.gguf`);
  await local.getByRole('button', { name: 'Download', exact: true }).last().click();
  const job = local.getByRole('listitem', { name: 'Download of tiny.gguf' });
  await expect(job.getByRole('alert')).toBeVisible();
  await job.getByRole('button', { name: 'Allow 127.0.0.1 and retry' }).click();
  await expectRetried(page, job, 'tiny.gguf', /downloaded and checked/);
  await expect(job).toContainText('downloaded and checked');
  await expect(job).toContainText('(100%)');
  await local.getByRole('button', { name: 'Use tiny.gguf' }).click();
  await expect(local.getByRole('listitem', { name: 'tiny.gguf', exact: true })).toContainText('in use');
  await dialog.getByRole('button', { name: 'Close' }).first().click();

  // The local model answers (random weights: nonsense, a few tokens) inside the app.
  await expect(picker(page)).toContainText('tiny.gguf');
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('spinbutton', { name: 'Max tokens' }).fill('8');
  await send(page, 'hello tiny');
  await expect(assistantTurns(page).last()).toHaveAttribute('aria-busy', 'false', { timeout: 60_000 });
  await expect(assistantTurns(page).last().getByTestId('turn-model')).toHaveText('tiny · Local');
});

test("one click, one request: a download row's buttons take no second click or Enter while theirs runs", async ({
  page,
}) => {
  test.setTimeout(60_000);
  await openChat(page, appUrl);
  const { local } = await openLocalModels(page);
  const url = `${filesUrl}/twice.gguf`;
  await local.getByRole('textbox', { name: 'URL of a .gguf file' }).fill(url);
  await local.getByRole('button', { name: 'Download', exact: true }).last().click();
  const row = local.getByRole('listitem', { name: 'Download of twice.gguf' });
  const allow = row.getByRole('button', { name: 'Allow 127.0.0.1 and retry' });
  await expect(allow).toBeEnabled();

  const starts = actionsSent(page, url, '"allowHost":true');
  const retries = actionsSent(page, url, '"allowHost":false');
  const dismissals = actionsSent(page, '["twice.gguf"]');
  const fast = await slowActions(page, 500);
  // From the keyboard: Enter, and Enter again while the retry's request is held. The button says it is unavailable
  // and keeps the focus, so the second Enter lands on it and is dropped.
  await allow.focus();
  await page.keyboard.press('Enter');
  await expect(allow).toBeDisabled();
  await expect(allow).toBeFocused();
  await page.keyboard.press('Enter');
  await expectRetried(page, row, 'twice.gguf', /GGUF/);
  expect(starts).toHaveLength(1);

  // With the mouse: a double click on Resume sends one retry (without the host allowed: refused again for it), and
  // one on Dismiss one dismissal.
  const resume = row.getByRole('button', { name: 'Resume', exact: true });
  await resume.dblclick();
  await expect(resume).toBeDisabled();
  await expect(allow).toBeEnabled();
  // Two clicks that land before the page has redrawn the row (a busy page, a script clicking) send one request too.
  await allow.evaluate((button: HTMLButtonElement) => {
    button.click();
    button.click();
  });
  await expect(allow).toBeDisabled();
  await expect(resume).toBeEnabled();
  await row.getByRole('button', { name: 'Dismiss', exact: true }).dblclick();
  await expect(row).toHaveCount(0);
  await fast();
  expect(starts).toHaveLength(2);
  expect(retries).toHaveLength(1);
  expect(dismissals).toHaveLength(1);
  await expect(local.getByRole('alert')).toHaveCount(0);
});

test('one click, one download: a double-clicked Download, or Enter twice in its URL, starts it once', async ({
  page,
}) => {
  await openChat(page, appUrl);
  const { local } = await openLocalModels(page);
  const field = local.getByRole('textbox', { name: 'URL of a .gguf file' });
  const download = local.getByRole('button', { name: 'Download', exact: true }).last();
  const fast = await slowActions(page, 500);
  for (const [file, how] of [
    ['clicked-twice.gguf', () => download.dblclick()],
    [
      'entered-twice.gguf',
      async () => {
        await field.press('Enter');
        await expect(download).toBeDisabled();
        await field.press('Enter');
      },
    ],
  ] as const) {
    const url = `${filesUrl}/${file}`;
    const starts = actionsSent(page, `[{"url":"${url}"}]`);
    await field.fill(url);
    await how();
    await expect(download).toBeDisabled();
    // Refused for its host (loopback), once: one row, and no second request behind it.
    const row = local.getByRole('listitem', { name: `Download of ${file}` });
    await expect(row.getByRole('button', { name: 'Allow 127.0.0.1 and retry' })).toBeVisible();
    await expect(download).toBeEnabled();
    expect(starts, file).toHaveLength(1);
    await row.getByRole('button', { name: 'Dismiss', exact: true }).click();
    await expect(row).toHaveCount(0);
  }
  await fast();
});
