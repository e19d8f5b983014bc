// What the chat page reads of its own accord (the new conversation's title once its answer is in, an answer still
// going after a reload, the integrations' status in Settings, the Models dialog's scan and local models) and an
// earlier answer asked for, when those requests get no answer (refused as when the server is down for a moment): the
// page keeps what it shows and throws nothing, what the user asked for says the server could not be reached, and once
// requests get through the page picks up again (the answer still going is followed to its end, Scan again scans).
// Before, each left an uncaught rejection in the page, a followed answer stayed half-drawn until a reload, and the
// scan stayed "Scanning…". The server killed under a new chat's first answer too (its own app, killed and started
// again). At phone width.
import { expect, test, type Page } from '@playwright/test';
import { ownApp } from './support/app-process';
import { assistantTurns, composer, lastAnswer, notice, openChat, send, userTurns } from './support/chat';
import { setScenario } from './support/model';
import { openModelsDialog } from './support/models';

const UNREACHABLE = 'Could not reach the server (Failed to fetch). Nothing was done: try again once it is back.';

/** Uncaught errors and unhandled rejections of the page, from now on. */
function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

/** From now on, the page's server action requests fail as a refused connection does, except those `spare` lets
 *  through (what is under way goes on). */
async function refuseActions(page: Page, spare: (body: string) => boolean = () => false): Promise<void> {
  await page.route('**/*', (route) => {
    const request = route.request();
    if (!request.headers()['next-action'] || spare(request.postData() ?? '')) return route.continue();
    return route.abort('connectionrefused');
  });
}

/** What the browser tells a page when its window gets the focus back (headless Chromium never sends it itself). */
async function focusComesBack(page: Page): Promise<void> {
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
}

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
});

