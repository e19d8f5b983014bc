import { expect, test, type Page } from '@playwright/test';
import { assistantTurns, openChat, send, stopButton } from './support/chat';
import { setScenario } from './support/model';

// Sixty paragraphs, streamed over about six seconds: far taller than the window.
const TALL = Array.from(
  { length: 60 },
  (_, i) => `Paragraph ${i + 1} of a tall answer, long enough to wrap once.`,
).join('\n\n');

const distanceFromBottom = (page: Page) =>
  page.locator('[data-thread-scroller]').evaluate((el) => Math.round(el.scrollHeight - el.scrollTop - el.clientHeight));
const scrollTop = (page: Page) => page.locator('[data-thread-scroller]').evaluate((el) => Math.round(el.scrollTop));

test('the thread follows a streaming answer, stops following when the reader scrolls up, and follows again at the bottom', async ({
  page,
}) => {
  await setScenario({
    rules: [{ when: { lastUserIncludes: 'tall-answer-heron' }, reply: { content: TALL, chunkSize: 12, delayMs: 20 } }],
  });
  await page.setViewportSize({ width: 1000, height: 600 });
  await openChat(page);
  await send(page, 'Write a tall answer tall-answer-heron');
  const turn = assistantTurns(page).last();

  // Following: well past the first screen, the newest text is in view.
  await expect(turn).toContainText('Paragraph 20 of');
  await expect.poll(() => distanceFromBottom(page)).toBeLessThan(40);
  await expect(turn).toContainText('Paragraph 25 of');
  // The view follows once the browser has laid the new text out (a ResizeObserver's callback), a moment after it is in.
  await expect.poll(() => distanceFromBottom(page)).toBeLessThan(40);

  // The reader scrolls up: the view stays where they put it while the answer goes on growing.
  await page.locator('[data-thread-scroller]').hover();
  await page.mouse.wheel(0, -2000);
  await expect.poll(() => scrollTop(page)).toBeLessThan(200);
  const heldAt = await scrollTop(page);
  await expect(turn).toContainText('Paragraph 35 of');
  expect(await scrollTop(page)).toBe(heldAt);

  // Back at the bottom, it follows again.
  await page.mouse.wheel(0, 100_000);
  await expect(turn).toContainText('Paragraph 45 of');
  await expect.poll(() => distanceFromBottom(page)).toBeLessThan(40);
  await expect(stopButton(page)).toHaveCount(0, { timeout: 15_000 });
  await expect.poll(() => distanceFromBottom(page)).toBeLessThan(40);
});
