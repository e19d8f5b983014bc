// On a phone the chat page's menu and its settings cover the screen. The keyboard stays in what covers it: Tab goes
// round the menu (or the settings) and never to the controls under it, which a user cannot see (before, the tenth Tab
// left the menu for the hidden header, suggestions and composer). Escape closes it, and the focus goes back to the
// button that opened it. In both languages.
import { expect, test, type Page } from '@playwright/test';
import { hydrated } from './support/hydrated';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

/** Where each of `presses` Tabs puts the focus: inside `cover` (true), on nothing (the page itself), or under it. */
async function tabsStayIn(page: Page, cover: string, presses: number): Promise<string[]> {
  const outside: string[] = [];
  for (let i = 0; i < presses; i++) {
    await page.keyboard.press('Tab');
    const where = await page.evaluate((selector) => {
      const active = document.activeElement;
      if (!active || active === document.body || document.querySelector(selector)?.contains(active)) return '';
      return `${active.tagName.toLowerCase()} "${(active.getAttribute('aria-label') ?? active.textContent ?? '').trim().slice(0, 40)}"`;
    }, cover);
    if (where) outside.push(`Tab ${i + 1}: ${where}`);
  }
  return outside;
}

for (const [lang, words] of [
  ['en-US', { menu: 'Menu', settings: 'Settings' }],
  ['zh-CN', { menu: '菜单', settings: '设置' }],
] as const) {
  test.describe(lang, () => {
    test.use({ locale: lang });

    test(`Tab stays in the phone menu and in the phone settings (${lang})`, async ({ page }) => {
      await page.goto('/');
      const menu = page.getByRole('button', { name: words.menu, exact: true });
      await hydrated(menu);
      await menu.focus();
      await page.keyboard.press('Enter');
      await expect(page.locator('aside')).toBeVisible();
      expect(await tabsStayIn(page, 'aside', 30)).toEqual([]);
      await page.keyboard.press('Escape');
      await expect(menu).toBeFocused();

      const settings = page.getByRole('button', { name: words.settings, exact: true });
      await settings.focus();
      await page.keyboard.press('Enter');
      await expect(page.locator('#settings-panel')).toBeVisible();
      expect(await tabsStayIn(page, '#settings-panel', 60)).toEqual([]);
      await page.keyboard.press('Escape');
      await expect(settings).toBeFocused();
    });
  });
}
