import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import OpenAI from 'openai';
import { freePort, kill, startApp } from './support/app-process';
import { assistantTurns, composer, lastAnswer, openChat, send } from './support/chat';
import { chatRequests, setScenario } from './support/model';
import { outsideScreen } from './support/viewport';

/** Fills the agent editor (opened by "New agent") and saves. */
async function createAgent(
  page: Page,
  a: {
    name: string;
    avatar?: string;
    kind?: string;
    members?: string[];
    suggestion?: string;
    selection?: string;
    maxRound?: number;
  },
) {
  await page.getByRole('button', { name: 'New agent' }).click();
  const editor = page.getByRole('dialog', { name: 'Agent' });
  await editor.getByRole('textbox', { name: 'Name' }).fill(a.name);
  if (a.avatar) await editor.getByRole('textbox', { name: 'Avatar (an emoji)' }).fill(a.avatar);
  if (a.kind) await editor.getByRole('combobox', { name: 'Agent kind' }).selectOption(a.kind);
  for (const m of a.members ?? []) await editor.getByRole('checkbox', { name: m, exact: true }).check();
  if (a.selection) await editor.getByRole('combobox', { name: 'Speaker selection' }).selectOption(a.selection);
  if (a.maxRound) await editor.getByRole('spinbutton', { name: 'Most answers per turn' }).fill(String(a.maxRound));
  if (a.suggestion) await editor.getByRole('textbox', { name: /Prompt suggestions/ }).fill(a.suggestion);
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editor).toBeHidden();
  await expect(page.getByRole('button', { name: `Chat with ${a.name}` })).toBeVisible();
}

/** Deletes the agents a test saved (other specs share the app's data: the Chinese page's must show no English name). */
async function deleteAgents(page: Page, names: string[]) {
  for (const name of names) {
    await page.getByRole('button', { name: `Delete ${name}` }).click();
    await page
      .getByRole('dialog', { name: `Delete the agent "${name}"?`, exact: false })
      .getByRole('button', { name: 'Delete', exact: true })
      .click();
    await expect(page.getByRole('button', { name: `Chat with ${name}` })).toBeHidden();
  }
}

test('create an agent, start a conversation with it, see its name on the turn; the API serves it', async ({
  page,
  baseURL,
}) => {
  await setScenario({
    rules: [{ when: { lastUserIncludes: 'agent-otter' }, reply: { content: 'Arr, the otter sails.' } }],
  });
  await openChat(page);
  await createAgent(page, { name: 'Pirate otter', avatar: '🦦', suggestion: 'Tell me of the sea, agent-otter' });

  await page.getByRole('button', { name: 'Chat with Pirate otter' }).click();
  await expect(page.getByText('A new conversation with Pirate otter')).toBeVisible();
  // Its own prompt suggestion on the empty conversation fills the composer.
  await page.getByRole('button', { name: 'Tell me of the sea, agent-otter' }).click();
  await expect(composer(page)).toHaveValue('Tell me of the sea, agent-otter');
  await send(page, 'Ahoy agent-otter');
  const answer = await lastAnswer(page);
  await expect(answer).toContainText('Arr, the otter sails.');
  await expect(answer.locator('[data-agent-name]')).toHaveText('🦦Pirate otter');

  // The same agent from any OpenAI client.
  const client = new OpenAI({ baseURL: `${baseURL}/v1`, apiKey: 'unused-on-loopback', maxRetries: 0 });
  const models = [];
  for await (const m of client.models.list()) models.push(m);
  expect(models.map((m) => (m as { name?: string }).name)).toContain('Pirate otter');
  const completion = await client.chat.completions.create({
    model: 'Pirate otter',
    messages: [{ role: 'user', content: 'Again, agent-otter' }],
  });
  expect(completion.choices[0]!.message.content).toBe('Arr, the otter sails.');
  await deleteAgents(page, ['Pirate otter']);
});

