import { expect, test, type Locator, type Page } from '@playwright/test';
import { assistantTurns, composer, openChat, send, sendButton, stopButton } from './support/chat';
import { chatRequests, setScenario } from './support/model';

// About 1,500 characters at one character per 30 ms: a 45-second answer, so the test always stops it midway.
const LONG = Array.from({ length: 60 }, (_, i) => `Sentence number ${i + 1} of a long answer. `).join('');

async function startSlowAnswer(page: Page, word: string): Promise<Locator> {
  await setScenario({
    rules: [{ when: { lastUserIncludes: word }, reply: { content: LONG, chunkSize: 1, delayMs: 30 } }],
  });
  await openChat(page);
  await send(page, `Tell me a long story ${word}`);
  const turn = assistantTurns(page).last();
  await expect(turn).toContainText('Sentence number 1 of');
  await expect(stopButton(page)).toBeVisible();
  return turn;
}

async function expectStopped(page: Page, turn: Locator): Promise<void> {
  await expect(turn.getByText('Stopped by you')).toBeVisible();
  await expect(turn).toHaveAttribute('aria-busy', 'false');
  await expect(stopButton(page)).toHaveCount(0);
  await expect(sendButton(page)).toBeVisible();
  // The stream really ended: nothing more arrives (at 30 ms a character, 600 ms would add ~20).
  const before = await turn.innerText();
  await page.waitForTimeout(600);
  expect(await turn.innerText()).toBe(before);
  expect(before).not.toContain('Sentence number 60');
  // And the composer works again.
  await composer(page).fill('next question');
  await expect(sendButton(page)).toBeEnabled();
}

test('Stop ends a streaming answer and says it was stopped', async ({ page }) => {
  const turn = await startSlowAnswer(page, 'stop-button-gecko');
  await stopButton(page).click();
  await expectStopped(page, turn);
  expect(await chatRequests()).toHaveLength(1);
});

test('Esc in the composer stops the run too', async ({ page }) => {
  const turn = await startSlowAnswer(page, 'stop-escape-ibis');
  await composer(page).press('Escape');
  await expectStopped(page, turn);
});

test('closing the page while the model streams tool-call arguments without end stops the run and its request', async ({
  browser,
}) => {
  await setScenario({
    replies: [
      {
        toolCalls: [{ id: 'call-1', name: 'calculator', arguments: '{"expression": "1+' }],
        endless: 'arguments',
        delayMs: 20,
      },
    ],
  });
  const page = await browser.newPage();
  await openChat(page);
  await send(page, 'Add up forever, page-close-quokka');
  await expect(stopButton(page)).toBeVisible();
  await expect.poll(async () => (await chatRequests()).length).toBe(1);
  // The run is quiet meanwhile: no event reaches the page while the arguments stream.
  await page.waitForTimeout(500);
  const conversation = page.url();
  await page.close();

  // The app closed the model's stream (the server saw the client go before the answer was whole, and nobody opened
  // the page again within PAGE_LEAVE_GRACE_MS, 5 s)...
  await expect.poll(async () => (await chatRequests())[0]?.finished, { timeout: 20_000 }).toBe(false);
  // ...and the run ended as stopped: opened again, the turn says so.
  const again = await browser.newPage();
  await openChat(again, new URL(conversation).pathname + new URL(conversation).search);
  const turn = assistantTurns(again).last();
  await expect(turn.getByText('Stopped by you')).toBeVisible();
  await expect(stopButton(again)).toHaveCount(0);
  await again.close();
});
