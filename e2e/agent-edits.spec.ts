// Nothing of an agent is lost without a word: Escape (or Cancel) in the editor with unsaved text asks before it
// throws the text away, and importing an agent whose name is taken asks: replace it, keep both, or cancel.
import { expect, test, type Page } from '@playwright/test';
import { openChat } from './support/chat';

async function answerNextConfirm(page: Page, accept: boolean): Promise<Promise<string>> {
  return new Promise((resolve) => {
    page.once('dialog', (d) => {
      resolve(d.message());
      void (accept ? d.accept() : d.dismiss());
    });
  });
}

test('Escape or Cancel in the agent editor with unsaved text asks before discarding it', async ({ page }) => {
  await openChat(page);
  await page.getByRole('button', { name: 'New agent' }).click();
  const editor = page.getByRole('dialog', { name: 'Agent' });
  const system = editor.getByRole('textbox', { name: 'System message' });
  await system.fill('You answer only in heron haiku.');

  // Escape, then "no": the editor stays, with the text.
  let asked = answerNextConfirm(page, false);
  await system.press('Escape');
  expect(await asked).toContain('Discard');
  await expect(editor).toBeVisible();
  await expect(system).toHaveValue('You answer only in heron haiku.');
  // Twice in a row asks twice (the browser does not close the dialog on a second Escape).
  asked = answerNextConfirm(page, false);
  await system.press('Escape');
  await asked;
  await expect(system).toHaveValue('You answer only in heron haiku.');

  // Cancel asks too; "yes" closes it.
  asked = answerNextConfirm(page, true);
  await editor.getByRole('button', { name: 'Cancel' }).click();
  await asked;
  await expect(editor).toBeHidden();

  // Nothing typed: Escape closes at once, without asking.
  let questions = 0;
  const count = () => void questions++;
  page.on('dialog', count);
  await page.getByRole('button', { name: 'New agent' }).click();
  await expect(editor.getByRole('textbox', { name: 'Name' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(editor).toBeHidden();
  expect(questions).toBe(0);
  page.off('dialog', count);
});

function exportFile(description: string) {
  const agent = {
    name: 'Import heron',
    description,
    avatar: '🪶',
    kind: 'fncall',
    systemMessage: '',
    tools: [],
    generateCfg: {},
    suggestions: [],
    members: [],
  };
  return {
    name: 'agent-import-heron.json',
    mimeType: 'application/json',
    buffer: Buffer.from(
      JSON.stringify({ schema: 'agent-studio.agent/1', exportedAt: new Date().toISOString(), agent }),
    ),
  };
}

test('importing an agent whose name exists asks: cancel, keep both, or replace', async ({ page }) => {
  await openChat(page);
  const input = page.getByLabel('Import agent', { exact: true });
  const chatWith = (name: string) => page.getByRole('button', { name: `Chat with ${name}`, exact: true });
  await input.setInputFiles(exportFile('the first'));
  await expect(chatWith('Import heron')).toHaveCount(1);
  await expect(page.getByRole('status').filter({ hasText: 'Import heron' })).toHaveText(
    'Imported “Import heron” from agent-import-heron.json.',
  );

  // The same name again: asked, and Cancel leaves one.
  await input.setInputFiles(exportFile('the second'));
  const ask = page.getByRole('dialog', { name: 'An agent named “Import heron” exists' });
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toBeHidden();
  await expect(page.getByRole('button', { name: /^Chat with Import heron/ })).toHaveCount(1);

  // Keep both: the import gets a name of its own.
  await input.setInputFiles(exportFile('the second'));
  await ask.getByRole('button', { name: 'Keep both' }).click();
  await expect(chatWith('Import heron (2)')).toHaveCount(1);
  await expect(chatWith('Import heron')).toHaveCount(1);

  // Replace: still two, and the first now has the file's definition, once the page says so.
  await input.setInputFiles(exportFile('the third'));
  await ask.getByRole('button', { name: 'Replace' }).click();
  await expect(ask).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Import heron' })).toHaveText(
    '“Import heron” now has the definition imported from agent-import-heron.json.',
  );
  await expect(page.getByRole('button', { name: /^Chat with Import heron/ })).toHaveCount(2);
  await page.getByRole('button', { name: 'Edit Import heron', exact: true }).click();
  const editor = page.getByRole('dialog', { name: 'Agent' });
  await expect(editor.getByRole('textbox', { name: 'Description' })).toHaveValue('the third');
  await page.keyboard.press('Escape');
  await expect(editor).toBeHidden();

  page.on('dialog', (d) => void d.accept());
  for (const name of ['Import heron (2)', 'Import heron']) {
    await page.getByRole('button', { name: `Delete ${name}`, exact: true }).click();
    await expect(chatWith(name)).toBeHidden();
  }
});
