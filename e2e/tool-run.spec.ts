import { expect, test, type Page } from '@playwright/test';
import { conversations, lastAnswer, openChat, panelOf, send } from './support/chat';
import { setScenario } from './support/model';

/** A native tool call (calculator 6*7), then an answer; `word` keeps the rule to this test's messages. */
async function toolRun(page: Page, word: string): Promise<void> {
  await setScenario({
    rules: [
      {
        when: { lastUserIncludes: word },
        reply: [
          { toolCalls: [{ name: 'calculator', arguments: '{"expression": "6*7"}' }] },
          { content: `The product is 42 (${word}).` },
        ],
      },
    ],
  });
  await openChat(page);
  await send(page, `What is six times seven? ${word}`);
}

async function expectCalculatorCard(page: Page, word: string): Promise<void> {
  const answer = await lastAnswer(page);
  const card = answer.getByRole('button', { name: /calculator/ });
  await expect(card).toHaveCount(1);
  await expect(card).toHaveAttribute('aria-expanded', 'false');
  const panel = await panelOf(card);
  await expect(panel).toBeHidden();
  await card.click();
  await expect(card).toHaveAttribute('aria-expanded', 'true');
  await expect(panel).toBeVisible();
  await expect(panel.getByText('Arguments')).toBeVisible();
  await expect(panel).toContainText('"expression": "6*7"');
  await expect(panel.getByText('Result')).toBeVisible();
  await expect(panel.getByText('42', { exact: true })).toBeVisible();
  await expect(answer).toContainText(`The product is 42 (${word}).`);
}

test('a native tool call shows a folded card that opens on its arguments and result, then the answer', async ({
  page,
}) => {
  await toolRun(page, 'toolcard-heron');
  await expectCalculatorCard(page, 'toolcard-heron');
  // The card comes before the answer text, in the order things happened.
  const answer = await lastAnswer(page);
  const text = await answer.innerText();
  expect(text.indexOf('calculator')).toBeLessThan(text.indexOf('The product is 42'));
});

test('a reload shows the same trace, and the conversation is listed newest first', async ({ page }) => {
  await toolRun(page, 'reload-otter');
  await lastAnswer(page);
  await expect(page).toHaveURL(/\?c=[\w-]+/);
  const url = page.url();

  await page.reload();
  await expect(page).toHaveURL(url);
  await expectCalculatorCard(page, 'reload-otter');

  // A second conversation goes above the first one.
  await setScenario({ rules: [{ when: { lastUserIncludes: 'reload-lynx' }, reply: { content: 'Second one.' } }] });
  await page.getByRole('button', { name: '+ New chat' }).click();
  await send(page, 'Another question reload-lynx');
  await expect(await lastAnswer(page)).toContainText('Second one.');
  const titles = conversations(page).getByRole('listitem');
  await expect(titles.nth(0)).toContainText('Another question reload-lynx');
  await expect(titles.nth(1)).toContainText('What is six times seven? reload-otter');
  await expect(titles.nth(0).getByRole('button').first()).toHaveAttribute('aria-current', 'page');
});
