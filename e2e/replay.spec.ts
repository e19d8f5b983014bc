import { expect, test } from '@playwright/test';
import { assistantTurns, lastAnswer, openChat, send } from './support/chat';
import { seriousViolations } from './support/axe';
import { chatRequests, setScenario } from './support/model';

test('replaying a run with an edited tool result changes the answer, and the two runs compare', async ({ page }) => {
  const word = 'replay-kestrel';
  await setScenario({
    rules: [
      // The model answers from what it is sent: an edited tool result gives another answer.
      { when: { anyIncludes: 'EDITED-99' }, reply: { content: 'The tool said EDITED-99.' } },
      {
        when: { lastUserIncludes: word },
        reply: [
          { toolCalls: [{ name: 'calculator', arguments: '{"expression": "6*7"}' }] },
          { content: 'The tool said 42.' },
        ],
      },
    ],
  });
  await openChat(page);
  await send(page, `What is six times seven? ${word}`);
  await expect(await lastAnswer(page)).toContainText('The tool said 42.');

  await (await lastAnswer(page)).getByRole('button', { name: 'Replay run' }).click();
  const dialog = page.getByRole('dialog', { name: 'Replay run' });
  await expect(dialog.getByRole('combobox', { name: 'From iteration' })).toHaveValue('2');
  const form = dialog.getByRole('form', { name: 'Replay from here' });
  const result = form.getByRole('textbox', { name: 'Result of calculator (iteration 1)' });
  await expect(result).toHaveValue('42');
  expect(await seriousViolations(page)).toEqual([]);
  await result.fill('EDITED-99');
  await form.getByRole('button', { name: 'Replay', exact: true }).click();
  await expect(dialog).toBeHidden();

  const answer = await lastAnswer(page);
  await expect(answer).toContainText('The tool said EDITED-99.');
  await expect(answer.getByRole('group', { name: 'Answer 2 of 2' })).toContainText('2 / 2');
  await expect(assistantTurns(page)).toHaveCount(1);
  // Iteration 1 was not asked again; iteration 2 was sent the edited result.
  const sent = await chatRequests();
  expect(sent).toHaveLength(3);
  expect(sent[2]!.body.messages.find((m: { role: string }) => m.role === 'tool').content).toBe('EDITED-99');
  // The copied call keeps its card, now with the edited result.
  await answer.getByRole('button', { name: /calculator/ }).click();
  await expect(answer).toContainText('EDITED-99');

  await answer.getByRole('button', { name: 'Compare runs' }).click();
  const compare = page.getByRole('dialog', { name: 'Compare runs' });
  await expect(compare.getByRole('combobox', { name: 'First run' })).toContainText('Run 1');
  const answers = compare.getByRole('region', { name: 'Answers' });
  await expect(answers.locator('del')).toContainText('42');
  await expect(answers.locator('ins')).toContainText('EDITED-99');
  await expect(compare.getByRole('region', { name: 'Tool calls' }).locator('ins')).toContainText('EDITED-99');
  expect(await seriousViolations(page)).toEqual([]);
  await compare.getByRole('button', { name: 'Close' }).click();

  // The replay is the turn's answer after a reload too; the first answer is still one click away.
  await page.reload();
  const reloaded = await lastAnswer(page);
  await expect(reloaded).toContainText('The tool said EDITED-99.');
  await reloaded.getByRole('button', { name: 'Previous answer' }).click();
  await expect(reloaded).toContainText('The tool said 42.');
  await expect(reloaded.getByRole('group', { name: 'Answer 1 of 2' })).toContainText('1 / 2');
  await expect(reloaded.getByRole('button', { name: 'Previous answer' })).toBeDisabled();
  expect(await seriousViolations(page)).toEqual([]);
  await reloaded.getByRole('button', { name: 'Next answer' }).click();
  await expect(reloaded).toContainText('The tool said EDITED-99.');
  await expect(reloaded.getByRole('button', { name: 'Next answer' })).toBeDisabled();
});

test('a replay says on its answer which run and step it started from, to a screen reader too, in both languages', async ({
  page,
  browser,
  baseURL,
}) => {
  const word = 'replay-plover';
  await setScenario({
    rules: [
      {
        when: { lastUserIncludes: word },
        reply: [
          { toolCalls: [{ name: 'calculator', arguments: '{"expression": "6*7"}' }] },
          { content: 'Plovers count 42.' },
        ],
      },
    ],
  });
  await openChat(page);
  await send(page, `Count the plovers ${word}`);
  const answer = await lastAnswer(page);
  await expect(answer).toContainText('Plovers count 42.');
  await expect(answer.locator('[data-replay-label]')).toHaveCount(0);

  // From the keyboard: Replay run, from iteration 2 as offered; then that replay again, from iteration 1.
  const dialog = page.getByRole('dialog', { name: 'Replay run' });
  const replay = async (from?: string) => {
    await answer.getByRole('button', { name: 'Replay run' }).press('Enter');
    if (from) await dialog.getByRole('combobox', { name: 'From iteration' }).selectOption(from);
    const form = dialog.getByRole('form', { name: 'Replay from here' });
    await form.getByRole('button', { name: 'Replay', exact: true }).press('Enter');
    await expect(dialog).toBeHidden();
  };
  await replay();
  await expect(answer.getByRole('group', { name: 'Answer 2 of 2' })).toBeVisible();
  await expect(answer).toHaveAttribute('aria-busy', 'false');
  await expect(answer).toHaveAccessibleDescription('Replay of run 1 from step 2');
  await expect(answer.getByText('Replay of run 1 from step 2')).toBeVisible();
  await replay('1');
  await expect(answer.getByRole('group', { name: 'Answer 3 of 3' })).toBeVisible();
  await expect(answer).toHaveAttribute('aria-busy', 'false');
  await expect(answer).toHaveAccessibleDescription('Replay of run 2 from step 1');
  expect(await seriousViolations(page)).toEqual([]);

  // Each answer keeps its own: the second its label, the first (no replay) none.
  await answer.getByRole('button', { name: 'Previous answer' }).press('Enter');
  await expect(answer.getByRole('group', { name: 'Answer 2 of 3' })).toBeVisible();
  await expect(answer).toHaveAccessibleDescription('Replay of run 1 from step 2');
  await answer.getByRole('button', { name: 'Previous answer' }).press('Enter');
  await expect(answer.getByRole('group', { name: 'Answer 1 of 3' })).toBeVisible();
  await expect(answer.locator('[data-replay-label]')).toHaveCount(0);

  // Read back from what the run stored: the conversation opened anew, in Chinese.
  const zh = await browser.newContext({ locale: 'zh-CN', baseURL });
  try {
    const other = await zh.newPage();
    await other.goto(page.url());
    const latest = other.locator('article[data-role="assistant"]').last();
    await expect(latest).toHaveAccessibleDescription('运行 2 从第 1 步起的重放');
    await expect(latest.getByText('运行 2 从第 1 步起的重放')).toBeVisible();
  } finally {
    await zh.close();
  }
});
