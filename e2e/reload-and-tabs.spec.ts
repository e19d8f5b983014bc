// A run's page reloaded, closed and opened again, or open in two tabs, while the answer streams: nothing of the
// answer or of a message is lost or stored twice. Before, a reload ended the page's stream and that stopped the run
// ("Stopped by you", the rest of the answer never came), and two tabs sending at once both ran, the second answer
// without the first message.
import { expect, test, type Page } from '@playwright/test';
import { buildActionId } from '../test/support/server-actions';
import { assistantTurns, composer, openChat, send, userTurns } from './support/chat';
import { setScenario } from './support/model';

// About six seconds of answer, so that the page leaves it midway.
const FACTS = Array.from({ length: 40 }, (_, i) => `Otter fact ${i + 1}.`).join(' ');

async function startAnswer(page: Page, word: string): Promise<string> {
  await setScenario({
    rules: [
      { when: { lastUserIncludes: word }, reply: { content: FACTS, chunkSize: 4, delayMs: 40 } },
      { when: {}, reply: { content: 'Noted.' } },
    ],
  });
  await openChat(page);
  await send(page, `Otter facts, please ${word}`);
  await expect(assistantTurns(page).last()).toContainText('Otter fact 2.');
  await expect(page).toHaveURL(/\?c=[\w-]+/);
  return page.url();
}

/** The turn streams on to the whole answer, which ends normally; stored whole, after `asked` user messages. */
async function expectWholeAnswer(page: Page, asked = 1): Promise<void> {
  const turn = assistantTurns(page).last();
  await expect(turn).toContainText('Otter fact 40.', { timeout: 30_000 });
  await expect(turn).toHaveAttribute('aria-busy', 'false');
  await expect(turn).toContainText(FACTS);
  await expect(turn.getByText('Stopped by you')).toHaveCount(0);
  await expect(turn.getByText(/^Interrupted/)).toHaveCount(0);
  // A reload now shows it stored whole, once.
  await page.reload();
  await expect(assistantTurns(page).last()).toContainText(FACTS);
  await expect(userTurns(page)).toHaveCount(asked);
}

test('a reload mid-answer follows the run on to the end of its answer', async ({ page }) => {
  await startAnswer(page, 'reload-otter');
  await page.reload();
  await expectWholeAnswer(page);
});

test('a reload as the answer ends shows it whole and ended, not the half read first, streaming', async ({
  page,
  baseURL,
}) => {
  await startAnswer(page, 'race-otter');
  // The reloaded page reads the conversation (the run still going), then asks to follow the run: that request is
  // held until the run has ended, so the run ends between the two.
  const follow = buildActionId(process.cwd(), 'followRun');
  await page.route('**/*', async (route) => {
    const request = route.request();
    if (request.method() !== 'POST' || (await request.headerValue('next-action')) !== follow) return route.fallback();
    const [runId] = JSON.parse(request.postData() ?? '[]') as string[];
    await (await fetch(`${baseURL}/api/runs/${runId}/events`)).text(); // ends with the run
    await route.fallback();
  });
  await page.reload();
  const turn = assistantTurns(page).last();
  await expect(turn).toContainText(FACTS);
  await expect(turn).toHaveAttribute('aria-busy', 'false');
  await expect(turn.getByText(/^Interrupted/)).toHaveCount(0);
});

test('a tab closed mid-answer and opened again at once follows the run on', async ({ browser }) => {
  const first = await browser.newPage();
  const url = await startAnswer(first, 'reopen-otter');
  await first.close();
  const again = await browser.newPage();
  await openChat(again, url);
  await expectWholeAnswer(again);
  await again.close();
});

