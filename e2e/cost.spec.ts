// Cost and context per step through the page: a connection is added with a price per million input and output
// tokens (Settings → Models → Prices and context), its model answers a turn (the scripted server reports 950 input
// and 50 output tokens, and lists the model with a context of 1,000 tokens), and the run inspector shows the call's
// cost, the run's cost with the prices it ran at, and the context gauge past 90 %: red, and saying so in words.
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createModelServer, type ModelServer } from '../scripts/model-server/server';
import { freePort, kill, startApp } from './support/app-process';
import { composer, lastAnswer, openChat, send } from './support/chat';

let app: ChildProcess;
let appUrl: string;
let lab: ModelServer;

test.beforeAll(async () => {
  test.setTimeout(60_000);
  lab = await createModelServer({
    model: 'metered-chat',
    contextLength: 1000,
    scenario: { fallback: { content: 'Metered answer.', usage: { prompt_tokens: 950, completion_tokens: 50 } } },
  });
  const port = await freePort();
  appUrl = `http://127.0.0.1:${port}`;
  const dataDir = path.join(__dirname, '..', 'test-results', `e2e-cost-${Date.now()}`);
  app = await startApp(port, dataDir, { OPENAI_BASE_URL: '', OPENAI_API_KEY: '', OPENAI_MODEL: '' });
});

test.afterAll(async () => {
  await kill(app);
  await lab.close();
});

test('a price set on the connection: the inspector shows the cost and the context gauge', async ({ page }) => {
  await openChat(page, appUrl);
  await page.getByRole('button', { name: 'Connect a server' }).click();
  const dialog = page.getByRole('dialog', { name: 'Models' });
  const form = dialog.getByRole('form', { name: 'Add a connection' });
  await form.getByLabel('Name').fill('Metered');
  await form.getByLabel('Base URL (ending in /v1)').fill(lab.url);
  const all = form.getByRole('group', { name: 'All models' });
  // One price without the other is refused, with a sentence; nothing is saved.
  await all.getByLabel('Input price / M tokens').fill('2');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByRole('alert')).toHaveText('All models: give both prices (input and output), or neither.');
  await all.getByLabel('Output price / M tokens').fill('10');
  await form.getByRole('button', { name: 'Save' }).click();
  const row = dialog.getByRole('listitem', { name: 'Metered' });
  await expect(row).toContainText('All models: 2 in / 10 out per M tokens');
  await dialog.getByRole('button', { name: 'Close' }).first().click();

  await expect(composer(page)).toBeEnabled();
  await send(page, 'how much was this');
  await expect(await lastAnswer(page)).toContainText('Metered answer.');
  await (await lastAnswer(page)).getByRole('button', { name: 'Inspect run' }).click();
  const inspector = page.getByRole('dialog', { name: 'Run inspector' });
  // (950 × 2 + 50 × 10) / 1,000,000
  await expect(inspector).toContainText('0.0024 (at 2 in / 10 out per million tokens)');
  const panel = inspector.getByRole('tabpanel');
  await expect(panel).toContainText('Cost 0.0024');
  const gauge = panel.getByRole('meter', { name: 'Context used' });
  await expect(gauge).toHaveAttribute('aria-valuenow', '950');
  await expect(gauge).toHaveAttribute('aria-valuemax', '1000');
  await expect(gauge).toHaveAttribute('aria-valuetext', 'Context 950 of 1,000 tokens (95 %) — near the limit');
  await expect(gauge).toHaveAttribute('data-high', 'true');
  await expect(panel).toContainText('Context 950 of 1,000 tokens (95 %) — near the limit');
});
