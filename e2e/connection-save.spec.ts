// A base URL that is not an OpenAI-compatible server (issue #34, 3): Test says so in plain words with the path it
// asked (GET /models, never //models), Save is refused with what was typed kept in the form, and only an explicit
// "Save anyway" saves it. The same for a base URL where nothing answers, at phone width and from the keyboard.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { createModelServer } from '../scripts/model-server/server';
import { lastAnswer, openChat, send } from './support/chat';
import { openAddConnection } from './support/models';

let other: http.Server;
let root: string;
/** A port of this machine with nothing listening on it. */
let closedPort: number;

test.beforeAll(async () => {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise((r) => probe.close(r));
  // A web server that is not a model server: every path is an HTML 404.
  other = http.createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Nope</h1>'));
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  root = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  other.closeAllConnections();
  await new Promise((r) => other.close(r));
});

test('a server that is not OpenAI-compatible: Test says so, Save is refused and keeps the form, "Save anyway" saves', async ({
  page,
}) => {
  await openChat(page);
  const { dialog, form } = await openAddConnection(page);
  const name = `Not a model server ${Date.now()}`;
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Base URL (ending in /v1)').fill(`${root}/`);

  await form.getByRole('button', { name: 'Test connection' }).click();
  const alert = form.getByRole('alert');
  await expect(alert).toContainText('Not an OpenAI-compatible server.');
  await expect(alert).toContainText('GET /models answered HTTP 404');
  await expect(alert).toContainText(`try ${root}/v1`);
  await expect(alert).not.toContainText('//models');
  await expect(alert).not.toContainText('Nope');

  await form.getByRole('button', { name: 'Save' }).click();
  await expect(alert).toContainText('is not an OpenAI-compatible server');
  // Nothing saved, nothing typed lost.
  await expect(form.getByLabel('Name')).toHaveValue(name);
  await expect(form.getByLabel('Base URL (ending in /v1)')).toHaveValue(`${root}/`);
  await expect(dialog.getByRole('listitem', { name })).toHaveCount(0);

  await form.getByRole('checkbox', { name: 'Save anyway, although it is not an OpenAI-compatible server' }).check();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByRole('listitem', { name })).toContainText(root);
});

test('nothing answers at the base URL: Save says so and keeps the form; "Save anyway" from the keyboard saves it', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openChat(page);
  const { dialog, form } = await openAddConnection(page);
  const name = `Down for now ${Date.now()}`;
  const baseURL = `http://127.0.0.1:${closedPort}/v1`;
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Base URL (ending in /v1)').fill(baseURL);
  await form.getByLabel('Base URL (ending in /v1)').press('Enter');

  const alert = form.getByRole('alert');
  await expect(alert).toContainText(`Nothing answers at 127.0.0.1:${closedPort} (connection refused).`);
  await expect(alert).toContainText('If the server is only down for now, save it anyway.');
  await expect(form.getByLabel('Name')).toHaveValue(name);
  await expect(dialog.getByRole('listitem', { name })).toHaveCount(0);
  const box = (await alert.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);

  const anyway = form.getByRole('checkbox', { name: 'Save anyway, although the server did not answer' });
  await anyway.focus();
  await page.keyboard.press('Space');
  await expect(anyway).toBeChecked();
  await form.getByRole('button', { name: 'Save' }).press('Enter');
  await expect(dialog.getByRole('listitem', { name })).toContainText(baseURL);
});

test('a connection whose server stopped: the turn names it, with its address for its owner, and says what to check', async ({
  page,
}) => {
  const lab = await createModelServer({ model: 'heron-lab-chat' });
  await openChat(page);
  const { dialog, form } = await openAddConnection(page);
  const name = `Heron lab ${Date.now()}`;
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Base URL (ending in /v1)').fill(lab.url);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByRole('listitem', { name })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  const picker = page.getByRole('combobox', { name: 'Model', exact: true });
  await picker.click();
  await page.getByRole('searchbox', { name: 'Search models' }).fill('heron-lab');
  await page.getByRole('option', { name: 'heron-lab-chat' }).click();
  await expect(picker).toContainText('heron-lab-chat');

  await lab.close();
  await send(page, 'Are you still there, heron lab?');
  const alert = (await lastAnswer(page)).getByRole('alert');
  // The one user of an app without accounts is its admin: the address is theirs to see.
  await expect(alert).toContainText(`Cannot reach the model server of “${name}” at ${lab.url}.`);
  await expect(alert).toContainText('Is the server running, and is that address right (Settings → Models)?');
  await expect(alert).toContainText('The error: Connection error.');
  await alert.getByRole('button', { name: 'Open Models settings' }).click();
  await expect(dialog.getByRole('listitem', { name })).toBeVisible();
});