test('an avatar URL of a host the page may not load: the editor says so, and the agent shows a neutral face', async ({
  page,
}) => {
  const tracker: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('tracker.example.net')) tracker.push(r.url());
  });
  await openChat(page);
  await page.getByRole('button', { name: 'New agent' }).click();
  const editor = page.getByRole('dialog', { name: 'Agent' });
  await editor.getByRole('textbox', { name: 'Name' }).fill('Pixel owl');
  const avatar = editor.getByRole('textbox', { name: 'Avatar (an emoji)' });
  await avatar.fill('https://tracker.example.net/owl.png?who=me');
  await expect(avatar).toHaveAccessibleDescription(/Images from tracker\.example\.net are not shown in this app/);
  await avatar.fill('🦉');
  await expect(editor.getByText(/are not shown in this app/)).toBeHidden();
  await avatar.fill('https://tracker.example.net/owl.png?who=me');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editor).toBeHidden();
  const row = page.getByRole('listitem').filter({ has: page.getByRole('button', { name: 'Chat with Pixel owl' }) });
  await expect(row.locator('svg[data-avatar-fallback][aria-hidden="true"]')).toBeVisible();
  await expect(page.locator('img[src*="tracker.example.net"]')).toHaveCount(0);
  expect(tracker).toEqual([]);
  await deleteAgents(page, ['Pixel owl']);
});

test('an avatar image is chosen with a button in the page’s language, and the agent shows it', async ({ page }) => {
  await openChat(page);
  await page.getByRole('button', { name: 'New agent' }).click();
  const editor = page.getByRole('dialog', { name: 'Agent' });
  await editor.getByRole('textbox', { name: 'Name' }).fill('Pixel tern');
  // The page's own words (the browser's file button says "Choose File" whatever the page's language).
  const choose = editor.getByText('Choose an image…', { exact: true });
  await expect(choose).toBeVisible();
  await expect(editor.getByLabel('…or an image')).toHaveAttribute('type', 'file');
  const chooser = page.waitForEvent('filechooser');
  await choose.click();
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  );
  await (await chooser).setFiles({ name: 'tern.png', mimeType: 'image/png', buffer: png });
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editor).toBeHidden();
  const row = page.getByRole('listitem').filter({ has: page.getByRole('button', { name: 'Chat with Pixel tern' }) });
  await expect(row.locator('img[src^="data:image/png"]')).toHaveCount(1);
  await deleteAgents(page, ['Pixel tern']);
});

test('a GroupChat turn shows each member’s answer in its own section', async ({ page }) => {
  await setScenario({
    rules: [
      // Bob's turn sees Alice's line too: his rule comes first.
      { when: { lastUserIncludes: 'Bob-heron: ' }, reply: { content: 'And they fish.' } },
      { when: { lastUserIncludes: 'Alice-heron: ' }, reply: { content: 'Herons wade.' } },
    ],
  });
  await openChat(page);
  await createAgent(page, { name: 'Alice-heron' });
  await createAgent(page, { name: 'Bob-heron' });
  await createAgent(page, {
    name: 'Heron panel',
    kind: 'groupchat',
    members: ['Alice-heron', 'Bob-heron'],
    selection: 'round_robin',
    maxRound: 2,
  });
  await page.getByRole('button', { name: 'Chat with Heron panel' }).click();
  await send(page, 'Tell me about herons');
  const answer = await lastAnswer(page);
  const alice = answer.getByRole('region', { name: "Alice-heron's answer" });
  const bob = answer.getByRole('region', { name: "Bob-heron's answer" });
  await expect(alice).toContainText('Herons wade.');
  await expect(bob).toContainText('And they fish.');
  await expect(alice).toContainText('Round 1');
  await expect(bob).toContainText('Round 2');
  await expect(assistantTurns(page)).toHaveCount(1);
  // The inspector's summary costs the run with its members (no price is set for the scripted model here).
  await answer.getByRole('button', { name: 'Inspect run' }).click();
  const inspector = page.getByRole('dialog', { name: 'Run inspector' });
  await expect(inspector).toContainText('With its helpers');
  await expect(inspector).toContainText('No price set for any of their models');
  await page.keyboard.press('Escape');
  await expect(inspector).toBeHidden();
  await deleteAgents(page, ['Heron panel', 'Alice-heron', 'Bob-heron']);
});

