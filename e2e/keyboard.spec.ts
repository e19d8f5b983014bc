// The whole first day from the keyboard alone, on an app started with nothing configured: connect a server, chat,
// pick another model in the picker (typing, arrows, Enter), make an agent and talk to it, open Runs and a run's
// inspector. After every key the focus is on something visible (never the page itself, never hidden).
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { createModelServer, type ModelServer } from '../scripts/model-server/server';
import { freePort, kill, startApp } from './support/app-process';
import { composer, lastAnswer } from './support/chat';
import { expectFocusVisible, isFocused, tabTo } from './support/focus';

let app: ChildProcess;
let appUrl: string;
let lab: ModelServer;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  lab = await createModelServer({ model: 'alpha-chat', moreModels: ['beta-chat', 'gamma-code'] });
  const port = await freePort();
  appUrl = `http://127.0.0.1:${port}`;
  app = await startApp(port, path.join(__dirname, '..', 'test-results', `e2e-keyboard-${Date.now()}`), {
    OPENAI_BASE_URL: '',
    OPENAI_API_KEY: '',
    OPENAI_MODEL: '',
    MODEL_SCAN_PORTS: 'off',
  });
});

test.afterAll(async () => {
  await kill(app);
  await lab.close();
});

/** Presses a key, then checks that the focus rests on something visible. */
async function press(page: Page, key: string): Promise<void> {
  await page.keyboard.press(key);
  await expectFocusVisible(page);
}

async function type(page: Page, text: string): Promise<void> {
  await page.keyboard.type(text);
  await expectFocusVisible(page);
}

test('keyboard only: first run, a connection, a chat, the model picker, an agent, Runs and the inspector', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto(appUrl);
  await expect(page.getByRole('button', { name: /^Switch to (dark|light) theme$/ })).toBeVisible();

  await test.step('first run: connect a server from the notice', async () => {
    await tabTo(page, page.getByRole('button', { name: 'Connect a server' }));
    await press(page, 'Enter');
    const dialog = page.getByRole('dialog', { name: 'Models' });
    const form = dialog.getByRole('form', { name: 'Add a connection' });
    // The dialog starts on its first field.
    await expect(form.getByLabel('Name')).toBeFocused();
    await type(page, 'Lab');
    await press(page, 'Tab');
    await expect(form.getByLabel('Base URL (ending in /v1)')).toBeFocused();
    await type(page, lab.url);
    await press(page, 'Enter');
    // Saved: the focus goes to the new connection (not to the page).
    const row = dialog.getByRole('listitem', { name: 'Lab' });
    await expect(row).toBeVisible();
    await expect(row.getByRole('button', { name: 'Edit' })).toBeFocused();
    // Editing it starts on its first field; saving comes back to its Edit button.
    await press(page, 'Enter');
    const edit = dialog.getByRole('form', { name: 'Edit Lab' });
    await expect(edit.getByLabel('Name')).toBeFocused();
    await press(page, 'Enter');
    await expect(edit).toBeHidden();
    await expect(row.getByRole('button', { name: 'Edit' })).toBeFocused();
    // Closing the dialog: the button that opened it is gone (a model is connected now), so the composer gets it.
    await press(page, 'Escape');
    await expect(dialog).toBeHidden();
    await expect(composer(page)).toBeFocused();
  });

  await test.step('chat', async () => {
    await type(page, 'Hello from the keyboard');
    await press(page, 'Enter');
    await expect(await lastAnswer(page)).toContainText('Hello from the keyboard');
    await expect(composer(page)).toBeFocused();
  });

  const picker = page.getByRole('combobox', { name: 'Model', exact: true });
  await test.step('the model picker: type, arrows, Enter; one Tab stop for the list; Escape and Tab close it', async () => {
    await expect(picker).toContainText('alpha-chat');
    await tabTo(page, picker, { back: true });
    await press(page, 'Enter');
    const search = page.getByRole('searchbox', { name: 'Search models' });
    const list = page.getByRole('listbox', { name: 'Models' });
    await expect(search).toBeFocused();
    await type(page, 'chat');
    await expect(list.getByRole('option')).toHaveCount(2);
    const active = async () => {
      const id = await search.getAttribute('aria-activedescendant');
      return id ? page.locator(`[id="${id}"]`).textContent() : null;
    };
    await expect.poll(active).toContain('alpha-chat');
    await press(page, 'ArrowDown');
    await expect.poll(active).toContain('beta-chat');
    await press(page, 'ArrowUp');
    await expect.poll(active).toContain('alpha-chat');
    await press(page, 'ArrowDown');
    await expect.poll(active).toContain('beta-chat');
    await press(page, 'Enter');
    await expect(list).toBeHidden();
    await expect(picker).toBeFocused();
    await expect(picker).toContainText('beta-chat');

    // Escape closes it and gives the focus back to the picker.
    await press(page, 'Enter');
    await expect(search).toBeFocused();
    await press(page, 'Escape');
    await expect(list).toBeHidden();
    await expect(picker).toBeFocused();

    // The list is one Tab stop: from the search box Tab goes to "Manage models…", then out (which closes it).
    await press(page, 'Enter');
    await press(page, 'Tab');
    await expect(page.getByRole('button', { name: 'Manage models…' })).toBeFocused();
    await press(page, 'Tab');
    await expect(list).toBeHidden();
  });

  await test.step('an agent: made in the editor, then a conversation with it', async () => {
    await tabTo(page, page.getByRole('button', { name: 'New agent' }), { back: true });
    await press(page, 'Enter');
    const editor = page.getByRole('dialog', { name: 'Agent' });
    await expect(editor.getByRole('textbox', { name: 'Name' })).toBeFocused();
    await type(page, 'Keyboard heron');
    await press(page, 'Enter');
    await expect(editor).toBeHidden();
    const chatWith = page.getByRole('button', { name: 'Chat with Keyboard heron' });
    // Listed once the list is read again (before, on a loaded machine, Tab could walk past a list still empty).
    await expect(chatWith).toBeVisible();
    // The Agents list is one Tab stop: Tab reaches it, the arrows walk it to the heron.
    await tabTo(page, page.getByRole('region', { name: 'Agents' }).locator('li button[tabindex="0"]'));
    await press(page, 'Home');
    for (let i = 0; i < 30 && !(await isFocused(chatWith)); i++) await press(page, 'ArrowDown');
    await press(page, 'Enter');
    await expect(page.getByText('A new conversation with Keyboard heron')).toBeVisible();
    await expect(composer(page)).toBeFocused();
    await type(page, 'Hello, heron');
    await press(page, 'Enter');
    await expect(await lastAnswer(page)).toContainText('Hello, heron');
  });

  await test.step('Runs, and a run in the inspector', async () => {
    await tabTo(page, page.getByRole('link', { name: 'Runs', exact: true }), { back: true, max: 60 });
    await press(page, 'Enter');
    await expect(page.getByRole('heading', { name: 'Runs', level: 1 })).toBeVisible();
    const inspect = page.getByRole('button', { name: /^Inspect the run of/ }).first();
    await tabTo(page, inspect);
    await press(page, 'Enter');
    const inspector = page.getByRole('dialog', { name: 'Run inspector' });
    await expect(inspector.getByRole('tab', { name: 'Iteration 1', exact: true })).toBeVisible();
    expect(await inspector.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    await press(page, 'Tab');
    expect(await inspector.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    await press(page, 'Escape');
    await expect(inspector).toBeHidden();
    await expect(inspect).toBeFocused();
  });
});
