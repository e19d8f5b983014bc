import { expect, test } from '@playwright/test';
import { composer, conversations, lastAnswer, openChat, send } from './support/chat';
import { setScenario } from './support/model';

test.use({ viewport: { width: 375, height: 800 }, isMobile: true, hasTouch: true });

test('at phone width the thread and composer are usable and the conversation list opens from Menu', async ({
  page,
}) => {
  await setScenario({
    rules: [{ when: { lastUserIncludes: 'phone-pangolin' }, reply: { content: 'Pangolins roll into balls.' } }],
  });
  await openChat(page);
  await expect(conversations(page)).toBeHidden();
  await expect(composer(page)).toBeVisible();

  await send(page, 'What do pangolins do? phone-pangolin');
  const answer = await lastAnswer(page);
  await expect(answer).toBeInViewport();
  await expect(answer).toContainText('Pangolins roll into balls.');
  await expect(composer(page)).toBeInViewport();
  // Nothing wider than the screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  await page.getByRole('button', { name: 'Menu' }).click();
  const nav = conversations(page);
  await expect(nav).toBeVisible();
  await nav.getByRole('button', { name: '+ New chat' }).click();
  await expect(nav).toBeHidden();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('New chat');

  await page.getByRole('button', { name: 'Menu' }).click();
  await nav.getByRole('button', { name: 'What do pangolins do? phone-pangolin', exact: true }).click();
  await expect(nav).toBeHidden();
  await expect(await lastAnswer(page)).toContainText('Pangolins roll into balls.');
});

test('on a phone, Escape closes the menu and the settings that cover the screen, and the focus goes back', async ({
  page,
}) => {
  await openChat(page);
  const menu = page.getByRole('button', { name: 'Menu' });
  await menu.press('Enter');
  await expect(conversations(page)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Close', exact: true })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(conversations(page)).toBeHidden();
  await expect(menu).toBeFocused();

  const settings = page.getByRole('button', { name: 'Settings' });
  await settings.press('Enter');
  const panel = page.locator('#settings-panel');
  await expect(panel).toBeVisible();
  await expect(page.getByRole('button', { name: 'Close settings' })).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(settings).toBeFocused();
});
