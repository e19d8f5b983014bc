// The page in the browser's language: a zh-CN browser gets the Chinese page (and the agent's prompts in Chinese),
// the header switches it to English without losing a run being streamed, and the choice outlives a reload.
import { expect, test, type Page } from '@playwright/test';
import { seriousViolations } from './support/axe';
import { tabTo } from './support/focus';
import { pageWidth } from './support/viewport';
import { assistantTurns, lastAnswer } from './support/chat';
import { chatRequests, setScenario } from './support/model';

test.use({ locale: 'zh-CN' }); // Playwright sends Accept-Language: zh-CN with it

// About 1,200 characters at two every 30 ms: long enough to switch the language while it streams.
const LONG = Array.from({ length: 40 }, (_, i) => `第 ${i + 1} 句：喜鹊在枝头唱歌。`).join('');

/** Words a Chinese page may still show in Latin letters: names (the product, file formats, agents, formats, keys,
 *  Python, the math functions the calculator knows, the web search providers, code_interpreter's backends and
 *  packages and the values of its setting) and units. */
const NAMES = new Set(
  (
    'Agent Studio Enter Shift PDF Word PowerPoint Excel CSV HTML Markdown Top p token Token MCP JSON FnCallAgent ' +
    'ReActChat Assistant Thought Action Observation native API nous qwen FUNCTION ARGS Qwen-Agent lang Python ' +
    'sqrt round sin log pi e ms B KB MB id calculator searxng tavily serper brave ' +
    'CPython Pyodide numpy pandas matplotlib bubblewrap bwrap python pyodide auto'
  ).split(' '),
);

/** The page's words in Latin letters, outside what is not the page's own wording: code and wire names (monospace,
 *  or with an underscore), what the user wrote (messages, titles), the language names (each in its own language) and
 *  what MCP servers say of their tools. */
async function latinWords(page: Page): Promise<string[]> {
  const text = await page.locator('body').evaluate((body) => {
    const copy = body.cloneNode(true) as HTMLElement;
    const skip = [
      'code, pre, .font-mono, textarea, select, script, style',
      'nav, h1, [data-role="user"], [aria-label^="MCP 服务器 "]',
    ].join(', ');
    for (const el of copy.querySelectorAll(skip)) el.remove();
    return copy.innerText;
  });
  const words = text.match(/[A-Za-z][A-Za-z_-]*/g) ?? [];
  return [...new Set(words)].filter((w) => !NAMES.has(w) && !w.includes('_'));
}

