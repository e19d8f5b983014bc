import { expect, test, type Page } from '@playwright/test';
import { lastAnswer, openChat, send } from './support/chat';
import { setScenario } from './support/model';

const AXE = require.resolve('axe-core/axe.min.js');

interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/** Serious and critical violations, one readable line per failing element. */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run()).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.map(
        (n) => `[${v.impact}] ${v.id}: ${v.help} at ${JSON.stringify(n.target)}\n    ${n.failureSummary ?? ''}`,
      ),
    );
}

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
  const light = await seriousViolations(page);
  expect(light, `light theme:\n${light.join('\n')}`).toEqual([]);

  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await expect(page.locator('html')).toHaveClass(/dark/);
  const dark = await seriousViolations(page);
  expect(dark, `dark theme:\n${dark.join('\n')}`).toEqual([]);
});