test('two tabs on one conversation: a message sent while the other tab’s answer streams is refused and kept, and the tab follows that answer', async ({
  context,
}) => {
  await setScenario({
    rules: [
      { when: { lastUserIncludes: 'tabs-otter' }, reply: { content: FACTS, chunkSize: 4, delayMs: 40 } },
      { when: {}, reply: { content: 'Noted.' } },
    ],
  });
  const a = await context.newPage();
  await openChat(a);
  await send(a, 'Hello otters');
  await expect(assistantTurns(a).last()).toContainText('Noted.');
  await expect(a).toHaveURL(/\?c=[\w-]+/);
  // Tab B shows the conversation as it is now.
  const b = await context.newPage();
  await openChat(b, a.url());
  await expect(assistantTurns(b).last()).toContainText('Noted.');

  await send(a, 'Otter facts, please tabs-otter');
  await expect(assistantTurns(a).last()).toContainText('Otter fact 2.');
  await send(b, 'A question from the other tab');
  await expect(
    b.getByRole('alert').filter({ hasText: 'This conversation is still answering an earlier message' }),
  ).toBeVisible();
  await expect(composer(b)).toHaveValue('A question from the other tab');
  // Tab B now shows tab A's message (not its own), and A's answer as it streams on, to its end.
  await expect(userTurns(b)).toHaveText([/Hello otters/, /tabs-otter/]);
  await expect(assistantTurns(b).last()).toContainText('Otter fact 40.', { timeout: 30_000 });
  await expect(assistantTurns(b).last()).toHaveAttribute('aria-busy', 'false');
  await expect(composer(b)).toHaveValue('A question from the other tab');

  // Tab A's answer is not disturbed; once it is in, tab B's message goes, once, after A's turn.
  await expectWholeAnswer(a, 2);
  await b.getByRole('button', { name: 'Dismiss' }).click();
  await b.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(assistantTurns(b).last()).toContainText('Noted.');
  await expect(composer(b)).toHaveValue('');
  await expect(userTurns(b)).toHaveText([/Hello otters/, /tabs-otter/, /A question from the other tab/]);
  await a.reload();
  await expect(userTurns(a)).toHaveText([/Hello otters/, /tabs-otter/, /A question from the other tab/]);
});

test('a tab that comes back into view shows what another tab sent meanwhile, and follows its answer', async ({
  context,
}) => {
  await setScenario({
    rules: [
      { when: { lastUserIncludes: 'back-otter' }, reply: { content: FACTS, chunkSize: 4, delayMs: 40 } },
      { when: {}, reply: { content: 'Noted.' } },
    ],
  });
  const a = await context.newPage();
  await openChat(a);
  await send(a, 'Hello otters');
  await expect(assistantTurns(a).last()).toContainText('Noted.');
  const b = await context.newPage();
  await openChat(b, a.url());
  await expect(assistantTurns(b).last()).toContainText('Noted.');

  await send(a, 'Otter facts, please back-otter');
  await expect(assistantTurns(a).last()).toContainText('Otter fact 2.');
  await expect(userTurns(b)).toHaveCount(1);
  // What the browser tells a page when its tab is shown again and its window gets the focus (headless Chromium
  // keeps every page visible and focused, so it never sends them itself).
  await b.evaluate(() => {
    document.dispatchEvent(new Event('visibilitychange'));
    window.dispatchEvent(new Event('focus'));
  });
  await expect(userTurns(b)).toHaveText([/Hello otters/, /back-otter/]);
  await expect(assistantTurns(b).last()).toContainText('Otter fact 40.', { timeout: 30_000 });
  await expect(assistantTurns(b).last()).toHaveAttribute('aria-busy', 'false');
  await expectWholeAnswer(a, 2);

  // A's next exchange, over before B is shown again, is there too once it is.
  await send(a, 'And one more thing');
  await expect(assistantTurns(a).last()).toContainText('Noted.');
  await expect(userTurns(b)).toHaveCount(2);
  await b.evaluate(() => window.dispatchEvent(new Event('focus')));
  await expect(userTurns(b)).toHaveText([/Hello otters/, /back-otter/, /And one more thing/]);
  await expect(assistantTurns(b).last()).toContainText('Noted.');
});
