// Nothing of an agent is lost without a word: Escape (or Cancel) in the editor with unsaved text asks before it
// throws the text away, and importing an agent whose name is taken asks: replace it, keep both, or cancel.
import { expect, test } from '@playwright/test';
import { openChat } from './support/chat';

test('Escape or Cancel in the agent editor with unsaved text asks, in the page, before discarding it', async ({
  page,
}) => {
  // The question is the page's own dialog, never the browser's confirm() (its buttons in the browser's language).
  const native: string[] = [];
  page.on('dialog', (d) => {
    native.push(d.message());
    void d.dismiss();
  });
  await openChat(page);
  await page.getByRole('button', { name: 'New agent' }).click();
  const editor = page.getByRole('dialog', { name: 'Agent' });
  const system = editor.getByRole('textbox', { name: 'System message' });
  await system.fill('You answer only in heron haiku.');

  // Escape asks; the focus starts on Keep editing and stays in the question (Tab goes round its two buttons).
  const ask = page.getByRole('dialog', { name: 'Discard the changes to this agent?' });
  const keep = ask.getByRole('button', { name: 'Keep editing', exact: true });
  const discard = ask.getByRole('button', { name: 'Discard', exact: true });
  await system.press('Escape');
  await expect(ask).toHaveAccessibleDescription('What you typed is lost.');
  await expect(keep).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(discard).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(keep).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(discard).toBeFocused();
  // Escape in the question keeps editing: the editor stays, with the text, and the focus back in it.
  await page.keyboard.press('Escape');
  await expect(ask).toBeHidden();
  await expect(editor).toBeVisible();
  await expect(system).toHaveValue('You answer only in heron haiku.');
  await expect(system).toBeFocused();
  // Twice in a row asks twice (the browser does not close the dialog on a second Escape); Keep editing keeps it too.
  await system.press('Escape');
  await keep.click();
  await expect(ask).toBeHidden();
  await expect(system).toHaveValue('You answer only in heron haiku.');

  // Cancel asks too; Discard closes both, and the focus goes back to New agent.
  const cancel = editor.getByRole('button', { name: 'Cancel' });
  await cancel.click();
  await expect(keep).toBeFocused();
  await discard.click();
  await expect(ask).toBeHidden();
  await expect(editor).toBeHidden();
  await expect(page.getByRole('button', { name: 'New agent' })).toBeFocused();

  // Nothing typed: Escape closes at once, without asking.
  await page.getByRole('button', { name: 'New agent' }).click();
  await expect(editor.getByRole('textbox', { name: 'Name' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(editor).toBeHidden();
  await expect(ask).toHaveCount(0);
  expect(native).toEqual([]);
});

test('the discard question speaks the page’s language', async ({ browser }) => {
  const zh = await browser.newContext({ locale: 'zh-CN' });
  try {
    const page = await zh.newPage();
    await page.goto('/');
    await expect(page.getByRole('button', { name: /^切换到(深色|浅色)主题$/ })).toBeVisible(); // hydrated
    await page.getByRole('button', { name: '新建智能体' }).click();
    const editor = page.getByRole('dialog', { name: '智能体' });
    await editor.getByRole('textbox', { name: '名称' }).fill('苍鹭');
    await editor.getByRole('button', { name: '取消', exact: true }).click();
    const ask = page.getByRole('dialog', { name: '放弃对这个智能体的修改吗？' });
    await expect(ask).toHaveAccessibleDescription('输入的内容将会丢失。');
    await expect(ask.getByRole('button')).toHaveText(['继续编辑', '放弃修改']);
    await ask.getByRole('button', { name: '放弃修改' }).click();
    await expect(editor).toBeHidden();
  } finally {
    await zh.close();
  }
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

  for (const name of ['Import heron (2)', 'Import heron']) {
    await page.getByRole('button', { name: `Delete ${name}`, exact: true }).click();
    await page
      .getByRole('dialog', { name: /^Delete the agent/ })
      .getByRole('button', { name: 'Delete', exact: true })
      .click();
    await expect(chatWith(name)).toBeHidden();
  }
});