test('an agent with a document and a model: its conversation searches the document and cites it', async ({ page }) => {
  const PASSAGE = 'The heron rota puts Wilhelmina on the Thursday shift.';
  await setScenario({
    rules: [
      { when: { lastUserIncludes: 'heron rota', anyIncludes: PASSAGE }, reply: { content: 'Wilhelmina (rota).' } },
      { when: { lastUserIncludes: 'heron rota' }, reply: { content: 'No knowledge reached me.' } },
    ],
  });
  await openChat(page);
  await page.getByRole('button', { name: 'New agent' }).click();
  const editor = page.getByRole('dialog', { name: 'Agent' });
  await editor.getByRole('textbox', { name: 'Name' }).fill('Rota keeper');
  await editor.getByRole('combobox', { name: 'Agent kind' }).selectOption('assistant');
  await editor.getByRole('combobox', { name: 'Model' }).selectOption('env/scripted-agent');
  // Uploading to a new agent saves it first; the document is the agent's on the server at once.
  await editor
    .getByLabel('Upload…')
    .setInputFiles([{ name: 'rota.md', mimeType: 'text/markdown', buffer: Buffer.from(`# Rota\n\n${PASSAGE}\n`) }]);
  await expect(editor.getByRole('list', { name: 'Documents (its knowledge)' })).toContainText('rota.md');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editor).toBeHidden();

  await page.getByRole('button', { name: 'Chat with Rota keeper' }).click();
  await expect(page.getByRole('combobox', { name: 'Model', exact: true })).toContainText('scripted-agent');
  await send(page, 'Who is on the heron rota on Thursday?');
  const answer = await lastAnswer(page);
  await expect(answer).toContainText('Wilhelmina (rota).');
  const sources = answer.getByRole('region', { name: 'Sources' });
  await expect(sources.getByRole('button', { name: /^rota\.md/ })).toBeVisible();
  const sent = (await chatRequests()).at(-1)!;
  expect(sent.body.model).toBe('scripted-agent');
  await deleteAgents(page, ['Rota keeper']);
});

