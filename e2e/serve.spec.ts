// `npm run serve -- <absolute path>`: Qwen-Agent's `WebUI(agent).run()`. A 20-line agent module written outside the
// checkout (one tool of its own, importing @agent-studio/core) is served on the PORT and DATA_DIR given; the empty
// conversation shows the agent's name, description and prompt suggestions, and a message there runs that agent (its
// system message and its tool reach the model, the tool's answer comes back), on a desktop and on a 390 px phone in
// Chinese.
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { freePort, kill } from './support/app-process';
import { seriousViolations } from './support/axe';
import { chatRequests, modelServerUrl, setScenario } from './support/model';
import { spawnOwned } from './support/owned-processes';
import { pageWidth } from './support/viewport';

const AGENT = `
import { BaseTool } from '@agent-studio/core';

export class TideTable extends BaseTool {
  name = 'tide_table';
  description = 'High tide time for a harbour';
  parameters = { type: 'object', properties: { harbour: { type: 'string' } }, required: ['harbour'] };
  async call(params) {
    const { harbour } = this.parseArgs(params);
    return \`High tide at \${harbour}: 06:42\`;
  }
}

export const agent = {
  name: 'Harbour Master',
  description: 'Knows the tides of every harbour.',
  system_message: 'You are the harbour master. Use tide_table.',
  function_list: ['tide_table'],
  suggestions: ['When is high tide in Porto?'],
};
`;

let app: ChildProcess | undefined;
let url = '';
let work = '';
let dataDir = '';

test.beforeAll(async () => {
  test.setTimeout(120_000);
  work = mkdtempSync(path.join(tmpdir(), 'serve-e2e-'));
  dataDir = path.join(work, 'data');
  const file = path.join(work, 'my-agent.mjs');
  writeFileSync(file, AGENT);
  // A plugins folder with a module that does not load: the page names it (the one user here is the admin).
  const plugins = path.join(work, 'plugins');
  mkdirSync(plugins);
  writeFileSync(path.join(plugins, 'broken.mjs'), "throw new Error('no tide tables here');\n");
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  app = spawnOwned('npm', ['run', '--silent', 'serve', '--', file, '--no-build'], {
    stdio: 'ignore',
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      PLUGINS_DIR: plugins,
      OPENAI_BASE_URL: `${modelServerUrl()}/v1`,
      OPENAI_API_KEY: 'sk-e2e-secret-never-shown',
      OPENAI_MODEL: 'scripted-e2e',
      LLM_MAX_RETRIES: '0',
      CONVERSATION_TITLES: 'message',
    },
  });
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (app.exitCode !== null) throw new Error(`npm run serve exited with ${app.exitCode}`);
    if (
      await fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) throw new Error('npm run serve did not answer within 90 s');
    await new Promise((r) => setTimeout(r, 200));
  }
});

test.afterAll(async () => {
  if (app) await kill(app);
  if (work) rmSync(work, { recursive: true, force: true });
});

async function runsTheAgent(page: Page, message: string, answer: string) {
  await setScenario({
    replies: [
      { toolCalls: [{ id: 'call_tide', name: 'tide_table', arguments: '{"harbour": "Porto"}' }] },
      { content: answer },
    ],
  });
  await page.getByRole('textbox', { name: /^(Message|消息)$/ }).fill(message);
  await page.getByRole('button', { name: /^(Send|发送)$/ }).click();
  const turn = page.locator('article[data-role="assistant"]').last();
  await expect(turn).toHaveAttribute('aria-busy', 'false', { timeout: 20_000 });
  await expect(turn).toContainText(answer);
  const [first, second] = await chatRequests();
  expect(String(first!.body.messages[0].content)).toContain('You are the harbour master.');
  expect(first!.body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(['tide_table']);
  expect(JSON.stringify(second!.body.messages)).toContain('High tide at Porto: 06:42');
}

test('the served agent greets on the empty conversation and a message there runs it', async ({ page }) => {
  await page.goto(url);
  await expect(page.getByText('A new conversation with Harbour Master')).toBeVisible();
  await expect(page.getByText('Knows the tides of every harbour.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'When is high tide in Porto?' })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'Plugins that did not load' })).toContainText(
    'The plugin broken.mjs did not load: no tide tables here',
  );
  await runsTheAgent(page, 'When is high tide in Porto?', 'High tide in Porto is at 06:42.');
  // The conversation is kept in the DATA_DIR given to `npm run serve`.
  expect(readdirSync(dataDir).length).toBeGreaterThan(0);
  // A new chat starts with the served agent again.
  await page.getByRole('button', { name: 'New chat' }).first().click();
  await expect(page.getByText('A new conversation with Harbour Master')).toBeVisible();
  // The Agents list has it marked as coming from code (its file), with no Edit or Delete: the file is where it
  // changes. The settings' tool list marks its tool the same way.
  const row = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('button', { name: 'Chat with Harbour Master' }) });
  await expect(row.getByText('from code')).toBeVisible();
  await expect(row.getByTitle(/ my-agent\.mjs;/)).toBeVisible();
  await expect(row.getByRole('button', { name: 'Edit Harbour Master' })).toHaveCount(0);
  await expect(row.getByRole('button', { name: 'Delete Harbour Master' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Settings' }).click();
  const tool = page.getByRole('region', { name: 'Settings' }).locator('label').filter({ hasText: 'tide_table' });
  await expect(tool.getByText('from code')).toBeVisible();
  // The marks, the failure notice and the served agent's greeting pass axe (serious and critical).
  expect(await seriousViolations(page)).toEqual([]);
});

test.describe('on a phone, in Chinese', () => {
  test.use({ locale: 'zh-CN', viewport: { width: 390, height: 844 } });

  test('the served agent’s name and suggestion fit the screen and a message runs it', async ({ page }) => {
    await page.goto(url);
    await expect(page.getByText('与 Harbour Master 的新对话')).toBeVisible();
    await expect(page.getByText('Knows the tides of every harbour.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'When is high tide in Porto?' })).toBeInViewport();
    const { scrollWidth, innerWidth } = await pageWidth(page);
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    await runsTheAgent(page, '波尔图什么时候涨潮？', '波尔图 06:42 涨潮。');
    // The Agents list is in the menu on a phone: it names the plugin that did not load, on the screen.
    await page.getByRole('button', { name: '菜单' }).click();
    const failed = page.getByRole('alert').filter({ hasText: '未能加载的插件' });
    await expect(failed).toContainText('插件 broken.mjs 未能加载：no tide tables here');
    await expect(failed).toBeInViewport();
  });
});
