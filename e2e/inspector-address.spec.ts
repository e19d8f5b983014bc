// The run open in the inspector is in the page's address (`run=<id>`): a link or a reload opens it, Back closes it,
// Forward opens it again, and Escape still closes it with the focus back where it was. Before, the address never
// changed: a run could not be linked to, and a reload closed it.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { composer, lastAnswer, openChat, send } from './support/chat';
import { setScenario } from './support/model';

// Words of this test's own (the app's data is shared by the specs, and by a test's repeats).
let HERON = '';
let PLOVER = '';
test.beforeEach(() => {
  const tag = Date.now().toString(36);
  HERON = `addr-heron-${tag}`;
  PLOVER = `addr-plover-${tag}`;
});

function inspector(page: Page): Locator {
  return page.getByRole('dialog', { name: 'Run inspector' });
}

/** The inspector is open on the answered run of `word`'s message. */
async function expectRunOpen(page: Page, word: string): Promise<void> {
  await expect(inspector(page)).toBeVisible();
  await expect(inspector(page)).toContainText('Answered: the model’s last reply called no tool.');
  await expect(inspector(page).getByRole('tab', { name: 'Iteration 1', exact: true })).toBeVisible();
  await expect(inspector(page)).toContainText(`Answer about ${word}.`);
  // Settled: the focus is in it (a person presses Escape there, not while its loading view gives way).
  await expect(inspector(page).locator(':focus')).toHaveCount(1);
}

async function answered(page: Page, word: string): Promise<string> {
  await setScenario({
    rules: [{ when: { lastUserIncludes: word }, reply: { content: `Answer about ${word}.` } }],
  });
  await openChat(page);
  await send(page, `Tell me about ${word}`);
  await expect(await lastAnswer(page)).toContainText(`Answer about ${word}.`);
  await expect(page).toHaveURL(/\/\?c=[\w-]+$/);
  return new URL(page.url()).search;
}

test('a run inspected from its turn: in the address, opened again by a reload, closed by Back, reopened by Forward', async ({
  page,
}) => {
  const conversation = await answered(page, HERON);
  const opener = (await lastAnswer(page)).getByRole('button', { name: 'Inspect run' });
  await opener.focus();
  await page.keyboard.press('Enter');
  await expectRunOpen(page, HERON);
  await expect(page).toHaveURL(new RegExp(`/\\${conversation}&run=[\\w-]+$`));
  const link = page.url();

  // Back closes it (the focus back on the turn's button); Forward opens it again.
  await page.goBack();
  await expect(inspector(page)).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/\\${conversation}$`));
  await expect(opener).toBeFocused();
  await page.goForward();
  await expectRunOpen(page, HERON);
  await expect(page).toHaveURL(link);

  // A reload opens it again, on the conversation; Escape closes it, and with no button that opened it the focus goes
  // to the composer; the address is the conversation's again.
  await page.reload();
  await expectRunOpen(page, HERON);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Tell me about ${HERON}`);
  await page.keyboard.press('Escape');
  await expect(inspector(page)).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/\\${conversation}$`));
  await expect(composer(page)).toBeFocused();

  // Escape on one opened from the turn: the focus back on its button, the address the conversation's.
  await opener.focus();
  await page.keyboard.press('Enter');
  await expectRunOpen(page, HERON);
  await page.keyboard.press('Escape');
  await expect(inspector(page)).toBeHidden();
  await expect(opener).toBeFocused();
  await expect(page).toHaveURL(new RegExp(`/\\${conversation}$`));

  // The link, opened in another tab, opens the run.
  const other = await page.context().newPage();
  await other.goto(link);
  await expectRunOpen(other, HERON);
  await other.close();
});

test('a run inspected from the Runs page: in the address beside the filters, and Back closes it before undoing them', async ({
  page,
}) => {
  await answered(page, PLOVER);
  await page.goto('/runs');
  await page.getByRole('searchbox', { name: 'Search runs' }).fill(PLOVER);
  await page.getByRole('searchbox', { name: 'Search runs' }).press('Enter');
  await expect(page).toHaveURL(new RegExp(`/runs\\?q=${PLOVER}$`));
  await expect(page.getByRole('table', { name: 'Runs', exact: true }).getByRole('row')).toHaveCount(2);
  const open = page.getByRole('button', { name: `Inspect the run of “Tell me about ${PLOVER}”` });
  await open.click();
  await expectRunOpen(page, PLOVER);
  await expect(page).toHaveURL(new RegExp(`/runs\\?q=${PLOVER}&run=[\\w-]+$`));
  const link = page.url();

  await page.goBack();
  await expect(inspector(page)).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/runs\\?q=${PLOVER}$`));
  await expect(open).toBeFocused();
  await page.goBack();
  await expect(page).toHaveURL(/\/runs$/);
  await expect(page.getByRole('searchbox', { name: 'Search runs' })).toHaveValue('');
  await page.goForward();
  await page.goForward();
  await expectRunOpen(page, PLOVER);
  await expect(page).toHaveURL(link);

  // A reload keeps the filters and the run; Escape closes it and the focus starts on the page's title.
  await page.reload();
  await expectRunOpen(page, PLOVER);
  await expect(page.getByRole('searchbox', { name: 'Search runs' })).toHaveValue(PLOVER);
  await page.keyboard.press('Escape');
  await expect(inspector(page)).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/runs\\?q=${PLOVER}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Runs' })).toBeFocused();
});

test('a run id in the address that names no run of yours says it was not found', async ({ page }) => {
  await openChat(page, '/?run=no-such-run');
  await expect(inspector(page).getByRole('alert')).toHaveText(
    'Could not load the run: Run no-such-run was not found (its conversation may have been deleted).',
  );
  await page.keyboard.press('Escape');
  await expect(inspector(page)).toBeHidden();
  await expect(page).toHaveURL(/\/$/);
});
