// Qwen-Agent's special-purpose agents picked in the page's settings: a TIRMathAgent turn runs its python block in the
// sandbox and shows the output in the answer, with a python_executor card; an ArticleAgent turn writes a whole article
// in steps after /title.
import { expect, test } from '@playwright/test';
import { lastAnswer, openChat, panelOf, send } from './support/chat';
import { chatRequests, setScenario } from './support/model';

test('TIRMathAgent: the python block runs, its output is in the answer and in the next request', async ({ page }) => {
  test.setTimeout(90_000); // a sandboxed interpreter starts for the block
  await setScenario({
    rules: [
      {
        when: { anyIncludes: 'tir-heron' },
        reply: [
          { content: 'Sum them.\n```python\nprint(sum(range(1, 101)))\n```\n```output\n999\n```' },
          { content: 'The sum is 5050.' },
        ],
      },
    ],
  });
  await openChat(page);
  await page.getByRole('button', { name: 'Settings' }).click();
  // The agent's kind waits under Advanced.
  await page.getByText('Advanced', { exact: true }).click();
  await page.getByRole('combobox', { name: 'Agent' }).selectOption('tir');
  // TIR writes code blocks instead of calling tools: the function-call mode does not apply.
  await expect(page.getByRole('combobox', { name: 'Function-call mode' })).toBeDisabled();
  await send(page, 'What is 1 + 2 + ... + 100? tir-heron');

  const answer = await lastAnswer(page);
  await expect(answer).toContainText('The sum is 5050.');
  await expect(answer).not.toContainText('999');
  const card = answer.getByRole('button', { name: /python_executor/ });
  await card.click();
  await expect(await panelOf(card)).toContainText('"5050"');

  const sent = await chatRequests();
  expect(sent).toHaveLength(2);
  expect(sent[0]!.body.stop).toEqual(['```output']);
  expect(JSON.stringify(sent[1]!.body.messages)).toContain('```output\\n5050\\n```');
});

test('ArticleAgent: /title writes the outline, then one section per heading', async ({ page }) => {
  await setScenario({
    replies: [
      { content: 'Otters are playful river animals.' },
      { content: 'I. Where otters live\nII. What otters eat' },
      { content: 'Rivers and coasts.' },
      { content: 'Fish and crabs.' },
    ],
  });
  await openChat(page);
  await page.getByRole('button', { name: 'Settings' }).click();
  // The agent's kind waits under Advanced.
  await page.getByText('Advanced', { exact: true }).click();
  await page.getByRole('combobox', { name: 'Agent' }).selectOption('article');
  await send(page, '/title Otters');

  const answer = await lastAnswer(page);
  await expect(answer).toContainText('The outline:');
  await expect(answer).toContainText('Rivers and coasts.');
  await expect(answer).toContainText('Fish and crabs.');
  const sent = await chatRequests();
  expect(sent).toHaveLength(4);
  expect(JSON.stringify(sent[3]!.body.messages)).toContain('heading number 2: II. What otters eat');
});

test('ArticleAgent: an outline without Roman-numeral headings ends with a sentence saying why no text follows', async ({
  page,
}) => {
  await setScenario({
    replies: [
      { content: 'Otters are playful river animals.' },
      { content: '1. Where otters live\n2. What otters eat' },
    ],
  });
  await openChat(page);
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByText('Advanced', { exact: true }).click();
  await page.getByRole('combobox', { name: 'Agent' }).selectOption('article');
  await send(page, '/title Otters');

  const answer = await lastAnswer(page);
  await expect(answer).toContainText('What otters eat'); // the outline (a numbered list on the page)
  await expect(answer).toContainText(
    'No text was written: only headings numbered with Roman numerals (I., II., …) are written out, and the outline has none.',
  );
  await expect(answer).not.toContainText('The text:');
  expect(await chatRequests()).toHaveLength(2);
});