test.describe('on a 390 px phone, from the keyboard', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('deleting an agent a Router and a GroupChat hold: the confirmation names them, and they let go of it', async ({
    page,
  }) => {
    await openChat(page);
    await page.getByRole('button', { name: 'Menu' }).click();
    const menu = page.locator('aside');
    await createAgent(page, { name: 'Wren helper' });
    await createAgent(page, { name: 'Wren poet' });
    await createAgent(page, { name: 'Wren desk', kind: 'router', members: ['Wren helper', 'Wren poet'] });
    await createAgent(page, { name: 'Wren team', kind: 'groupchat', members: ['Wren poet', 'Wren helper'] });

    // → to the poet's Delete, past its other buttons; Enter asks first (in the page's own dialog, on the screen),
    // naming who holds it. Cancel (where the focus starts) keeps it all, and the focus goes back to Delete.
    const deletePoet = menu.getByRole('button', { name: 'Delete Wren poet' });
    await menu.getByRole('button', { name: 'Chat with Wren poet' }).focus();
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
    await expect(deletePoet).toBeFocused();
    await page.keyboard.press('Enter');
    const ask = page.getByRole('dialog', {
      name:
        'Delete the agent "Wren poet"? It is used by Wren desk and Wren team and will be removed from there. ' +
        'Its conversations stay, but cannot continue with it.',
    });
    await expect(ask.getByRole('button', { name: 'Cancel' })).toBeFocused();
    expect(await outsideScreen(page, { width: 390, height: 844 }, ask)).toEqual([]);
    await page.keyboard.press('Enter');
    await expect(ask).toBeHidden();
    await expect(deletePoet).toBeFocused();
    await expect(menu.getByRole('button', { name: 'Chat with Wren poet' })).toBeVisible();

    // Confirmed: gone, and the focus goes on from the list's heading (its row took the button with it).
    await deletePoet.press('Enter');
    await page.keyboard.press('Tab');
    await expect(ask.getByRole('button', { name: 'Delete', exact: true })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(menu.getByRole('button', { name: 'Chat with Wren poet' })).toHaveCount(0);
    await expect(menu.getByRole('heading', { name: 'Agents' })).toBeFocused();

    // The Router saves as it is (its members no longer name a deleted agent), from the keyboard too.
    await menu.getByRole('button', { name: 'Edit Wren desk' }).press('Enter');
    const editor = page.getByRole('dialog', { name: 'Agent' });
    await expect(editor.getByRole('checkbox', { name: 'Wren helper', exact: true })).toBeChecked();
    await expect(editor.getByRole('checkbox', { name: 'Wren poet', exact: true })).toHaveCount(0);
    await editor.getByRole('button', { name: 'Save' }).press('Enter');
    await expect(editor).toBeHidden();

    // The helper is now each one's only member: deleting it is refused, saying why, without asking anything.
    await menu.getByRole('button', { name: 'Delete Wren helper' }).press('Enter');
    const refusal = menu.getByRole('alert');
    await expect(refusal).toHaveText(
      '“Wren helper” is the only member of Wren desk and Wren team: add another member there, or delete Wren desk and Wren team first.',
    );
    expect(await outsideScreen(page, { width: 390, height: 844 }, refusal)).toEqual([]);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(menu.getByRole('button', { name: 'Chat with Wren helper' })).toBeVisible();

    await deleteAgents(page, ['Wren desk', 'Wren team', 'Wren helper']);
  });
});

test('an import refusal is said again in the new language when the page changes language', async ({ page }) => {
  await openChat(page);
  await page.getByLabel('Import agent', { exact: true }).setInputFiles({
    name: 'agent.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ schema: 'agent-studio.agent/2', agent: { name: 'Egret', kind: 'fncall' } })),
  });
  const refused = page.getByRole('alert').filter({ hasText: /Import of agent\.json failed|导入 agent\.json 失败/ });
  await expect(refused).toHaveText(
    'Import of agent.json failed: This file is "agent-studio.agent/2", not an agent export (agent-studio.agent/1).',
  );
  await page.getByRole('combobox', { name: 'Language', exact: true }).selectOption('zh-CN');
  await expect(refused).toHaveText(
    '导入 agent.json 失败：此文件的格式是“agent-studio.agent/2”，不是本应用的智能体导出文件（agent-studio.agent/1）。',
  );
  await page.getByRole('combobox', { name: '语言', exact: true }).selectOption('en');
  await expect(refused).toHaveText(/^Import of agent\.json failed: This file is "agent-studio\.agent\/2"/);
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('the note under an avatar URL the page will not load is in Chinese', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('button', { name: /^切换到(深色|浅色)主题$/ })).toBeVisible(); // hydrated
    await page.getByRole('button', { name: '新建智能体', exact: true }).click();
    const editor = page.getByRole('dialog', { name: '智能体' });
    const avatar = editor.getByRole('textbox', { name: '头像（一个 emoji）' });
    await avatar.fill('https://tracker.example.net/owl.png');
    await expect(avatar).toHaveAccessibleDescription(
      '本应用不显示来自 tracker.example.net 的图片（服务器的 IMAGE_HOSTS 未列出它）：请改为上传图片。',
    );
  });

  test('an agent refused for its missing name or members says so in Chinese', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('button', { name: /^切换到(深色|浅色)主题$/ })).toBeVisible(); // hydrated
    await page.getByRole('button', { name: '新建智能体', exact: true }).click();
    const editor = page.getByRole('dialog', { name: '智能体' });
    await editor.getByRole('button', { name: '保存', exact: true }).click();
    await expect(editor.getByRole('alert')).toHaveText('未保存：智能体需要一个名字。');
    await editor.getByRole('textbox', { name: '名称' }).fill('路由');
    await editor.getByRole('combobox', { name: '智能体类型' }).selectOption('router');
    await editor.getByRole('button', { name: '保存', exact: true }).click();
    await expect(editor.getByRole('alert')).toHaveText('未保存：Router 至少需要一个成员智能体。');
  });

  test('an import refused for its version or a field says so in Chinese', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('button', { name: /^切换到(深色|浅色)主题$/ })).toBeVisible(); // hydrated
    const input = page.getByLabel('导入智能体', { exact: true });
    const file = (schema: string, agent: object) => ({
      name: 'agent.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify({ schema, exportedAt: new Date().toISOString(), agent })),
    });
    const refused = page.getByRole('alert').filter({ hasText: '导入 agent.json 失败' });
    await input.setInputFiles(file('agent-studio.agent/2', { name: '苍鹭', kind: 'fncall' }));
    await expect(refused).toHaveText(
      '导入 agent.json 失败：此文件的格式是“agent-studio.agent/2”，不是本应用的智能体导出文件（agent-studio.agent/1）。',
    );
    await input.setInputFiles(file('agent-studio.agent/1', { name: '苍鹭', kind: 'wizard', maxRound: 99 }));
    await expect(refused).toHaveText('导入 agent.json 失败：kind 的值不符合智能体定义（见 docs/agents.md）。');
    await expect(page.getByRole('button', { name: /^与 苍鹭/ })).toHaveCount(0);
  });
});

