// Page steps shared by the specs, through roles and accessible names only (as a screen reader finds them).
import { expect, type Locator, type Page } from '@playwright/test';

export function composer(page: Page): Locator {
  return page.getByRole('textbox', { name: 'Message', exact: true });
}

export function sendButton(page: Page): Locator {
  return page.getByRole('button', { name: 'Send', exact: true });
}

export function stopButton(page: Page): Locator {
  return page.getByRole('button', { name: 'Stop', exact: true });
}

export function conversations(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Conversations' });
}

export function assistantTurns(page: Page): Locator {
  return page.locator('article[data-role="assistant"]');
}

export function userTurns(page: Page): Locator {
  return page.locator('article[data-role="user"]');
}

/** Opens the page and waits for it to be interactive. */
export async function openChat(page: Page, url = '/'): Promise<void> {
  await page.goto(url);
  await interactive(page);
}

/** Waits until the chat page has hydrated (the theme toggle only renders then): text typed earlier is lost. */
export async function interactive(page: Page): Promise<void> {
  await expect(page.getByRole('button', { name: /^Switch to (dark|light) theme$/ })).toBeVisible();
}

/** The chat page's notice (what the page says above the messages when it refuses a message, with Dismiss). */
export function notice(page: Page): Locator {
  return page.getByRole('alert').filter({ has: page.getByRole('button', { name: 'Dismiss', exact: true }) });
}

/**
 * Types `text` in the composer and sends it, then waits until the page has taken it: its message drawn (one user turn
 * more), or refused (the notice says why, and the message is back in the composer). What is read next (the last
 * answer) is then this message's. `waitForTurn: false` only clicks Send: for a message the page holds back meanwhile
 * (files still uploading, a conversation still being opened).
 */
export async function send(page: Page, text: string, { waitForTurn = true } = {}): Promise<void> {
  const before = await userTurns(page).count();
  await composer(page).fill(text);
  await sendButton(page).click();
  if (!waitForTurn) return;
  await expect
    .poll(
      async () =>
        (await userTurns(page).count()) === before + 1 ||
        ((await notice(page).isVisible()) && (await composer(page).inputValue()) === text),
      { message: `"${text}" should be drawn as a new message (${before} before it), or refused with a notice` },
    )
    .toBe(true);
}

/** Waits until the last assistant turn is no longer streaming; returns it. */
export async function lastAnswer(page: Page): Promise<Locator> {
  const turn = assistantTurns(page).last();
  await expect(turn).toHaveAttribute('aria-busy', 'false');
  return turn;
}

/** The element a disclosure button (aria-controls) opens. */
export async function panelOf(button: Locator): Promise<Locator> {
  const id = await button.getAttribute('aria-controls');
  if (!id) throw new Error('the button controls no element (aria-controls is missing)');
  return button.page().locator(`[id="${id}"]`);
}

/**
 * Stops the run while the last turn's call of `tool` runs (`afterMs` into it, time for the tool to get going), then
 * checks its card says it was stopped while running, not that it did not run; returns the card's opened panel.
 */
export async function stopWhileToolRuns(page: Page, tool: RegExp, afterMs: number): Promise<Locator> {
  const turn = assistantTurns(page).last();
  const card = turn.getByRole('button', { name: tool });
  await expect(card).toContainText('running');
  await page.waitForTimeout(afterMs);
  await stopButton(page).click();
  await expect(turn).toHaveAttribute('aria-busy', 'false');
  await expect(card).toContainText('stopped');
  await card.click();
  const panel = await panelOf(card);
  await expect(panel).toContainText('Stopped while running');
  await expect(panel).not.toContainText('Not run');
  return panel;
}
