// Conversation titles as chat apps make them: the model names a new conversation from its first exchange once the
// answer is in (the server's default, CONVERSATION_TITLES=model, on a server of this test's own), the list is grouped
// by date, and the browser tab is named after the open conversation. In both languages.
import { expect, test } from '@playwright/test';
import { freePort, kill, startApp } from './support/app-process';
import { conversations, lastAnswer, openChat, send } from './support/chat';
import { chatRequests, setScenario } from './support/model';

test('the model titles a conversation after its first answer; the list groups it under Today; the tab is named after it', async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000); // a second server starts
  const port = await freePort();
  const app = await startApp(port, testInfo.outputPath('data'), { CONVERSATION_TITLES: 'model' });
  try {
    await setScenario({
      rules: [
        { when: { anyIncludes: 'You name conversations' }, reply: { content: 'Tapir Feeding Habits' } },
        { when: { lastUserIncludes: 'title-tapir' }, reply: { content: 'Mostly leaves and fruit.' } },
      ],
    });
    await openChat(page, `http://127.0.0.1:${port}/`);
    await expect(page).toHaveTitle('Agent Studio');
    await send(page, 'What do tapirs eat all day? title-tapir');
    await expect(await lastAnswer(page)).toContainText('Mostly leaves and fruit.');

    const nav = conversations(page);
    const today = nav.getByRole('list', { name: 'Today' });
    await expect(today.getByRole('button', { name: 'Tapir Feeding Habits', exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Tapir Feeding Habits');
    await expect(page).toHaveTitle('Tapir Feeding Habits – Agent Studio');
    // The title was asked once the answer was in: after the answer's request.
    const asked = (await chatRequests()).map((r) => JSON.stringify(r.body.messages).includes('You name conversations'));
    expect(asked).toEqual([false, true]);

    // In Chinese, the group is 今天.
    await page.getByRole('combobox', { name: 'Language', exact: true }).selectOption('zh-CN');
    await expect(
      page
        .getByRole('navigation', { name: '对话' })
        .getByRole('list', { name: '今天' })
        .getByRole('button', { name: 'Tapir Feeding Habits', exact: true }),
    ).toBeVisible();

    // A new chat: the tab goes back to the app's name.
    await page.getByRole('button', { name: '+ 新对话' }).click();
    await expect(page).toHaveTitle('Agent Studio');
  } finally {
    await kill(app);
  }
});
