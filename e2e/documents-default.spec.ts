// Documents just work: a new user uploads report.pdf into a new conversation with the default settings (the
// FnCallAgent, calculator and current_time ticked) and asks about it without opening Settings. The scripted model
// calls retrieval; it answers from the document only if the passage came back, and the answer cites file and page.
// Settings says why the document tools are on, in English and in Chinese.
import { expect, test, type Page } from '@playwright/test';
import { makeImage } from '../test/support/images';
import { makePdf, textPage } from '../test/support/pdf-writer';
import { lastAnswer, openChat, send } from './support/chat';
import { chatRequests, setScenario } from './support/model';

const REVENUE = 'Q3 revenue rose to 4.2 million euros, up 12 percent on the second quarter.';
const QUESTION = 'I uploaded report.pdf. What does it say about Q3 revenue?';

const report = () =>
  makePdf([
    textPage('Annual report 2026', ['The company had a steady year with new customers in three regions.']),
    textPage('Quarterly results', [REVENUE, 'Costs stayed flat.']),
  ]);

async function uploadReport(page: Page): Promise<void> {
  await page
    .getByLabel('Upload files')
    .setInputFiles([{ name: 'report.pdf', mimeType: 'application/pdf', buffer: report() }]);
  await expect(
    page.getByRole('list', { name: 'Documents' }).getByRole('listitem').filter({ hasText: 'report.pdf' }),
  ).toContainText('ready, 2 pages', { timeout: 20_000 }); // the first PDF loads pdf.js in the parse worker
}

test('default settings: upload report.pdf, ask about it, and the answer comes from the document with a citation', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await setScenario({
    rules: [
      // Answers from the document only once the retrieval result carrying the passage is in the conversation.
      {
        when: { anyIncludes: REVENUE },
        reply: { content: 'Q3 revenue rose to 4.2 million euros (report.pdf).' },
      },
      {
        when: { lastUserIncludes: QUESTION },
        reply: [
          {
            toolCalls: [
              { name: 'retrieval', arguments: JSON.stringify({ query: 'Q3 revenue', files: ['report.pdf'] }) },
            ],
          },
          { content: 'No document reached me.' },
        ],
      },
    ],
  });
  await openChat(page);
  await uploadReport(page);
  await send(page, QUESTION);

  const answer = await lastAnswer(page);
  await expect(answer).toContainText('Q3 revenue rose to 4.2 million euros (report.pdf).');
  // The retrieval tool's search shows on its tool card: one card, not a second "Retrieval" one.
  await expect(answer.getByRole('button', { name: /^retrieval / })).toContainText('Q3 revenue');
  await expect(answer.getByRole('button', { name: /retrieval/i })).toHaveCount(1);
  const citation = answer
    .getByRole('region', { name: 'Sources' })
    .getByRole('button', { name: /^report\.pdf, page \d+/ });
  // The report fits one chunk (pages 1 and 2): one citation, the page whose passage holds the revenue line.
  await expect(citation).toHaveCount(1);
  await citation.click();
  await expect(page.locator(`[id="${await citation.getAttribute('aria-controls')}"]`)).toContainText(REVENUE);

  const [first] = await chatRequests();
  const offered = (first!.body.tools as { function: { name: string } }[]).map((t) => t.function.name);
  expect(offered).toEqual(['calculator', 'current_time', 'retrieval', 'doc_parser']);
  expect(JSON.stringify(first!.body.messages.at(-1))).toContain('[file](report.pdf)'); // told which documents exist

  // Settings shows why, without the user having changed anything there.
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const settings = page.getByRole('region', { name: 'Settings' });
  // How the agent runs (its kind, the call format, the prompts' language, raw streams) waits under Advanced.
  await expect(settings.getByRole('combobox', { name: 'Agent' })).toBeHidden();
  await expect(settings.getByRole('checkbox', { name: /Record the raw stream/ })).toBeHidden();
  await settings.getByText('Advanced', { exact: true }).click();
  await expect(settings.getByRole('combobox', { name: 'Agent' })).toHaveValue('fncall');
  await expect(settings.getByRole('checkbox', { name: /Record the raw stream/ })).toBeVisible();
  await expect(settings.getByRole('status').filter({ hasText: 'Document tools:' })).toHaveText(
    'Document tools: on because this conversation has documents',
  );
  await expect(settings.getByRole('checkbox', { name: /^Offer the document tools/ })).toBeChecked();
});

