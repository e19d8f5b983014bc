import { expect, test } from '@playwright/test';
import { lastAnswer, openChat, panelOf, send } from './support/chat';
import { chatRequests, setScenario } from './support/model';

test('a ReAct run shows its Thought, a calculator card with the result, and only the final answer', async ({
  page,
}) => {
  await setScenario({
    rules: [
      {
        when: { lastUserIncludes: 'react-puffin' },
        reply: [
          { content: 'I should add the numbers.\nAction: calculator\nAction Input: {"expression": "2+2"}' },
          { content: 'I now know the sum.\nFinal Answer: 4' },
        ],
      },
    ],
  });
  await openChat(page);
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByText('Advanced', { exact: true }).click();
  await page.getByRole('combobox', { name: 'Agent' }).selectOption('react');
  await send(page, 'What is two plus two? react-puffin');

  const answer = await lastAnswer(page);
  const thought = answer.getByRole('button', { name: /Thought/ }).first();
  await expect(thought).toBeVisible();
  await thought.click();
  await expect(await panelOf(thought)).toContainText('I should add the numbers.');

  const card = answer.getByRole('button', { name: /calculator/ });
  await expect(card).toHaveAttribute('aria-expanded', 'false');
  await card.click();
  const panel = await panelOf(card);
  await expect(panel).toContainText('"expression": "2+2"');
  await expect(panel.getByText('4', { exact: true })).toBeVisible();

  // The answer itself is just "4": the transcript's markers never show as text.
  const text = answer.locator('p', { hasText: /^4$/ });
  await expect(text).toBeVisible();
  await expect(answer).not.toContainText('Action Input:');
  await expect(answer).not.toContainText('Final Answer:');
  await expect(answer).not.toContainText('Observation:');

  // The model was driven in ReAct text, not with the tools API.
  const sent = await chatRequests();
  expect(sent).toHaveLength(2);
  expect(sent[0]?.body.tools).toBeUndefined();
  expect(JSON.stringify(sent[1]?.body.messages)).toContain('Observation: 4');
});

test('a ReAct reply that skips the format (no Action, no Final Answer) shows as the answer, also after a reload', async ({
  page,
}) => {
  await setScenario({
    rules: [
      {
        when: { lastUserIncludes: 'react-wren' },
        reply: { content: 'Paris is the capital of France.', chunkSize: 5 },
      },
    ],
  });
  await openChat(page);
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByText('Advanced', { exact: true }).click();
  await page.getByRole('combobox', { name: 'Agent' }).selectOption('react');
  await send(page, 'What is the capital of France? react-wren');

  const shown = async () => {
    const answer = await lastAnswer(page);
    await expect(answer.locator('p', { hasText: /^Paris is the capital of France\.$/ })).toBeVisible();
    await expect(answer).not.toContainText('The model returned no answer.');
    await expect(answer.getByRole('button', { name: /Thought/ })).toHaveCount(0);
  };
  await shown();
  await page.reload();
  await shown();
});
