import { expect, test } from '@playwright/test';
import { lastAnswer, openChat, send } from './support/chat';
import { chatRequests, setScenario } from './support/model';

test('a model server error shows in the turn as an alert, and Retry answers once the server is back', async ({
  page,
}) => {
  await setScenario({
    rules: [{ when: { lastUserIncludes: 'down-marmot' }, reply: { fault: { kind: 'status', status: 500 } } }],
  });
  await openChat(page);
  await send(page, 'Are you there? down-marmot');

  const turn = await lastAnswer(page);
  const alert = turn.getByRole('alert');
  await expect(alert).toContainText('500');
  await expect(alert).toContainText('Scripted error');
  expect(await chatRequests()).toHaveLength(1); // LLM_MAX_RETRIES=0 in playwright.config.ts
  // One way to try again: the alert's Retry, no Regenerate beside it.
  await expect(turn.getByRole('button', { name: /^(Retry|Regenerate)$/ })).toHaveCount(1);

  await setScenario({
    rules: [{ when: { lastUserIncludes: 'down-marmot' }, reply: { content: 'Back online, marmot.' } }],
  });
  await alert.getByRole('button', { name: 'Retry' }).click();
  const retried = await lastAnswer(page);
  await expect(retried).toContainText('Back online, marmot.');
  await expect(retried.getByRole('alert')).toHaveCount(0);
  // Retry answered the same message, it did not add one; the failed answer stays reachable.
  await expect(page.locator('article[data-role="user"]')).toHaveCount(1);
  await expect(retried.getByRole('group', { name: 'Answer 2 of 2' })).toBeVisible();
  expect(await chatRequests()).toHaveLength(1);
});

test('a model that answers with nothing: the turn says so, with Regenerate to ask again', async ({ page }) => {
  await setScenario({
    rules: [
      { when: { lastUserIncludes: 'silent-heron' }, reply: { content: '' } },
      { when: {}, reply: { content: 'Herons stand still to fish.' } },
    ],
  });
  await openChat(page);
  await send(page, 'Tell me about herons silent-heron');

  const turn = await lastAnswer(page);
  await expect(turn).toContainText('The model returned no answer.');
  // Nothing failed: no alert, and no Copy answer for an answer that is not there.
  await expect(turn.getByRole('alert')).toHaveCount(0);
  await expect(turn.getByRole('button', { name: 'Copy answer' })).toHaveCount(0);

  await setScenario({ rules: [{ when: {}, reply: { content: 'Herons stand still to fish.' } }] });
  await turn.getByRole('button', { name: 'Regenerate' }).click();
  const again = await lastAnswer(page);
  await expect(again).toContainText('Herons stand still to fish.');
  await expect(again).not.toContainText('The model returned no answer.');
});