test('everything in the prompt: Sources name the page the answer cites and only the documents it drew on', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const chapters = [1, 2, 3, 4, 5, 6].map((i) =>
    textPage(`Chapter ${i}`, [
      `This is chapter ${i} of the annual report. Revenue in region ${i} grew by ${i * 3} percent.`,
      `The project codename for chapter ${i} is falcon-${i}. The lighthouse keeper counted ${i * 111} ships.`,
    ]),
  );
  await setScenario({
    rules: [
      {
        when: { lastUserIncludes: 'falcon', anyIncludes: 'lighthouse keeper' },
        reply: {
          content:
            'The codename for chapter 3 is **falcon-3** (report.pdf, page 3). The office moves to Building 7 (memo.md).',
        },
      },
      {
        when: { lastUserIncludes: 'falcon' },
        reply: {
          toolCalls: [{ name: 'retrieval', arguments: JSON.stringify({ query: 'codename chapter 3', files: [] }) }],
        },
      },
    ],
  });
  await openChat(page);
  await page.getByLabel('Upload files').setInputFiles([
    { name: 'report.pdf', mimeType: 'application/pdf', buffer: makePdf(chapters) },
    { name: 'memo.md', mimeType: 'text/markdown', buffer: Buffer.from('# Memo\n\nThe office moves to Building 7.') },
    { name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from('# Notes\n\nThe mascot is a purple otter.') },
    { name: 'chart.png', mimeType: 'image/png', buffer: await makeImage('png', 64, 48) },
  ]);
  const documents = page.getByRole('list', { name: 'Documents' });
  await expect(documents.getByRole('listitem').filter({ hasText: 'report.pdf' })).toContainText('ready, 6 pages', {
    timeout: 20_000,
  });
  await expect(documents.getByRole('listitem').filter({ hasText: 'chart.png' })).toContainText('image, ready');
  await send(page, 'What is the codename of chapter 3 (falcon)? Where does the office move?');

  const answer = await lastAnswer(page);
  await expect(answer).toContainText('The office moves to Building 7 (memo.md).');
  const sources = answer.getByRole('region', { name: 'Sources' });
  await expect(sources.getByRole('button', { name: /, page/ })).toHaveText(['report.pdf, page 3', 'memo.md, page 1']);
  await sources.getByRole('button', { name: 'Open report.pdf at page 3' }).click();
  const viewer = page.getByRole('dialog', { name: 'report.pdf, page 3 of 6' });
  await expect(viewer.locator('mark').filter({ hasText: 'falcon-3' })).toHaveCount(1);
  await viewer.getByRole('button', { name: 'Close' }).click();

  // The card shows the whole report went in as one passage over its six pages; the image is no document.
  await answer.getByRole('button', { name: /^retrieval / }).click();
  await expect(answer).toContainText('report.pdf, pages 1–6');
  await expect(answer).not.toContainText('cannot be read');
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('Settings says in Chinese that the document tools are on because of the documents', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('button', { name: /^切换到(深色|浅色)主题$/ })).toBeVisible();
    await page.getByRole('button', { name: '设置', exact: true }).click();
    const settings = page.getByRole('region', { name: '设置' });
    const status = settings.getByRole('status').filter({ hasText: '文档工具' });
    await expect(status).toHaveText('文档工具：未开启，本对话有文档后自动开启');
    await page
      .getByLabel('上传文件')
      .setInputFiles([{ name: 'report.pdf', mimeType: 'application/pdf', buffer: report() }]);
    await expect(status).toHaveText('文档工具：已开启，因为本对话有文档');
  });
});
