import { expect, test } from '@playwright/test';
import { lastAnswer, openChat, send } from './support/chat';
import { chatRequests, setScenario } from './support/model';
import { outsideScreen } from './support/viewport';

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

test.describe('on the Chinese page, on a 390 px phone', () => {
  test.use({ locale: 'zh-CN', viewport: { width: 390, height: 844 } });

  test('a model server error mid-answer is said in Chinese, with only the server’s own words as they came', async ({
    page,
  }) => {
    await setScenario({
      rules: [
        {
          when: { lastUserIncludes: 'down-ibis' },
          reply: { fault: { kind: 'status', status: 500, body: { error: { message: 'the GPU fell over' } } } },
        },
        {
          when: { lastUserIncludes: 'cut-ibis' },
          reply: { content: 'Ibises probe the mud with', chunkSize: 5, fault: { kind: 'cut', afterChunks: 3 } },
        },
      ],
    });
    await page.goto('/');
    await expect(page.getByRole('button', { name: /^切换到(深色|浅色)主题$/ })).toBeVisible(); // hydrated
    const ask = async (text: string) => {
      const before = await page.locator('article[data-role="assistant"]').count();
      await page.getByRole('textbox', { name: '消息', exact: true }).fill(text);
      await page.getByRole('textbox', { name: '消息', exact: true }).press('Enter');
      await expect(page.locator('article[data-role="assistant"]')).toHaveCount(before + 1);
    };
    await ask('你在吗？down-ibis');
    const failed = (await lastAnswer(page)).getByRole('alert');
    await expect(failed).toContainText('模型服务器返回了错误 500：the GPU fell over');
    await expect(failed).not.toContainText('Model server error');
    await expect(failed.getByRole('button', { name: '重试' })).toBeVisible();

    await ask('讲讲朱鹭 cut-ibis');
    const cut = (await lastAnswer(page)).getByRole('alert');
    await expect(cut).toContainText('与模型服务器的连接中断了：terminated');
    await expect(cut).not.toContainText('The connection to the model server failed');
    expect(await outsideScreen(page, { width: 390, height: 844 }, cut)).toEqual([]);
  });
});