test.describe('a Router holding an agent from code (a plugin)', () => {
  // An app of its own, started with a plugins folder holding test/fixtures/plugins/weather.mjs (its agent "Weather
  // Desk" and its tool plugin_weather), and started again without it: plugins load when the server starts.
  let app: ChildProcess | undefined;
  let work = '';
  let url = '';
  let port = 0;
  const plugin = () => path.join(work, 'plugins', 'weather.mjs');
  const start = async () => {
    app = await startApp(port, path.join(work, 'data'), { PLUGINS_DIR: path.dirname(plugin()) });
  };

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    work = mkdtempSync(path.join(tmpdir(), 'plugin-members-e2e-'));
    mkdirSync(path.join(work, 'plugins'));
    cpSync(path.join(__dirname, '..', 'test/fixtures/plugins/weather.mjs'), plugin());
    port = await freePort();
    url = `http://127.0.0.1:${port}`;
    await start();
  });
  test.afterAll(async () => {
    if (app) await kill(app);
    if (work) rmSync(work, { recursive: true, force: true });
  });

  // Before the test below takes the plugin away.
  test('the keys line names only the actions an agent has: one from code has no Edit or Delete', async ({
    page,
    browser,
  }) => {
    test.setTimeout(60_000);
    await openChat(page, url);
    await createAgent(page, { name: 'Keys egret' });
    const SAVED = '↑ ↓ to move between agents, → to edit, duplicate, export or delete';
    const CODE = '↑ ↓ to move between agents, → to duplicate or export';
    const agents = page.getByRole('region', { name: 'Agents' });
    const fromCode = agents.getByRole('button', { name: 'Chat with Weather Desk', exact: true });
    const saved = agents.getByRole('button', { name: 'Chat with Keys egret', exact: true });
    const shown = (text: string) => agents.getByText(text, { exact: true }).filter({ visible: true });
    // A screen reader says each agent with the keys of its own actions.
    await expect(fromCode).toHaveAccessibleDescription(CODE);
    await expect(saved).toHaveAccessibleDescription(SAVED);

    // From the keyboard, on the agent from code: the line says its actions, and → finds no more than those.
    await agents.getByRole('button', { name: 'Import agent' }).focus();
    await page.keyboard.press('Tab');
    await fromCode.focus();
    await expect(shown(CODE)).toBeVisible();
    await expect(shown(SAVED)).toHaveCount(0);
    for (const action of ['Duplicate', 'Export', 'Export']) {
      await page.keyboard.press('ArrowRight');
      await expect(agents.getByRole('button', { name: `${action} Weather Desk`, exact: true })).toBeFocused();
    }
    // On the saved agent: Edit and Delete are named, and there.
    await saved.focus();
    await expect(shown(SAVED)).toBeVisible();
    await expect(shown(CODE)).toHaveCount(0);
    for (const action of ['Edit', 'Duplicate', 'Export', 'Delete']) {
      await page.keyboard.press('ArrowRight');
      await expect(agents.getByRole('button', { name: `${action} Keys egret`, exact: true })).toBeFocused();
    }

    // In Chinese, on a 390 px phone (the list is in the menu): the same, in its words.
    const zh = await browser.newContext({ locale: 'zh-CN', viewport: { width: 390, height: 844 } });
    try {
      const phone = await zh.newPage();
      await phone.goto(url);
      await expect(phone.getByRole('button', { name: /^切换到(深色|浅色)主题$/ })).toBeVisible(); // hydrated
      await phone.getByRole('button', { name: '菜单' }).click();
      const zhAgents = phone.getByRole('region', { name: '智能体' });
      const zhFromCode = zhAgents.getByRole('button', { name: '与 Weather Desk 对话', exact: true });
      const zhSaved = zhAgents.getByRole('button', { name: '与 Keys egret 对话', exact: true });
      const zhShown = (text: string) => zhAgents.getByText(text, { exact: true }).filter({ visible: true });
      const ZH_SAVED = '↑ ↓ 在智能体之间移动，→ 编辑、复制、导出或删除';
      const ZH_CODE = '↑ ↓ 在智能体之间移动，→ 复制或导出';
      await expect(zhFromCode).toHaveAccessibleDescription(ZH_CODE);
      await expect(zhSaved).toHaveAccessibleDescription(ZH_SAVED);
      await zhAgents.getByRole('button', { name: '导入智能体' }).focus();
      await phone.keyboard.press('Tab');
      await zhFromCode.focus();
      await expect(zhShown(ZH_CODE)).toBeVisible();
      await expect(zhShown(ZH_SAVED)).toHaveCount(0);
      expect(await outsideScreen(phone, { width: 390, height: 844 }, zhShown(ZH_CODE))).toEqual([]);
      await zhSaved.focus();
      await expect(zhShown(ZH_SAVED)).toBeVisible();
      await expect(zhShown(ZH_CODE)).toHaveCount(0);
      expect(await outsideScreen(phone, { width: 390, height: 844 }, zhShown(ZH_SAVED))).toEqual([]);
    } finally {
      await zh.close();
    }
  });

  test('is offered with its mark and saved; it answers; once its plugin is gone the run and the editor say so', async ({
    page,
    browser,
  }) => {
    test.setTimeout(180_000);
    await openChat(page, url);
    await page.getByRole('button', { name: 'New agent' }).click();
    const editor = page.getByRole('dialog', { name: 'Agent' });
    await editor.getByRole('textbox', { name: 'Name' }).fill('Weather router');
    await editor.getByRole('combobox', { name: 'Agent kind' }).selectOption('router');
    const fromCode = { name: 'Weather Desk from code', exact: true };
    const member = editor.getByRole('checkbox', fromCode);
    // Its row carries the mark naming its file.
    const row = editor.locator('label').filter({ has: page.getByRole('checkbox', fromCode) });
    await expect(row.locator('[data-from-code="weather.mjs"]')).toBeVisible();
    await member.check();
    await editor.getByRole('button', { name: 'Save' }).click();
    await expect(editor).toBeHidden();

    await setScenario({
      replies: [
        { content: 'Call: Weather Desk\nReply:' },
        { toolCalls: [{ id: 'call_w', name: 'plugin_weather', arguments: '{"city": "Oslo"}' }] },
        { content: 'It is 23°C and clear in Oslo.' },
      ],
    });
    await page.getByRole('button', { name: 'Chat with Weather router' }).click();
    await send(page, 'Weather in Oslo?');
    const section = (await lastAnswer(page)).getByRole('region', { name: "Weather Desk's answer" });
    await expect(section).toContainText('It is 23°C and clear in Oslo.');
    const [, asked] = await chatRequests();
    expect(JSON.stringify(asked!.body.messages)).toContain('You tell the weather.');

    // The plugin file taken away and the server started again.
    await kill(app!);
    rmSync(plugin());
    await start();
    await openChat(page, url);
    await page.getByRole('button', { name: 'Chat with Weather router' }).click();
    await send(page, 'And tomorrow?');
    await expect(page.getByRole('alert').filter({ hasText: 'a member of “Weather router”' })).toHaveText(
      /“Weather Desk”, a member of “Weather router”, comes from code \(a plugin file\) that the server has not loaded now/,
    );
    await expect(composer(page)).toHaveValue('And tomorrow?');
    // The editor shows the member, ticked, with why it cannot answer; unticked it stays there to tick again.
    await page.getByRole('button', { name: 'Edit Weather router' }).click();
    const gone = editor.getByRole('checkbox', { name: 'Weather Desk', exact: true });
    await expect(gone).toBeChecked();
    await expect(gone).toHaveAccessibleDescription(/^From code, but the server has not loaded its plugin file now/);
    await gone.uncheck();
    await expect(gone).not.toBeChecked();
    await editor.getByRole('button', { name: 'Cancel' }).click();
    await page
      .getByRole('dialog', { name: 'Discard the changes to this agent?' })
      .getByRole('button', { name: 'Discard' })
      .click();
    await expect(editor).toBeHidden();

    // In Chinese, on a 390 px phone: the same notice and refusal, on the screen.
    const zh = await browser.newContext({ locale: 'zh-CN', viewport: { width: 390, height: 844 } });
    try {
      const phone = await zh.newPage();
      await phone.goto(url);
      await expect(phone.getByRole('button', { name: /^切换到(深色|浅色)主题$/ })).toBeVisible(); // hydrated
      await phone.getByRole('button', { name: '菜单' }).click();
      await phone.getByRole('button', { name: '编辑 Weather router' }).click();
      const zhEditor = phone.getByRole('dialog', { name: '智能体' });
      const zhGone = zhEditor.getByRole('checkbox', { name: 'Weather Desk', exact: true });
      await expect(zhGone).toHaveAccessibleDescription(/^来自代码，但服务器当前没有加载它的插件文件/);
      expect(await outsideScreen(phone, { width: 390, height: 844 }, zhEditor)).toEqual([]);
      await zhEditor.getByRole('button', { name: '取消', exact: true }).click();
      await expect(zhEditor).toBeHidden();
      // The menu is still open: the agent's row starts a conversation with it.
      await phone.getByRole('button', { name: '与 Weather router 对话' }).click();
      await phone.getByRole('textbox', { name: '消息', exact: true }).fill('明天呢？');
      await phone.getByRole('button', { name: '发送', exact: true }).click();
      const refusal = phone.getByRole('alert').filter({ hasText: '的成员“Weather Desk”来自代码' });
      await expect(refusal).toContainText('“Weather router”的成员“Weather Desk”来自代码（插件文件）');
      expect(await outsideScreen(phone, { width: 390, height: 844 }, refusal)).toEqual([]);
    } finally {
      await zh.close();
    }
  });
});
