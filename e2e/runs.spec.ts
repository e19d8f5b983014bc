import { expect, test, type Page } from '@playwright/test';
import { lastAnswer, openChat, send } from './support/chat';
import { seriousViolations } from './support/axe';
import { setScenario } from './support/model';
import { outsideScreen, pageWidth } from './support/viewport';

// The e2e runs share one database: every run here carries TAG, and the page is searched for it first. Each test has
// its own (the spec's runs from an earlier repeat stay in the database), and its own number for the calculator.
let TAG = '';
let FACTOR = 0;
test.beforeEach(() => {
  TAG = `runsotter${Date.now().toString(36)}`;
  FACTOR = 10_000 + (Date.now() % 80_000);
});

/** A run in a new conversation: the model calls the calculator on `expression` (none: no tool), then answers. */
async function calculatorRun(page: Page, label: string, expression?: string): Promise<void> {
  const word = `${TAG}-${label}`;
  await setScenario({
    rules: [
      {
        when: { lastUserIncludes: word },
        reply: [
          ...(expression ? [{ toolCalls: [{ name: 'calculator', arguments: JSON.stringify({ expression }) }] }] : []),
          { content: `Done (${word}).` },
        ],
      },
    ],
  });
  await openChat(page);
  await send(page, `Please work it out ${word}`);
  await expect(await lastAnswer(page)).toContainText(`Done (${word}).`);
}

function rows(page: Page) {
  return page.getByRole('table', { name: 'Runs', exact: true }).locator('tbody tr');
}

test('the Runs page filters by a failed tool call, searches tool results, keeps its filters on reload and opens a run', async ({
  page,
}) => {
  await calculatorRun(page, 'good', '6*7');
  await calculatorRun(page, 'bad', '8/');
  await calculatorRun(page, 'plain');
  await calculatorRun(page, 'unique', `${FACTOR}*3`);

  await openChat(page);
  await page.getByRole('link', { name: 'Runs' }).click();
  await expect(page).toHaveURL(/\/runs$/);
  await expect(page.getByRole('heading', { name: 'Runs', level: 1 })).toBeVisible();

  await page.getByRole('searchbox', { name: 'Search runs' }).fill(TAG);
  await expect(page).toHaveURL(new RegExp(`[?&]q=${TAG}`));
  await expect(rows(page)).toHaveCount(4);
  // Newest first.
  await expect(rows(page).first()).toContainText(`Please work it out ${TAG}-unique`);

  await page.getByRole('combobox', { name: 'Tool' }).selectOption('calculator');
  await expect(rows(page)).toHaveCount(3);
  await page.getByRole('checkbox', { name: 'Failed tool calls only' }).check();
  await expect(page).toHaveURL(/failed=1/);
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText(`${TAG}-bad`);
  await expect(rows(page).first()).toContainText('(1 failed)');

  // The filters live in the address bar: a reload shows the same runs with the same filters set.
  await page.reload();
  await expect(page.getByRole('searchbox', { name: 'Search runs' })).toHaveValue(TAG);
  await expect(page.getByRole('combobox', { name: 'Tool' })).toHaveValue('calculator');
  await expect(page.getByRole('checkbox', { name: 'Failed tool calls only' })).toBeChecked();
  await expect(rows(page)).toHaveCount(1);
  const figures = page.getByRole('figure', { name: /Tool calls per tool/ });
  await expect(figures.getByRole('row', { name: /calculator/ })).toContainText('100.0 %');
  expect(await seriousViolations(page)).toEqual([]);

  // A row opens the run inspector on that run.
  await page.getByRole('button', { name: `Inspect the run of “Please work it out ${TAG}-bad”` }).click();
  const dialog = page.getByRole('dialog', { name: /^Run inspector/ });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('tab', { name: /^Iteration \d+$/ })).toHaveCount(2);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  // Closing goes back a step of the history: taken before the filters change the address again.
  await expect(page).not.toHaveURL(/[?&]run=/);

  // FACTOR × 3 is only in a tool result (the calculator's answer).
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).toHaveURL(/\/runs$/);
  await expect(page.getByRole('searchbox', { name: 'Search runs' })).toHaveValue('');
  await page.getByRole('searchbox', { name: 'Search runs' }).fill(String(FACTOR * 3));
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText(`${TAG}-unique`);
});