test('a new chat whose answer ends while the server cannot be reached keeps it, with no error', async ({ page }) => {
  const word = 'reads-curlew';
  await setScenario({
    rules: [
      {
        when: { lastUserIncludes: word },
        reply: { content: 'Curlews probe mud. '.repeat(40), chunkSize: 4, delayMs: 30 },
      },
    ],
  });
  const errors = pageErrors(page);
  await openChat(page);
  await send(page, `Tell me of curlews ${word}`);
  await expect(assistantTurns(page).last()).toContainText('Curlews probe mud. Curlews');
  // The answer streams on; what the page asks once it is in (the title, the list) finds no server.
  await refuseActions(page);
  const answer = await lastAnswer(page);
  await expect(answer).toContainText('Curlews probe mud.');
  await page.waitForTimeout(1_000);
  expect(errors).toEqual([]);
  await expect(notice(page)).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Tell me of curlews ${word}`);
});

test('an answer still going after a reload, not followed while the server cannot be reached, is followed once it can', async ({
  page,
}) => {
  const word = 'reads-godwit';
  await setScenario({
    rules: [
      {
        when: { lastUserIncludes: word },
        reply: { content: `${'Godwits fly far. '.repeat(120)}The godwit lands.`, chunkSize: 4, delayMs: 25 },
      },
    ],
  });
  const errors = pageErrors(page);
  await openChat(page);
  await send(page, `Tell me of godwits ${word}`);
  await expect(assistantTurns(page).last()).toContainText('Godwits fly far. Godwits fly far.');
  const conversation = new URL(page.url()).searchParams.get('c');
  expect(conversation).toBeTruthy();

  // Reloaded mid-answer: the conversation is read, but following its answer gets no answer.
  await refuseActions(page, (body) => body.includes(conversation!));
  await page.reload();
  const turn = assistantTurns(page).last();
  await expect(turn).toContainText('Godwits fly far.');
  await page.waitForTimeout(1_000);
  expect(errors).toEqual([]);
  await expect(turn).not.toContainText('The godwit lands.');

  // Back: the window's focus coming back picks the answer up, to its end, without a reload.
  await page.unrouteAll();
  await focusComesBack(page);
  await expect(turn).toContainText('The godwit lands.', { timeout: 30_000 });
  await expect(turn).toHaveAttribute('aria-busy', 'false');
  expect(errors).toEqual([]);
});

test('an earlier answer asked for while the server cannot be reached says so and the one shown stays', async ({
  page,
}) => {
  const word = 'reads-stint';
  await setScenario({ rules: [{ when: { lastUserIncludes: word }, reply: { content: 'Stints are small.' } }] });
  const errors = pageErrors(page);
  await openChat(page);
  await send(page, `Tell me of stints ${word}`);
  await lastAnswer(page);
  await setScenario({ rules: [{ when: { lastUserIncludes: word }, reply: { content: 'Stints run fast.' } }] });
  await (await lastAnswer(page)).getByRole('button', { name: 'Regenerate', exact: true }).click();
  const answer = assistantTurns(page).last();
  await expect(answer.getByRole('group', { name: 'Answer 2 of 2' })).toBeVisible();
  await expect(await lastAnswer(page)).toContainText('Stints run fast.');

  await refuseActions(page);
  await answer.getByRole('button', { name: 'Previous answer' }).click();
  await expect(notice(page)).toContainText(UNREACHABLE);
  await expect(answer.getByRole('group', { name: 'Answer 2 of 2' })).toBeVisible();
  await expect(answer).toContainText('Stints run fast.');
  expect(errors).toEqual([]);

  await page.unrouteAll();
  await notice(page).getByRole('button', { name: 'Dismiss', exact: true }).click();
  await answer.getByRole('button', { name: 'Previous answer' }).click();
  await expect(answer.getByRole('group', { name: 'Answer 1 of 2' })).toBeVisible();
  await expect(answer).toContainText('Stints are small.');
});

test('Settings opened while the server cannot be reached throws nothing, and lists the MCP servers once it can', async ({
  page,
}) => {
  const errors = pageErrors(page);
  await openChat(page);
  await refuseActions(page);
  const settings = page.getByRole('button', { name: 'Settings', exact: true });
  await settings.click();
  await expect(page.getByRole('checkbox', { name: /Pause before tools/ })).toBeVisible();
  await page.waitForTimeout(1_000);
  expect(errors).toEqual([]);
  await page.keyboard.press('Escape');

  await page.unrouteAll();
  await settings.click();
  await expect(page.getByRole('listitem', { name: 'MCP server fixture' })).toBeVisible();
});

test('a new chat whose server is killed mid-answer keeps what came, with no error, and goes on once it is back', async ({
  page,
}, testInfo) => {
  testInfo.setTimeout(120_000);
  const word = 'reads-knot';
  await setScenario({
    rules: [
      { when: { lastUserIncludes: word }, reply: { content: 'Knots gather. '.repeat(200), chunkSize: 2, delayMs: 30 } },
      { when: { lastUserIncludes: 'knot-again' }, reply: { content: 'Back again.' } },
    ],
  });
  const errors = pageErrors(page);
  const server = await ownApp(testInfo.outputPath('data'));
  try {
    await openChat(page, server.base);
    await send(page, `Tell me of knots ${word}`);
    const turn = assistantTurns(page).last();
    await expect(turn).toContainText('Knots gather. Knots gather.');

    await server.down();
    // The answer's end finds no server: what came stays, the page says the connection was lost, and nothing throws.
    await expect(turn).toHaveAttribute('aria-busy', 'false');
    await expect(page.getByRole('alert').filter({ hasText: 'Lost the connection' })).toBeVisible();
    await expect(turn).toContainText('Knots gather.');
    await page.waitForTimeout(1_000);
    expect(errors).toEqual([]);

    await server.up();
    await focusComesBack(page);
    await composer(page).fill('Once more knot-again');
    await composer(page).press('Enter');
    await expect(userTurns(page)).toHaveCount(2);
    await expect(await lastAnswer(page)).toContainText('Back again.');
    expect(errors).toEqual([]);
  } finally {
    await server.down();
  }
});

test('the Models dialog opened while the server cannot be reached throws nothing, and Scan again works once it can', async ({
  page,
}) => {
  const errors = pageErrors(page);
  await openChat(page);
  await refuseActions(page);
  const dialog = await openModelsDialog(page);
  await expect(dialog).toBeVisible();
  // Its scan got no answer: not left scanning for ever.
  const scanAgain = dialog.getByRole('button', { name: 'Scan again' });
  await expect(scanAgain).toBeEnabled();
  await page.waitForTimeout(1_000);
  expect(errors).toEqual([]);

  await page.unrouteAll();
  await scanAgain.click();
  await expect(scanAgain).toBeEnabled();
  expect(errors).toEqual([]);
});
