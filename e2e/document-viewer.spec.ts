// A cited Word document opened from Sources on a phone, by keyboard alone: its heading and its table read as a
// heading and a table (as answers' Markdown is shown), not as `# Memo` and pipe rows; the cited paragraph marked;
// HTML written in the document shown as text and never run. The same viewer in Chinese.
import { expect, test } from '@playwright/test';
import { makeDocx } from '../test/support/document-fixtures';
import { seriousViolations } from './support/axe';
import { lastAnswer, openChat, send } from './support/chat';
import { setScenario } from './support/model';
import { outsideScreen } from './support/viewport';

const PASSAGE = 'Parental leave: new parents receive sixteen weeks of paid leave.';
const HOSTILE = 'Footnote <img src=x onerror="window.__pwned=1"> ends here.';
const QUESTION = 'How long is parental leave in memo.docx?';
const PHONE = { width: 390, height: 844 };

test.use({ viewport: PHONE });

const memo = () =>
  makeDocx([
    { heading: 'Memo' },
    { text: PASSAGE },
    {
      table: [
        ['Item', 'Cost'],
        ['Desk', '120'],
      ],
    },
    { text: HOSTILE },
  ]);

test('Sources → Open shows a Word memo’s heading and table as such, the cited paragraph marked, HTML as text', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await setScenario({
    rules: [
      { when: { anyIncludes: PASSAGE }, reply: { content: 'Sixteen weeks (memo.docx).' } },
      {
        when: { lastUserIncludes: QUESTION },
        reply: [
          {
            toolCalls: [
              { name: 'retrieval', arguments: JSON.stringify({ query: 'parental leave', files: ['memo.docx'] }) },
            ],
          },
          { content: 'No document reached me.' },
        ],
      },
    ],
  });
  await openChat(page);
  await page.getByLabel('Upload files').setInputFiles([
    {
      name: 'memo.docx',
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      buffer: memo(),
    },
  ]);
  await expect(
    page.getByRole('list', { name: 'Documents' }).getByRole('listitem').filter({ hasText: 'memo.docx' }),
  ).toContainText('ready');
  await send(page, QUESTION);
  const answer = await lastAnswer(page);
  await expect(answer).toContainText('Sixteen weeks (memo.docx).');

  // By keyboard: focus Open, Enter.
  const open = answer.getByRole('region', { name: 'Sources' }).getByRole('button', { name: /^Open memo\.docx/ });
  await open.focus();
  await page.keyboard.press('Enter');
  const viewer = page.getByRole('dialog', { name: /^memo\.docx, page 1 of 1$/ });
  await expect(viewer.getByRole('heading', { name: 'Memo', exact: true, level: 2 })).toBeVisible();
  const table = viewer.getByRole('table');
  await expect(table.getByRole('columnheader', { name: 'Cost' })).toBeVisible();
  await expect(table.getByRole('cell', { name: 'Desk' })).toBeVisible();
  await expect(viewer).not.toContainText('# Memo');
  await expect(viewer).not.toContainText('| Item');
  await expect(viewer.locator('mark').filter({ hasText: PASSAGE })).toHaveCount(1);
  await expect(viewer).toContainText('<img src=x onerror="window.__pwned=1">');
  await expect(viewer.locator('img')).toHaveCount(0);
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await outsideScreen(page, PHONE, viewer)).toEqual([]);
  const violations = await seriousViolations(page);
  expect(violations, violations.join('\n')).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(viewer).toHaveCount(0);
  await expect(open).toBeFocused();

  // In Chinese: the same document, its heading and table, under the viewer's Chinese title.
  await page.getByRole('combobox', { name: 'Language', exact: true }).selectOption('zh-CN');
  const zhOpen = (await lastAnswer(page))
    .getByRole('region', { name: '来源' })
    .getByRole('button', { name: '在第 1 页打开 memo.docx' });
  await zhOpen.focus();
  await page.keyboard.press('Enter');
  const zhViewer = page.getByRole('dialog', { name: 'memo.docx，第 1 页（共 1 页）' });
  await expect(zhViewer.getByRole('heading', { name: 'Memo', exact: true, level: 2 })).toBeVisible();
  await expect(zhViewer.getByRole('table').getByRole('cell', { name: 'Desk' })).toBeVisible();
  await expect(zhViewer.locator('mark').filter({ hasText: PASSAGE })).toHaveAttribute('title', '回答中引用了这里');
  await zhViewer.getByRole('button', { name: '关闭' }).click();
  await expect(zhViewer).toHaveCount(0);
});

test('Open while the server cannot be reached says so in the viewer, and opens the page once it can', async ({
  page,
}) => {
  const passage = 'The night ferry leaves at eleven.';
  const question = 'When does the night ferry leave in ferry.md?';
  await setScenario({
    rules: [
      { when: { anyIncludes: passage }, reply: { content: 'At eleven (ferry.md).' } },
      {
        when: { lastUserIncludes: question },
        reply: [
          { toolCalls: [{ name: 'retrieval', arguments: JSON.stringify({ query: 'ferry', files: ['ferry.md'] }) }] },
          { content: 'No document reached me.' },
        ],
      },
    ],
  });
  await openChat(page);
  await page
    .getByLabel('Upload files')
    .setInputFiles([{ name: 'ferry.md', mimeType: 'text/markdown', buffer: Buffer.from(`# Ferry\n\n${passage}\n`) }]);
  await expect(
    page.getByRole('list', { name: 'Documents' }).getByRole('listitem').filter({ hasText: 'ferry.md' }),
  ).toContainText('ready');
  await send(page, question);
  const answer = await lastAnswer(page);
  await expect(answer).toContainText('At eleven (ferry.md).');
  const open = answer.getByRole('region', { name: 'Sources' }).getByRole('button', { name: /^Open ferry\.md/ });

  // The page's server action requests fail as a refused connection does.
  await page.route('**/*', (route) =>
    route.request().headers()['next-action'] ? route.abort('connectionrefused') : route.continue(),
  );
  await open.click();
  const viewer = page.getByRole('dialog', { name: /^ferry\.md/ });
  await expect(viewer.getByRole('alert')).toHaveText(
    'The document cannot be opened: Could not reach the server (Failed to fetch). Nothing was done: try again once it is back.',
  );
  expect(await outsideScreen(page, PHONE, viewer.getByRole('alert'))).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(viewer).toHaveCount(0);

  await page.unrouteAll();
  await open.click();
  await expect(viewer.locator('mark').filter({ hasText: passage })).toHaveCount(1);
});