test('each filter change is one Back step (typing the search words is one), and Back / Forward restore the controls', async ({
  page,
}) => {
  await calculatorRun(page, 'back-ok', '6*7');
  await calculatorRun(page, 'back-bad', '8/');
  const word = `${TAG}-back`;
  await page.getByRole('link', { name: 'Runs' }).click();
  await expect(page).toHaveURL(/\/runs$/);
  const search = page.getByRole('searchbox', { name: 'Search runs' });
  const outcome = page.getByRole('combobox', { name: 'Outcome' });
  const tool = page.getByRole('combobox', { name: 'Tool' });
  const failed = page.getByRole('checkbox', { name: 'Failed tool calls only' });

  // Typed key by key, with a pause that searches half-way: the words are still one history entry.
  await search.pressSequentially(word.slice(0, -2), { delay: 40 });
  await expect(page).toHaveURL(new RegExp(`[?&]q=${word.slice(0, -2)}$`));
  await search.pressSequentially(word.slice(-2), { delay: 40 });
  await expect(page).toHaveURL(new RegExp(`[?&]q=${word}$`));
  await expect(rows(page)).toHaveCount(2);
  await outcome.selectOption('answered');
  await expect(page).toHaveURL(/outcome=answered/);
  await tool.selectOption('calculator');
  await expect(page).toHaveURL(/tool=calculator/);
  await failed.check();
  await expect(page).toHaveURL(/failed=1/);
  await expect(rows(page)).toHaveCount(1);

  // Each Back undoes one change, the controls with it.
  await page.goBack();
  await expect(page).not.toHaveURL(/failed=1/);
  await expect(failed).not.toBeChecked();
  await expect(tool).toHaveValue('calculator');
  await expect(rows(page)).toHaveCount(2);
  await page.goBack();
  await expect(tool).toHaveValue('');
  await expect(outcome).toHaveValue('answered');
  await page.goBack();
  await expect(outcome).toHaveValue('');
  await expect(search).toHaveValue(word);
  await page.goBack();
  await expect(page).toHaveURL(/\/runs$/);
  await expect(search).toHaveValue('');

  // Forward sets them again.
  await page.goForward();
  await expect(search).toHaveValue(word);
  await page.goForward();
  await expect(outcome).toHaveValue('answered');
  await expect(page).toHaveURL(new RegExp(`\\?q=${word}&outcome=answered$`));
  await expect(rows(page)).toHaveCount(2);
});

test('values no filter can take are left out and named, free-text ones that match nothing are an empty list, and From after To is said', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/runs?outcome=nonsense&from=garbage&agent=zzz&savedAgent=nope');
  const notices = page.getByRole('list', { name: 'Left out of the filters' }).getByRole('listitem');
  await expect(notices).toHaveText([
    'Ignored an unknown outcome “nonsense”.',
    'Ignored an unknown agent “zzz”.',
    'Ignored a From date that is not a day: “garbage”.',
    'Ignored a saved agent that is not one of yours (or no longer exists): “nope”.',
  ]);
  // The controls show what is applied: nothing.
  await expect(page.getByRole('combobox', { name: 'Outcome' })).toHaveValue('');
  await expect(page.getByRole('combobox', { name: 'Agent' })).toHaveValue('');
  await expect(page.getByLabel('From', { exact: true })).toHaveValue('');
  await expect(page.getByText('No run matches these filters.')).toBeHidden();
  const width = await pageWidth(page);
  expect(width.scrollWidth).toBeLessThanOrEqual(390);
  expect(await outsideScreen(page, { width: 390, height: 844 })).toEqual([]);
  expect(await seriousViolations(page)).toEqual([]);

  // A model no run has: kept, shown, and nothing matches.
  await page.goto('/runs?model=zzz');
  await expect(page.getByRole('combobox', { name: 'Model' })).toHaveValue('zzz');
  await expect(page.getByText('No run matches these filters.')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Left out of the filters' })).toBeHidden();

  await page.goto('/runs?from=2030-01-01&to=2020-01-01');
  const problem = page.getByText('From is after To: no run can match.');
  await expect(problem).toBeVisible();
  await expect(page.getByLabel('From', { exact: true })).toHaveValue('2030-01-01');
  await expect(page.getByLabel('To', { exact: true })).toHaveAccessibleDescription(
    'From is after To: no run can match.',
  );
  // Setting To after From takes the message away.
  await page.getByLabel('To', { exact: true }).fill('2031-01-01');
  await expect(page).toHaveURL(/to=2031-01-01/);
  await expect(problem).toBeHidden();
});

