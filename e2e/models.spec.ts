// A new user with nothing configured: the app is started without any OPENAI_* variable, the page leads to
// Settings → Models, a server is connected from there (a wrong key gives the 401 message, the right one lists its
// models), a model is picked and answers, the model is switched for the next message; a server on one of the
// scanned ports is found and used in one click. The scan's port list is the app's MODEL_SCAN_PORTS, pointed here at
// a scripted server on a free port (the default ports may be taken on a shared machine).
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { createModelServer, type ModelServer } from '../scripts/model-server/server';
import { freePort, kill, startApp } from './support/app-process';
import { assistantTurns, composer, lastAnswer, openChat, send } from './support/chat';

const KEY = 'sk-models-e2e-never-shown';

let app: ChildProcess;
let appUrl: string;
let lab: ModelServer;
let found: ModelServer;

test.beforeAll(async () => {
  test.setTimeout(60_000);
  lab = await createModelServer({ model: 'alpha-chat', moreModels: ['beta-chat'], apiKey: KEY });
  found = await createModelServer({ model: 'found-model' });
  const port = await freePort();
  appUrl = `http://127.0.0.1:${port}`;
  const dataDir = path.join(__dirname, '..', 'test-results', `e2e-models-${Date.now()}`);
  app = await startApp(port, dataDir, {
    OPENAI_BASE_URL: '',
    OPENAI_API_KEY: '',
    OPENAI_MODEL: '',
    MODEL_SCAN_PORTS: `vllm:${found.port}`,
    MODEL_SCAN_TIMEOUT_MS: '2000',
  });
});

test.afterAll(async () => {
  await kill(app);
  await lab.close();
  await found.close();
});

function picker(page: Page) {
  return page.getByRole('button', { name: 'Model', exact: true });
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
});

test('a server on a scanned port is found, and used in one click', async ({ page }) => {
  await openChat(page, appUrl);
  await picker(page).click();
  await page.getByRole('button', { name: 'Manage models…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Models' });
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
