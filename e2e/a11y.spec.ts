import { expect, test } from '@playwright/test';
import { seriousViolations } from './support/axe';
import { lastAnswer, openChat, send } from './support/chat';
import { setScenario } from './support/model';

test('the chat page with a finished tool run has no serious accessibility violations, light and dark', async ({
  page,
}) => {
  await setScenario({
    rules: [
      {
        when: { lastUserIncludes: 'axe-heron' },
        reply: [
          { reasoning: 'Multiply first.', toolCalls: [{ name: 'calculator', arguments: '{"expression": "6*7"}' }] },
          { content: 'It is **42**.\n\n| a | b |\n|---|---|\n| 6 | 7 |\n\n```python\nprint(6 * 7)\n```' },
        ],
      },
    ],
  });
  await page.emulateMedia({ colorScheme: 'light' });
  await openChat(page);
  await send(page, 'Multiply six by seven axe-heron');
  const answer = await lastAnswer(page);
  const card = answer.getByRole('button', { name: /calculator/ });
  await card.click();
  await expect(card).toHaveAttribute('aria-expanded', 'true');
  await answer.getByRole('button', { name: /Thought|Thinking/ }).click();
  await page.getByRole('button', { name: 'Settings' }).click();

  await expect(page.locator('html')).not.toHaveClass(/dark/);
  expect(
    await page
      .getByRole('checkbox')
      .first()
      .evaluate((el) => getComputedStyle(el).colorScheme),
  ).toBe('light');
  const light = await seriousViolations(page);
  expect(light, `light theme:\n${light.join('\n')}`).toEqual([]);

  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await expect(page.locator('html')).toHaveClass(/dark/);
  // The browser draws its own controls (the settings' checkboxes, date pickers, scroll bars) dark as well.
  const box = page.getByRole('checkbox').first();
  await expect(box).toBeVisible();
  expect(await box.evaluate((el) => getComputedStyle(el).colorScheme)).toBe('dark');
  const dark = await seriousViolations(page);
  expect(dark, `dark theme:\n${dark.join('\n')}`).toEqual([]);
});
