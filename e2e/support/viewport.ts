// What does not fit a phone's screen: the page wider than the screen, and anything drawn (or cut) outside it.
// A phone browser widens its layout viewport to fit a page that is too wide, so the width is checked against the
// screen's, not against innerWidth.
import type { Locator, Page } from '@playwright/test';

/** The page's width against the screen's: `scrollWidth` and `innerWidth` both at most `width`. */
export async function pageWidth(page: Page): Promise<{ scrollWidth: number; innerWidth: number }> {
  return page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
}

/**
 * Elements drawn outside the screen's width, or cut at its edge (clipped by an ancestor). An element inside a box
 * made to scroll sideways (a code block, a table's `overflow-x-auto` wrapper) is reachable by scrolling it, so only
 * the box itself counts; a box that scrolls sideways only because it scrolls down (CSS makes `overflow-y: auto`
 * scroll both ways) is no excuse. With
 * `within` (a popup, a dialog, the opened menu) its elements must also fit the screen's height, unless a box of it
 * scrolls vertically. One readable line per element, the tag, its classes and its text.
 */
export async function outsideScreen(
  page: Page,
  screen: { width: number; height: number },
  within?: Locator,
): Promise<string[]> {
  const root = within ? await within.elementHandle() : await page.locator('body').elementHandle();
  if (!root) throw new Error('nothing to measure: the element is not on the page');
  return root.evaluate(
    (top, { width, height, vertical }) => {
      const scrolls = (v: string) => v === 'auto' || v === 'scroll';
      const sideways = (a: Element, s: CSSStyleDeclaration) =>
        scrolls(s.overflowX) &&
        (a.tagName === 'PRE' || /(^|\s)overflow-(x-)?(auto|scroll)(\s|$)/.test(a.getAttribute('class') ?? ''));
      const describe = (el: Element) =>
        `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} class="${String(el.getAttribute('class') ?? '').slice(0, 60)}"> "${(el.textContent ?? '').trim().slice(0, 40)}"`;
      const out: string[] = [];
      for (const el of [top, ...top.querySelectorAll('*')]) {
        const box = el.getBoundingClientRect();
        if (box.width === 0 && box.height === 0) continue;
        const style = getComputedStyle(el);
        if (style.visibility === 'hidden' || style.display === 'contents') continue;
        let x = true;
        let y = vertical;
        // Inside a box hidden on purpose (Tailwind's sr-only: 1 px, clipped), nothing is drawn at all.
        if (el.parentElement?.closest('.sr-only')) continue;
        // A box that scrolls keeps what it holds reachable (its own box is checked as an element of its own).
        for (let a = el.parentElement; a && (x || y); a = a.parentElement) {
          const s = getComputedStyle(a);
          if (sideways(a, s)) x = false;
          if (scrolls(s.overflowY)) y = false;
          if (a === top) break;
        }
        const where: string[] = [];
        if (x && (box.left < -1 || box.right > width + 1))
          where.push(`x ${Math.round(box.left)}..${Math.round(box.right)} of ${width}`);
        if (y && (box.top < -1 || box.bottom > height + 1))
          where.push(`y ${Math.round(box.top)}..${Math.round(box.bottom)} of ${height}`);
        if (where.length) out.push(`${describe(el)}: ${where.join(', ')}`);
      }
      return out;
    },
    { ...screen, vertical: Boolean(within) },
  );
}
