// A ticked tool that nothing here offers now is said for what it is, where it can be unticked: in the agent editor, a
// tool no tool on this server has ("not on this server", untick it) apart from one the server has but cannot run
// now (web_search without a provider: "not available now", with why); in a plain conversation's Settings, its own
// tool of an MCP server removed since. A run of either is refused in the page's language, and runs once unticked.
// From the keyboard, English on a desktop and Chinese on a 390 px phone.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { composer, lastAnswer, notice, openChat, send, userTurns } from './support/chat';
import { tabTo } from './support/focus';
import { chatRequests, setScenario } from './support/model';
import { agentFile } from './support/agent-file';
import { outsideScreen } from './support/viewport';

const PHONE = { width: 390, height: 844 };

/** The row (its label) of the tool checkbox named by `name` in `list`. */
function rowOf(list: Locator, name: RegExp): Locator {
  return list.locator('label').filter({ has: list.page().getByRole('checkbox', { name }) });
}

/** What of `row` does not fit the phone's screen, once scrolled into view (the panel or dialog scrolls). */
async function offScreen(row: Locator): Promise<string[]> {
  await row.scrollIntoViewIfNeeded();
  return outsideScreen(row.page(), PHONE, row);
}

/** Unticks `box` from the keyboard (Tab to it, Space): its row stays, with the focus on it. */
async function untickByKeyboard(page: Page, box: Locator): Promise<void> {
  await tabTo(page, box, { max: 80 });
  await page.keyboard.press('Space');
  await expect(box).not.toBeChecked();
  await expect(box).toBeFocused();
}

test('the agent editor tells a tool not on this server from one that cannot run now; a chat is refused until both go', async ({
  page,
}) => {
  await openChat(page);
  const menu = page.locator('aside');
  await menu
    .getByLabel('Import agent', { exact: true })
    .setInputFiles(agentFile('toolbox.json', { name: 'Toolbox', tools: ['no_such_tool', 'web_search', 'calculator'] }));
  await expect(menu.getByRole('alert')).toContainText('this server has no tool named no_such_tool:');

  await menu.getByRole('button', { name: 'Edit Toolbox', exact: true }).click();
  const editor = page.getByRole('dialog', { name: 'Agent' });
  const tools = editor.getByRole('group', { name: 'Tools' });
  const missing = tools.getByRole('checkbox', { name: /^no_such_tool not on this server/ });
  await expect(missing).toBeChecked();
  await expect(rowOf(tools, /^no_such_tool not on this server/)).toHaveText(
    'no_such_tool not on this serverNo builtin tool, plugin or MCP server here gives it, so a chat with this agent is refused. Untick it to remove it from the agent.',
  );
  const search = tools.getByRole('checkbox', { name: /^web_search not available now/ });
  await expect(search).toBeChecked();
  await expect(rowOf(tools, /^web_search not available now/)).toHaveText(
    /^web_search not available nowTool web_search is not available: no search provider\. Set WEB_SEARCH_PROVIDER/,
  );

  await untickByKeyboard(page, missing);
  await tabTo(page, editor.getByRole('button', { name: 'Save', exact: true }), { max: 80 });
  await page.keyboard.press('Enter');
  await expect(editor).toBeHidden();

  // Only web_search is left: a chat is refused saying why it cannot run now, and what to do.
  await menu.getByRole('button', { name: 'Chat with Toolbox' }).click();
  const asked = (await chatRequests()).length;
  await send(page, 'hello toolbox');
  await expect(notice(page)).toContainText(
    /Tool web_search is not available: no search provider\. Set WEB_SEARCH_PROVIDER .* or choose a provider on the admin page\./,
  );
  await expect(composer(page)).toHaveValue('hello toolbox');
  expect((await chatRequests()).length).toBe(asked);

  // The specs share one server: its name (Latin) must not stay in the list the Chinese page's checks read.
  await menu.getByRole('button', { name: 'Delete Toolbox' }).click();
  await page
    .getByRole('dialog', { name: /^Delete the agent/ })
    .getByRole('button', { name: 'Delete', exact: true })
    .click();
  await expect(menu.getByRole('button', { name: 'Chat with Toolbox' })).toBeHidden();
});