test('a zh-CN browser gets the Chinese page; switching to English keeps the run and is remembered', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await setScenario({
    rules: [
      { when: { lastUserIncludes: 'zh-magpie' }, reply: { content: LONG, chunkSize: 2, delayMs: 30 } },
      { when: { lastUserIncludes: 'en-magpie' }, reply: { content: 'A short answer.' } },
    ],
  });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/');
  await expect(page.getByRole('button', { name: /^切换到(深色|浅色)主题$/ })).toBeVisible();

  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  const language = page.getByRole('combobox', { name: '语言', exact: true });
  await expect(language).toHaveValue('zh-CN');
  await expect(language.getByRole('option', { name: '简体中文' })).toBeAttached();
  await expect(language.getByRole('option', { name: 'English' })).toBeAttached();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('新对话');
  await expect(page.getByRole('heading', { name: '有什么可以帮你？' })).toBeVisible();
  await expect(page.getByRole('button', { name: '发送', exact: true })).toBeVisible();
  await expect(page.getByRole('textbox', { name: '消息', exact: true })).toHaveAttribute('placeholder', /跟我聊聊吧/);
  await expect(page.getByLabel('上传文件')).toBeAttached();

  // Settings in Chinese, and the agent's format set to qwen, whose prompt has a Chinese version.
  await page.getByRole('button', { name: '设置', exact: true }).click();
  const settings = page.getByRole('region', { name: '设置' });
  // How the agent runs is under 高级 (Advanced), which stays open once opened.
  await settings.getByText('高级', { exact: true }).click();
  await settings.getByRole('combobox', { name: '函数调用模式' }).selectOption('qwen');
  await expect(settings.getByRole('checkbox', { name: /调用工具前暂停/ })).toBeVisible();
  await expect(settings.getByText('网页搜索未开启。', { exact: false })).toBeVisible();
  await expect(settings.getByRole('listitem', { name: 'MCP 服务器 fixture' })).toContainText('已就绪', {
    timeout: 20_000,
  });
  expect(await latinWords(page)).toEqual([]);
  const zhViolations = await seriousViolations(page);
  expect(zhViolations, zhViolations.join('\n')).toEqual([]);
  // A new chat's settings survive a change of language (the page is rendered again, the draft stays).
  await language.selectOption('en');
  await expect(settings).toHaveCount(0);
  const english = page.getByRole('region', { name: 'Settings' });
  await expect(english.getByRole('combobox', { name: 'Function-call mode' })).toHaveValue('qwen');
  await page.getByRole('combobox', { name: 'Language', exact: true }).selectOption('zh-CN');
  await expect(settings.getByRole('combobox', { name: '函数调用模式' })).toHaveValue('qwen');
  await page.getByRole('button', { name: '设置', exact: true }).click();

  await page.getByRole('textbox', { name: '消息', exact: true }).fill('给我讲个长故事 zh-magpie');
  await page.getByRole('button', { name: '发送', exact: true }).click();
  const turn = assistantTurns(page).last();
  await expect(turn).toContainText('第 2 句');
  await expect(page.getByRole('button', { name: '停止', exact: true })).toBeVisible();
  // The agent follows the page: its tool prompt is the Chinese one.
  expect(JSON.stringify((await chatRequests())[0]!.body.messages)).toContain('# 工具');

  // To English while the answer streams: the page changes language, the run goes on.
  await language.selectOption('en');
  await expect(page.getByRole('button', { name: 'Stop', exact: true })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('combobox', { name: 'Language', exact: true })).toHaveValue('en');
  const before = (await turn.innerText()).length;
  await expect.poll(async () => (await turn.innerText()).length).toBeGreaterThan(before + 20);
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await expect(turn.getByText('Stopped by you')).toBeVisible();

  // Remembered: a reload (the browser still asks for Chinese) stays English, with the conversation.
  await page.reload();
  await expect(page.getByRole('button', { name: /^Switch to (dark|light) theme$/ })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Language', exact: true })).toHaveValue('en');
  await expect(page.getByRole('textbox', { name: 'Message', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('给我讲个长故事 zh-magpie');
  await expect(assistantTurns(page).last()).toContainText('Stopped by you');
  const enViolations = await seriousViolations(page);
  expect(enViolations, enViolations.join('\n')).toEqual([]);

  // And the agent follows: the next run's prompt is the English one.
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Now briefly, en-magpie');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(await lastAnswer(page)).toContainText('A short answer.');
  const sent = JSON.stringify((await chatRequests()).at(-1)!.body.messages);
  expect(sent).toContain('# Tools');
  expect(sent).not.toContain('# 工具');
});

test('the Chinese page says a run in Chinese: tool cards, durations, the inspector', async ({ page }) => {
  await setScenario({
    rules: [
      {
        when: { lastUserIncludes: '朱鹮' },
        reply: [
          { reasoning: '先算乘法。', toolCalls: [{ name: 'calculator', arguments: '{"expression": "6*7"}' }] },
          { content: '结果是 **42**。' },
        ],
      },
    ],
  });
  await page.goto('/');
  await expect(page.getByRole('button', { name: /^切换到(深色|浅色)主题$/ })).toBeVisible();
  await page.getByRole('textbox', { name: '消息', exact: true }).fill('六乘以七是多少？（朱鹮）');
  await page.getByRole('button', { name: '发送', exact: true }).click();
  const answer = await lastAnswer(page);
  await expect(answer).toContainText('结果是 42。');
  const card = answer.getByRole('button', { name: /calculator/ });
  await expect(card).toContainText('完成');
  await expect(card).toContainText(/\d+(\.\d)? (毫秒|秒)/);
  await expect(answer.getByRole('button', { name: /已思考|思考/ })).toBeVisible();
  await answer.getByRole('button', { name: '检查运行' }).click();
  const inspector = page.getByRole('dialog', { name: '运行检查器' });
  await expect(inspector).toContainText('已回答：模型最后一次回复没有调用工具。');
  await expect(inspector.getByRole('tab', { name: /^第 1 轮/ })).toBeVisible();
  await expect(inspector.getByRole('button', { name: '导出运行' })).toBeVisible();
  expect(await latinWords(page)).toEqual([]);
  const found = await seriousViolations(page);
  expect(found, found.join('\n')).toEqual([]);
});

test("the server's reasons for refusing a file are said in Chinese, by their code", async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('button', { name: /^切换到(深色|浅色)主题$/ })).toBeVisible();
  await page.getByLabel('上传文件').setInputFiles([
    { name: 'broken.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.7 this is not a PDF at all') },
    { name: 'empty.txt', mimeType: 'text/plain', buffer: Buffer.alloc(0) },
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Gulls nest on the cliffs.') },
  ]);
  const documents = page.getByRole('list', { name: '文档', exact: true }).getByRole('listitem');
  // A parse worker that loads pdf.js for the first time can take more than the default 5 s on a loaded machine.
  await expect(documents.filter({ hasText: 'broken.pdf' })).toContainText('出错：broken.pdf 已损坏，无法读取。', {
    timeout: 20_000,
  });
  await expect(documents.filter({ hasText: 'empty.txt' })).toContainText('出错：empty.txt 中没有可读取的文字。');
  await expect(documents.filter({ hasText: 'notes.txt' })).toContainText('已就绪，共 1 页');
  await expect(page.getByRole('button', { name: '移除 notes.txt' })).toBeEnabled();
});

