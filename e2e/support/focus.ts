// Keyboard-only steps: where the focus is, that a person can see it, and Tab until it reaches a control.
import { expect, type Locator, type Page } from '@playwright/test';

/** What is wrong with the focus, as a person would notice: undefined when it is on something visible on screen. */
export async function focusProblem(page: Page): Promise<string | undefined> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body || el === document.documentElement) return 'the focus is on the page itself';
    const describe = `<${el.tagName.toLowerCase()} ${el.getAttribute('aria-label') ?? (el.textContent ?? '').trim().slice(0, 30)}>`;
    const box = el.getBoundingClientRect();
    if (box.width < 1 || box.height < 1) return `${describe} has no size`;
    if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) return `${describe} is hidden`;
    if (box.bottom <= 0 || box.top >= innerHeight || box.right <= 0 || box.left >= innerWidth)
      return `${describe} is off screen (${Math.round(box.left)},${Math.round(box.top)})`;
    if (el.closest('[inert], [aria-hidden="true"]')) return `${describe} is inside inert or aria-hidden content`;
    return undefined;
  });
}

/** Waits until the focus rests on something visible (a re-render may move it for a moment). */
export async function expectFocusVisible(page: Page): Promise<void> {
  await expect.poll(() => focusProblem(page), { message: 'the focus should be on something visible' }).toBeUndefined();
}

/** Is `target` the focused element? */
export function isFocused(target: Locator): Promise<boolean> {
  return target.evaluate((el) => el === document.activeElement);
}

/** Presses Tab (Shift+Tab with `back`) until `target` has the focus, checking at each step that the focus is on
 *  something visible; fails after `max` presses. */
export async function tabTo(page: Page, target: Locator, opts: { back?: boolean; max?: number } = {}): Promise<void> {
  const max = opts.max ?? 40;
  for (let i = 0; i < max; i++) {
    if ((await target.count()) === 1 && (await isFocused(target))) return;
    await page.keyboard.press(opts.back ? 'Shift+Tab' : 'Tab');
    await expectFocusVisible(page);
  }
  if ((await target.count()) === 1 && (await isFocused(target))) return;
  throw new Error(`${max} presses of ${opts.back ? 'Shift+Tab' : 'Tab'} did not reach ${target}`);
}
