import { expect, test } from '@playwright/test';
import { freePort, kill, startApp } from './support/app-process';
import { assistantTurns, openChat, send } from './support/chat';
import { setScenario } from './support/model';

const ANSWER = 'Axolotls regrow limbs. '.repeat(100);

/** The streamed answer's text in a turn's innerText (its paragraph, without the notice lines after it). */
function answerText(turnText: string): string {
  return (turnText.match(/Axolotls regrow[A-Za-z. ]*/)?.[0] ?? '').trimEnd();
}

test('a server killed mid-answer keeps the partial text, shown as interrupted after a restart', async ({
  page,
}, testInfo) => {
  testInfo.setTimeout(60_000);
  const port = await freePort();
  const dataDir = testInfo.outputPath('data');
  const base = `http://127.0.0.1:${port}`;
  await setScenario({
    rules: [
      {
        when: { lastUserIncludes: 'kill-axolotl' },
        reply: { content: ANSWER, chunkSize: 2, delayMs: 30 },
      },
    ],
  });

  let app = await startApp(port, dataDir);
  try {
    await openChat(page, base);
    await send(page, 'Tell me about axolotls kill-axolotl');
    const turn = assistantTurns(page).last();
    await expect(turn).toContainText('Axolotls regrow limbs. Axolotls regrow limbs.');
    await expect(page).toHaveURL(/\?c=[\w-]+/);
    const url = page.url();

    await kill(app);
    // The page notices the lost connection and keeps what arrived.
    await expect(turn).toHaveAttribute('aria-busy', 'false');
    await expect(page.getByRole('alert').filter({ hasText: 'Lost the connection' })).toBeVisible();
    const partial = answerText(await turn.innerText());
    expect(partial.length).toBeGreaterThan(40);

    app = await startApp(port, dataDir);
    await openChat(page, url);
    const reloaded = assistantTurns(page).last();
    await expect(reloaded).toHaveAttribute('aria-busy', 'false');
    await expect(reloaded.getByText(/^Interrupted/)).toBeVisible();
    // Everything the page had shown was stored before the kill (the store may hold a few characters more).
    const stored = answerText(await reloaded.innerText());
    expect(stored.startsWith(partial)).toBe(true);
    expect(stored.length).toBeLessThan(ANSWER.trim().length);
  } finally {
    await kill(app);
  }
});