test('Runs, Admin, Account and Sign in have the Language control in their header too: by keyboard, on a phone', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  // Sign in without accounts or a token says there is nothing to sign in to (e2e/accounts-pages.spec.ts and
  // e2e/security.spec.ts switch the language on the sign-in pages with accounts and with ACCESS_TOKEN).
  const pages = [
    { path: '/runs', zh: '运行记录', en: 'Runs' },
    { path: '/admin', zh: '管理', en: 'Admin' },
    { path: '/account', zh: '账户', en: 'Account' },
    { path: '/sign-in', zh: '登录 Agent Studio', en: 'Sign in to Agent Studio' },
  ];
  for (const { path, zh } of pages) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(zh);
    const language = page.locator('header').getByRole('combobox', { name: '语言', exact: true });
    await expect(language).toHaveValue('zh-CN');
    // Reached with Tab (from where the page puts the focus), and on the screen of a 390 px phone.
    await tabTo(page, language, { max: 3 });
    const box = (await language.boundingBox())!;
    expect(box.x + box.width, `${path}: the Language control is off the screen`).toBeLessThanOrEqual(390);
    expect((await pageWidth(page)).scrollWidth, `${path}: the page is wider than the screen`).toBeLessThanOrEqual(390);
  }
  // Switched here (on Sign in), remembered on the other pages.
  await page.locator('header').getByRole('combobox', { name: '语言', exact: true }).selectOption('en');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to Agent Studio');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await page.goto('/runs');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Runs');
  const language = page.locator('header').getByRole('combobox', { name: 'Language', exact: true });
  await expect(language).toHaveValue('en');
  // By keyboard: the arrow picks the next language, and the focus stays on the control through the switch.
  await language.focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('运行记录');
  await expect(page.locator('header').getByRole('combobox', { name: '语言', exact: true })).toBeFocused();
});
