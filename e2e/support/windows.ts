// Browser windows side by side, all in view, one of them focused: what a user with two windows open (or a phone
// beside a laptop) has. Playwright tells every page it has the focus (its focus emulation, which it turns on again
// with each page load); focusOn turns it off in the windows it is given, so that only the one brought to the front
// has the focus, as with real windows, and the others are in view without it (and are told so by a blur event).
import { expect, type CDPSession, type Page } from '@playwright/test';

const sessions = new WeakMap<Page, CDPSession>();

async function realFocus(page: Page): Promise<void> {
  let cdp = sessions.get(page);
  if (!cdp) {
    cdp = await page.context().newCDPSession(page);
    sessions.set(page, cdp);
  }
  await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: false });
}

/** What the page itself says of its focus and visibility. */
export function windowState(page: Page): Promise<{ focused: boolean; visibility: DocumentVisibilityState }> {
  return page.evaluate(() => ({ focused: document.hasFocus(), visibility: document.visibilityState }));
}

/** Brings `page` to the front and checks it has the focus while each of `others` (of the same browser context: each
 *  context has a window of its own at its front) is in view without it. Call it again after one of them loads a
 *  page. */
export async function focusOn(page: Page, ...others: Page[]): Promise<void> {
  for (const p of [page, ...others]) await realFocus(p);
  await page.bringToFront();
  await expect.poll(() => windowState(page)).toEqual({ focused: true, visibility: 'visible' });
  // Each window's renderer hears of the focus it lost after the front one heard of its own.
  for (const other of others)
    await expect.poll(() => windowState(other)).toEqual({ focused: false, visibility: 'visible' });
}

/** The page is in view (visible) and does not have the focus. */
export async function expectInViewUnfocused(page: Page): Promise<void> {
  expect(await windowState(page)).toEqual({ focused: false, visibility: 'visible' });
}
