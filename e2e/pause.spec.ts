import { expect, test } from '@playwright/test';
import { assistantTurns, lastAnswer, openChat, panelOf, send, stopButton } from './support/chat';
import { seriousViolations } from './support/axe';
import { chatRequests, setScenario } from './support/model';

test('with pause before tools on, the run stops before the call; edited arguments run and the answer follows', async ({
  page,
}) => {
  const word = 'pause-marten';
  await setScenario({
    rules: [
      {
        when: { lastUserIncludes: word },
        reply: [
          { toolCalls: [{ name: 'calculator', arguments: '{"expression": "6*7"}' }] },
          { content: `Done (${word}).` },
        ],
      },
    ],
  });
  await openChat(page);
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('checkbox', { name: /Pause before tools/ }).check();
  await send(page, `What is six times seven? ${word}`);

  const turn = assistantTurns(page).last();
  const approval = turn.getByRole('group', { name: 'Approve calculator' });
  await expect(approval).toBeVisible();
  await expect(turn.getByRole('button', { name: /calculator/ })).toContainText('awaiting approval');
  await expect(stopButton(page)).toBeVisible();
  expect(await chatRequests()).toHaveLength(1);
  expect(await seriousViolations(page)).toEqual([]);

  const args = approval.getByRole('textbox', { name: 'Arguments' });
  await expect(args).toHaveValue(/"expression": "6\*7"/);
  await args.fill('{"expression": "2+3"}');
  await approval.getByRole('button', { name: 'Run', exact: true }).click();

  const answer = await lastAnswer(page);
  await expect(answer).toContainText(`Done (${word}).`);
  await expect(approval).toBeHidden();
  const card = answer.getByRole('button', { name: /calculator/ });
  await card.click();
  const panel = await panelOf(card);
  await expect(panel).toContainText('"expression": "2+3"');
  await expect(panel.getByText('5', { exact: true })).toBeVisible();
  await expect(answer).toContainText('with your edited arguments');
  const sent = await chatRequests();
  expect(sent).toHaveLength(2);
  expect(sent[1]!.body.messages.find((m: { role: string }) => m.role === 'tool').content).toBe('5');
});

test('while paused, Skip tells the model the call was skipped, and Stop still stops', async ({ page }) => {
  const word = 'pause-stoat';
  await setScenario({
    rules: [
      {
        when: { lastUserIncludes: word },
        reply: [
          { toolCalls: [{ name: 'calculator', arguments: '{"expression": "1+1"}' }] },
          { content: 'Skipped, fine.' },
          { toolCalls: [{ name: 'calculator', arguments: '{"expression": "2+2"}' }] },
        ],
      },
    ],
  });
  await openChat(page);
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('checkbox', { name: /Pause before tools/ }).check();
  await send(page, `Add one and one ${word}`);
  await assistantTurns(page)
    .last()
    .getByRole('group', { name: 'Approve calculator' })
    .getByRole('button', { name: 'Skip' })
    .click();
  const answer = await lastAnswer(page);
  await expect(answer).toContainText('Skipped, fine.');
  await expect(answer).toContainText('Skipped by you');
  expect((await chatRequests())[1]!.body.messages.find((m: { role: string }) => m.role === 'tool').content).toContain(
    'skipped',
  );

  await send(page, `Now two and two ${word}`);
  await expect(assistantTurns(page).last().getByRole('group', { name: 'Approve calculator' })).toBeVisible();
  await stopButton(page).click();
  const stopped = await lastAnswer(page);
  await expect(stopped).toContainText(/stopped/i);
  await expect(stopButton(page)).toHaveCount(0);
});
