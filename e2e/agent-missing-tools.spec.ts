// An agent file naming a tool this server does not have (exported from a server with an MCP tool or a plugin this one
// lacks): the import saves it and says which tool is missing and what follows; the new chat's welcome lists the
// agent's own tools (not the conversation's defaults); a message to it is refused before the model is asked, naming
// the tool and the fix, in the page's language, with the message left in the composer. English, then Chinese on a
// 390 px phone.
import { expect, test, type Page } from '@playwright/test';
import { composer, openChat, send } from './support/chat';
import { chatRequests } from './support/model';
import { agentFile } from './support/agent-file';
import { outsideScreen } from './support/viewport';

/** The tools the new chat's welcome says the agent has. */
async function welcomeTools(page: Page): Promise<string[]> {
  return page.locator('section[aria-labelledby="welcome-title"] li code').allTextContents();
}

test('an agent naming a tool this server lacks: imported with a notice, its own tools welcomed, a chat refused naming the tool', async ({
  page,
}) => {
  await openChat(page);
  const menu = page.locator('aside');
  await menu
    .getByLabel('Import agent', { exact: true })
    .setInputFiles(agentFile('tooly.json', { name: 'Tooly', tools: ['no_such_tool', 'code_interpreter'] }));
  await expect(menu.getByRole('alert')).toHaveText(
    'Imported “Tooly” from tooly.json, but this server has no tool named no_such_tool: a chat with it is refused until you edit it and untick what is missing (or the server gets it).',
  );

  await menu.getByRole('button', { name: 'Chat with Tooly' }).click();
  await expect(page.getByText('A new conversation with Tooly')).toBeVisible();
  await expect.poll(() => welcomeTools(page)).toEqual(['no_such_tool', 'code_interpreter']);

  const asked = (await chatRequests()).length;
  await send(page, 'hello tooly');
  // The notice (with its dismiss button) says it in the page's words.
  await expect(page.getByRole('alert').filter({ hasText: 'which the agent “Tooly” uses' })).toContainText(
    'This server has no tool named no_such_tool, which the agent “Tooly” uses (no builtin tool, plugin or MCP server gives one). Edit the agent on the Agents page and untick what is missing, or ask the server’s admin to provide it.',
  );
  await expect(composer(page)).toHaveValue('hello tooly');
  expect((await chatRequests()).length).toBe(asked);

  // The specs share one server: its name (Latin) must not stay in the list the Chinese page's checks read.
  await menu.getByRole('button', { name: 'Delete Tooly' }).click();
  await page
    .getByRole('dialog', { name: /^Delete the agent/ })
    .getByRole('button', { name: 'Delete', exact: true })
    .click();
  await expect(menu.getByRole('button', { name: 'Chat with Tooly' })).toBeHidden();
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN', viewport: { width: 390, height: 844 } });

  test('the import notice and the refusal are said in Chinese, on the phone', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('button', { name: /^切换到(深色|浅色)主题$/ })).toBeVisible(); // hydrated
    await page.getByRole('button', { name: '菜单' }).click();
    const menu = page.locator('aside');
    await menu
      .getByLabel('导入智能体', { exact: true })
      .setInputFiles(agentFile('tooly-zh.json', { name: '工具人', tools: ['no_such_tool', 'code_interpreter'] }));
    const notice = menu.getByRole('alert');
    await expect(notice).toHaveText(
      '已从 tooly-zh.json 导入“工具人”，但本服务器没有名为 no_such_tool 的工具：在你编辑它并取消勾选缺少的工具（或服务器提供它）之前，与它的对话会被拒绝。',
    );
    expect(await outsideScreen(page, { width: 390, height: 844 }, notice)).toEqual([]);

    await menu.getByRole('button', { name: '与 工具人 对话' }).click();
    await expect.poll(() => welcomeTools(page)).toEqual(['no_such_tool', 'code_interpreter']);
    await page.getByRole('textbox', { name: '消息', exact: true }).fill('你好');
    await page.getByRole('button', { name: '发送', exact: true }).click();
    const refusal = page.getByRole('alert').filter({ hasText: '用到了它' });
    await expect(refusal).toContainText(
      '本服务器没有名为 no_such_tool 的工具，而智能体“工具人”用到了它（没有任何内置工具、插件或 MCP 服务器提供）。请在“智能体”页编辑该智能体并取消勾选缺少的工具，或请服务器管理员提供它。',
    );
    expect(await outsideScreen(page, { width: 390, height: 844 }, refusal)).toEqual([]);
    await expect(page.getByRole('textbox', { name: '消息', exact: true })).toHaveValue('你好');

    await page.getByRole('button', { name: '菜单' }).click();
    await menu.getByRole('button', { name: '删除 工具人' }).click();
    await page
      .getByRole('dialog', { name: /^删除智能体/ })
      .getByRole('button', { name: '删除', exact: true })
      .click();
    await expect(menu.getByRole('button', { name: '与 工具人 对话' })).toBeHidden();
  });
});