test('a conversation’s own tool of an MCP server removed since is shown in Settings, said not here, and unticked', async ({
  page,
}) => {
  test.slow();
  await page.setViewportSize(PHONE);
  await setScenario({ fallback: { content: 'Plain answer.' } });
  // A second MCP server, "spare", set up on the admin page.
  await page.goto('/admin');
  const config = page.getByRole('textbox', { name: 'MCP config (JSON)' });
  await expect(config).toHaveValue(/"fixture"/);
  const original = await config.inputValue();
  const withSpare = JSON.parse(original) as { mcpServers: Record<string, unknown> };
  withSpare.mcpServers.spare = withSpare.mcpServers.fixture;
  await config.fill(JSON.stringify(withSpare, null, 2));
  await page.getByRole('button', { name: 'Save MCP config' }).click();
  await expect(page.getByText('Saved; servers reconnected.')).toBeVisible({ timeout: 30_000 });

  // A conversation with its tool spare-echo on.
  await openChat(page);
  await page.getByRole('button', { name: 'Settings' }).click();
  const spare = page.getByRole('listitem', { name: 'MCP server spare' });
  await expect(spare).toContainText('ready with 9 tools', { timeout: 20_000 });
  await spare.getByRole('checkbox', { name: /^spare-echo / }).check();
  await page.getByRole('button', { name: 'Close settings' }).click();
  await send(page, 'hello spare');
  await expect(await lastAnswer(page)).toContainText('Plain answer.');
  const conversation = page.url();

  // The server removed: the conversation still names its tool.
  await page.goto('/admin');
  await config.fill(original);
  await page.getByRole('button', { name: 'Save MCP config' }).click();
  await expect(page.getByRole('listitem', { name: 'MCP server spare' })).toHaveCount(0, { timeout: 30_000 });

  await openChat(page, conversation);
  await expect(composer(page)).toBeEnabled();
  await send(page, 'hello again');
  await expect(notice(page)).toContainText('Tool spare-echo is not registered.');

  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.locator('#settings-panel');
  const gone = settings.getByRole('checkbox', { name: /^spare-echo not on this server/ });
  await expect(gone).toBeChecked();
  await expect(rowOf(settings, /^spare-echo not on this server/)).toContainText(
    'No builtin tool, plugin or MCP server here gives it, so a message in this conversation is refused. Untick it to remove it.',
  );
  expect(await offScreen(rowOf(settings, /^spare-echo not on this server/))).toEqual([]);

  // In Chinese too.
  const language = page.locator('main header').getByRole('combobox', { name: /^(Language|语言)$/ });
  await page.getByRole('button', { name: 'Close settings' }).click();
  await language.selectOption('zh-CN');
  await page.getByRole('button', { name: '设置', exact: true }).click();
  await expect(rowOf(settings, /^spare-echo 本服务器没有/)).toContainText(
    '这里没有任何内置工具、插件或 MCP 服务器提供它，因此在这个对话中发送消息会被拒绝。取消勾选即可移除它。',
  );
  expect(await offScreen(rowOf(settings, /^spare-echo 本服务器没有/))).toEqual([]);
  await page.getByRole('button', { name: '关闭设置' }).click();
  await language.selectOption('en');
  await page.getByRole('button', { name: 'Settings' }).click();

  await untickByKeyboard(page, settings.getByRole('checkbox', { name: /^spare-echo not on this server/ }));
  await page.getByRole('button', { name: 'Close settings' }).click();
  await notice(page).getByRole('button', { name: 'Dismiss', exact: true }).click();
  await send(page, 'hello again');
  await expect(notice(page)).toHaveCount(0);
  await expect(userTurns(page)).toHaveCount(2);
  await expect(await lastAnswer(page)).toContainText('Plain answer.');
});

test.describe('in Chinese, on a phone', () => {
  test.use({ locale: 'zh-CN', viewport: PHONE });

  test('the editor’s two marks and the refusal of a tool that cannot run now say what to do in Chinese', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(page.getByRole('button', { name: /^切换到(深色|浅色)主题$/ })).toBeVisible(); // hydrated
    await page.getByRole('button', { name: '菜单' }).click();
    const menu = page.locator('aside');
    await menu
      .getByLabel('导入智能体', { exact: true })
      .setInputFiles(
        agentFile('toolbox-zh.json', { name: '工具箱', tools: ['no_such_tool', 'web_search', 'calculator'] }),
      );
    await expect(menu.getByRole('alert')).toContainText('本服务器没有名为 no_such_tool 的工具');

    await menu.getByRole('button', { name: '编辑 工具箱', exact: true }).click();
    const editor = page.getByRole('dialog', { name: '智能体' });
    const tools = editor.getByRole('group', { name: '工具' });
    const missing = tools.getByRole('checkbox', { name: /^no_such_tool 本服务器没有/ });
    await expect(rowOf(tools, /^no_such_tool 本服务器没有/)).toHaveText(
      'no_such_tool 本服务器没有这里没有任何内置工具、插件或 MCP 服务器提供它，因此与这个智能体的对话会被拒绝。取消勾选即可把它从智能体中移除。',
    );
    await expect(rowOf(tools, /^web_search 当前不可用/)).toHaveText(
      'web_search 当前不可用web_search 现在无法运行：本服务器没有设置网页搜索服务商，或管理员关闭了网页搜索。管理员可以在“管理”页的“工具与集成 → 网页搜索”中选择一个服务商，或在服务器环境中设置 WEB_SEARCH_PROVIDER。',
    );
    for (const name of [/^no_such_tool 本服务器没有/, /^web_search 当前不可用/])
      expect(await offScreen(rowOf(tools, name))).toEqual([]);

    await untickByKeyboard(page, missing);
    await tabTo(page, editor.getByRole('button', { name: '保存', exact: true }), { max: 80 });
    await page.keyboard.press('Enter');
    await expect(editor).toBeHidden();

    // The menu is still open: the agent's row starts a conversation with it.
    await menu.getByRole('button', { name: '与 工具箱 对话' }).click();
    await page.getByRole('textbox', { name: '消息', exact: true }).fill('你好');
    await page.getByRole('button', { name: '发送', exact: true }).click();
    const refusal = page.getByRole('alert').filter({ hasText: '现在无法运行' });
    await expect(refusal).toContainText(
      'web_search 现在无法运行：本服务器没有设置网页搜索服务商，或管理员关闭了网页搜索。管理员可以在“管理”页的“工具与集成 → 网页搜索”中选择一个服务商，或在服务器环境中设置 WEB_SEARCH_PROVIDER。',
    );
    expect(await outsideScreen(page, PHONE, refusal)).toEqual([]);
    await expect(page.getByRole('textbox', { name: '消息', exact: true })).toHaveValue('你好');

    await page.getByRole('button', { name: '菜单' }).click();
    await menu.getByRole('button', { name: '删除 工具箱' }).click();
    await page
      .getByRole('dialog', { name: /^删除智能体/ })
      .getByRole('button', { name: '删除', exact: true })
      .click();
    await expect(menu.getByRole('button', { name: '与 工具箱 对话' })).toBeHidden();
  });
});
