// "Read the whole document" (ParallelDocQA) in the page: a conversation on an uploaded multi-page PDF shows the reading
// progress while the readers work ("chunk N of M"), then the answer citing the page, with one folded step per chunk
// group in the trace whose chunks add up to M (opened from the keyboard). A 300-page PDF: every chunk read once and
// listed once in the steps. On a 390 px phone in Chinese too, fitting the screen, with no serious axe violation.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { makePdf, textPage } from '../test/support/pdf-writer';
import { seriousViolations } from './support/axe';
import { assistantTurns, lastAnswer } from './support/chat';
import { chatRequests, setScenario, type Scenario } from './support/model';
import { outsideScreen, pageWidth } from './support/viewport';

const FACT = 'The vault code is 4417; change it every spring.';
const FACT_PAGE = 11;

/** Pages of about 400 tokens (18: several reader chunks of up to 1000 tokens), the fact on page 11. */
function manual(pages = 18): Buffer {
  const filler = [
    'This page describes routine building operations, cleaning rotas and the delivery schedule',
    'for the north wing. Visitors sign in at the front desk and collect a badge for the day.',
    'Heating, lighting and the lifts are serviced by contractors whose visits are logged.',
    'Meeting rooms are booked through the facilities office, at least one day in advance.',
  ];
  return makePdf(
    Array.from({ length: pages }, (_, i) =>
      textPage(`Chapter ${i + 1}`, [
        ...Array.from({ length: 5 }, () => filler).flat(),
        ...(i + 1 === FACT_PAGE ? [FACT] : []),
      ]),
    ),
  );
}

/** Readers are slow (the progress shows meanwhile); the one whose excerpt holds the fact answers; the keyword call
 *  answers with keywords; the summary cites the page. Requests are told apart by their prompts' fixed parts, which
 *  are the same in both languages (upstream's JSON format). */
function scenario(answer: string, readerMs = 1500): Scenario {
  return {
    rules: [
      {
        when: { anyIncludes: '"res": "none"', lastUserIncludes: 'vault code is 4417' },
        reply: { content: '{"res": "ans", "content": "The vault code is 4417."}', ttftMs: readerMs },
      },
      {
        when: { anyIncludes: '"res": "none"' },
        reply: { content: '{"res": "none", "content": "<None>"}', ttftMs: readerMs },
      },
      {
        when: { lastUserIncludes: 'Keywords:' },
        reply: { content: '{"keywords_zh": ["密码"], "keywords_en": ["vault", "code"]}' },
      },
    ],
    fallback: { content: answer },
  };
}

async function startReading(
  page: Page,
  t: { upload: string; documents: string; ready: RegExp; settings: string; advanced: string },
  pages = 18,
) {
  await page.goto('/');
  await page
    .getByLabel(t.upload)
    .setInputFiles([{ name: 'manual.pdf', mimeType: 'application/pdf', buffer: manual(pages) }]);
  await expect(
    page.getByRole('list', { name: t.documents, exact: true }).getByRole('listitem').filter({ hasText: 'manual.pdf' }),
  ).toContainText(t.ready, { timeout: 20_000 }); // the first PDF loads pdf.js in the parse worker
  await page.getByRole('button', { name: t.settings, exact: true }).click();
  // The agent's kind waits under Advanced.
  await page.getByText(t.advanced, { exact: true }).click();
}

/** The readers' requests the model server got: one per chunk. */
async function readerRequests(): Promise<number> {
  return (await chatRequests()).filter((r) => JSON.stringify(r.body.messages).includes('\\"res\\": \\"none\\"')).length;
}

/** The chunks each folded reader step read, from its name ("chunk 3", "chunks 1–2"). */
async function chunksOfSteps(steps: Locator, pattern: RegExp): Promise<number> {
  let n = 0;
  for (const name of await steps.evaluateAll((els) => els.map((e) => e.getAttribute('data-agent') ?? ''))) {
    const m = pattern.exec(name);
    if (!m) throw new Error(`a reader step named ${name}`);
    n += m[2] ? Number(m[2]) - Number(m[1]) + 1 : 1;
  }
  return n;
}

test('Read the whole document: the progress while reading, then the answer and a step per chunk group', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await setScenario(scenario('The vault code is 4417 [page: 11].'));
  await startReading(page, {
    upload: 'Upload files',
    documents: 'Documents',
    ready: /ready, 18 pages/,
    settings: 'Settings',
    advanced: 'Advanced',
  });
  await page.getByRole('combobox', { name: 'Agent' }).selectOption('paralleldocqa');
  await expect(page.getByRole('combobox', { name: 'Agent' })).toHaveValue('paralleldocqa');
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill('What is the vault code?');
  await page.getByRole('button', { name: 'Send', exact: true }).click();

  // While the readers work: a bar for the document, and how many of its chunks are read.
  const bar = page.getByRole('progressbar', { name: 'manual.pdf' });
  await expect(bar).toBeVisible();
  await expect(page.getByText('Reading manual.pdf')).toBeVisible();
  const count = page.getByText(/^chunk \d+ of \d+$/);
  await expect(count).toBeVisible();
  const [, done, total] = /^chunk (\d+) of (\d+)$/.exec((await count.textContent()) ?? '')!;
  const chunks = Number(total);
  expect(chunks).toBeGreaterThan(2);
  expect(Number(done)).toBeLessThan(chunks);
  await expect(bar).toHaveAttribute('max', String(chunks));
  // It moves on as readers finish.
  await expect(page.getByText(new RegExp(`^chunk ([1-9]\\d*) of ${chunks}$`))).toBeVisible();

  const answer = await lastAnswer(page);
  await expect(answer).toContainText('The vault code is 4417');
  await expect(bar).toBeHidden(); // read: the bar is gone
  expect(await readerRequests()).toBe(chunks);

  // One folded step per chunk group; together they read every chunk, each chunk named with its pages.
  const steps = answer.getByRole('region', { name: /^Reader \d+: manual\.pdf, chunks? .*: a step of the answer$/ });
  await expect.poll(() => steps.count()).toBeGreaterThan(1);
  expect(await chunksOfSteps(steps, /, chunks? (\d+)(?:–(\d+))? \(pages? /)).toBe(chunks);
  const first = steps.first();
  const open = first.getByRole('button', { name: /^Reader 1: manual\.pdf/ });
  await expect(open).toHaveAttribute('aria-expanded', 'false');
  // From the keyboard: the step's header is a button.
  await open.focus();
  await page.keyboard.press('Enter');
  await expect(open).toHaveAttribute('aria-expanded', 'true');
  await expect(first).toContainText(new RegExp(`Chunk 1 of ${chunks} \\(pages? 1`));
  await expect(first).toContainText('"res": "none"');
  // The keyword call is a step too; the readers' JSON is not the answer.
  await expect(answer.getByRole('region', { name: 'GenKeyword: a step of the answer' })).toBeVisible();
});