test('a run recorded with "Record the raw stream" shows its chunks in order in the inspector, the finish reason marked', async ({
  page,
}) => {
  const word = `${TAG}-raw`;
  await setScenario({
    rules: [{ when: { lastUserIncludes: word }, reply: [{ content: `Raw answer (${word}).`, chunkSize: 5 }] }],
  });
  await openChat(page);
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByText('Advanced', { exact: true }).click();
  await page.getByRole('checkbox', { name: /Record the raw stream/ }).check();
  await send(page, `Record this ${word}`);
  const answer = await lastAnswer(page);
  await expect(answer).toContainText(`Raw answer (${word}).`);
  await answer.getByRole('button', { name: 'Inspect run' }).click();

  const raw = page.getByRole('dialog', { name: /^Run inspector/ }).getByRole('region', { name: 'Raw stream' });
  const chunks = raw.getByRole('list', { name: 'Chunks as received' }).getByRole('listitem');
  await expect(chunks.first()).toBeVisible();
  const texts = await chunks.allTextContents();
  // The answer's pieces come in the order sent; the chunk with the finish reason is marked; [DONE] ends it.
  const pieces = texts.map((t) => /"content":"([^"]*)"/.exec(t)?.[1] ?? '').join('');
  expect(pieces).toBe(`Raw answer (${word}).`);
  expect(texts.filter((t) => t.includes('finish: stop'))).toHaveLength(1);
  expect(texts.at(-1)).toContain('[DONE]');
  expect(texts.findIndex((t) => t.includes('first token'))).toBeLessThan(
    texts.findIndex((t) => t.includes('finish: stop')),
  );
});

for (const [locale, w] of [
  ['en-US', { title: 'Runs', tools: 'Tool calls: 1', outcome: 'Outcome: Answered' }],
  ['zh-CN', { title: '运行记录', tools: '工具调用：1', outcome: '结果：已回答' }],
] as const) {
  test.describe(`on a 390 px phone (${locale})`, () => {
    test.use({ locale, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

    test('each run is a block that fits the screen: its values named, its Inspect on the screen without scrolling sideways', async ({
      page,
      browser,
    }) => {
      // The run made on an English page (the spec's steps are in English), then listed in the page's language.
      const english = await browser.newPage({ locale: 'en-US' });
      await calculatorRun(english, `phone-${locale}`, `${FACTOR} * 2`);
      await english.close();
      await page.goto(`/runs?q=${TAG}-phone-${locale}`);
      const table = page.getByRole('table', { name: w.title, exact: true });
      const row = table.getByRole('row').filter({ hasText: `${TAG}-phone-${locale}` });
      await expect(row).toHaveCount(1);
      const box = await table.evaluate((el) => {
        const wrapper = el.parentElement!;
        return { scroll: wrapper.scrollWidth, client: wrapper.clientWidth };
      });
      expect(box.scroll, 'the runs table is wider than its box: it scrolls sideways').toBeLessThanOrEqual(box.client);
      const inspect = row.getByRole('button', { name: /^(Inspect the run of|检查)/ });
      // Within the screen's width as drawn (below the filters, it is reached by scrolling down, as any row is).
      const at = (await inspect.boundingBox())!;
      expect(at.x).toBeGreaterThanOrEqual(0);
      expect(at.x + at.width).toBeLessThanOrEqual(390);
      // Each value says what it is (the table's head is not drawn on a phone).
      await expect(row).toContainText(w.tools);
      await expect(row).toContainText(w.outcome);
      expect((await pageWidth(page)).scrollWidth).toBeLessThanOrEqual(390);
      expect(await outsideScreen(page, { width: 390, height: 844 })).toEqual([]);
      await inspect.click();
      await expect(page).toHaveURL(/[?&]run=/);
    });
  });
}