test('a 300-page PDF: every chunk is read, and every chunk has its place in the steps', async ({ page }) => {
  test.setTimeout(240_000);
  await setScenario(scenario('The vault code is 4417 [page: 11].', 20));
  await startReading(
    page,
    {
      upload: 'Upload files',
      documents: 'Documents',
      ready: /ready, 300 pages/,
      settings: 'Settings',
      advanced: 'Advanced',
    },
    300,
  );
  await page.getByRole('combobox', { name: 'Agent' }).selectOption('paralleldocqa');
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill('What is the vault code?');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const count = page.getByText(/^chunk \d+ of \d+$/);
  await expect(count).toBeVisible();
  const chunks = Number(/of (\d+)$/.exec((await count.textContent()) ?? '')![1]);
  expect(chunks).toBeGreaterThan(100);

  const answer = assistantTurns(page).last();
  await expect(answer).toHaveAttribute('aria-busy', 'false', { timeout: 180_000 });
  await expect(answer).toContainText('The vault code is 4417 [page: 11]');
  expect(await readerRequests()).toBe(chunks);
  const steps = answer.getByRole('region', { name: /^Reader \d+: manual\.pdf, chunks? .*: a step of the answer$/ });
  expect(await chunksOfSteps(steps, /, chunks? (\d+)(?:–(\d+))? \(pages? /)).toBe(chunks);
  // Opened, the steps list every chunk, 1 to M, once each.
  const groups = await steps.count();
  for (let i = 0; i < groups; i++)
    await steps
      .nth(i)
      .getByRole('button', { name: /^Reader \d+: / })
      .click();
  const labels = await answer.getByText(new RegExp(`^Chunk \\d+ of ${chunks} \\(pages? `)).allTextContents();
  expect(labels.map((l) => Number(/^Chunk (\d+)/.exec(l)![1]))).toEqual(
    Array.from({ length: chunks }, (_, i) => i + 1),
  );
});

test.describe('on a phone, in Chinese', () => {
  const SCREEN = { width: 390, height: 844 };
  test.use({ locale: 'zh-CN', viewport: SCREEN, isMobile: true, hasTouch: true });

  async function expectFits(page: Page, what: string) {
    const width = await pageWidth(page);
    expect(width.scrollWidth, `${what}: the page is wider than the screen`).toBeLessThanOrEqual(SCREEN.width);
    const outside = await outsideScreen(page, SCREEN);
    expect(outside, `${what}: drawn outside the screen\n${outside.join('\n')}`).toEqual([]);
  }

  test('通读整个文档: the progress and the steps in Chinese, within 390 px', async ({ page }) => {
    test.setTimeout(120_000);
    await setScenario(scenario('保险库密码是 4417 [page: 11]。'));
    await startReading(page, {
      upload: '上传文件',
      documents: '文档',
      ready: /已就绪，共 18 页/,
      settings: '设置',
      advanced: '高级',
    });
    const kind = page.getByRole('combobox', { name: '智能体', exact: true });
    await expect(kind.getByRole('option', { name: /^通读整个文档（ParallelDocQA/ })).toHaveCount(1);
    await kind.selectOption('paralleldocqa');
    await page.getByRole('button', { name: '关闭设置' }).click();
    await page.getByRole('textbox', { name: '消息', exact: true }).fill('保险库的密码是多少？');
    await page.getByRole('button', { name: '发送', exact: true }).click();

    const count = page.getByText(/^第 \d+ 块，共 \d+ 块$/);
    await expect(count).toBeVisible();
    await expect(page.getByText('正在阅读 manual.pdf')).toBeVisible();
    await expectFits(page, 'reading progress');
    const reading = await seriousViolations(page);
    expect(reading, reading.join('\n')).toEqual([]);
    const chunks = Number(/共 (\d+) 块/.exec((await count.textContent()) ?? '')![1]);

    const answer = await lastAnswer(page);
    await expect(answer).toContainText('保险库密码是 4417');
    expect(await readerRequests()).toBe(chunks);
    const steps = answer.getByRole('region', {
      name: /^阅读者 \d+：manual\.pdf，第 .* 块（第 .* 页）：回答的一个步骤$/,
    });
    expect(await chunksOfSteps(steps, /，第 (\d+)(?:–(\d+))? 块（/)).toBe(chunks);
    await steps.first().getByRole('button').click();
    await expect(steps.first()).toContainText(new RegExp(`第 1 块，共 ${chunks} 块（第 1`));
    await expectFits(page, 'an opened reader step');
    const found = await seriousViolations(page);
    expect(found, found.join('\n')).toEqual([]);
  });
});
