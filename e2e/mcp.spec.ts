import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { lastAnswer, openChat, panelOf, send, stopWhileToolRuns } from './support/chat';
import { setScenario } from './support/model';
import { hydrated } from './support/hydrated';

// The app runs with MCP_CONFIG=test/fixtures/mcp-e2e.json: one real stdio server, "fixture".

test('the settings panel shows the MCP server ready with its tools, and a conversation calls one', async ({ page }) => {
  await setScenario({
    rules: [
      {
        when: { lastUserIncludes: 'mcp-kingfisher' },
        reply: [
          {
            toolCalls: [
              { name: 'fixture-echo', arguments: '{"text": "hello from e2e"}' },
              { name: 'fixture-image', arguments: '{}' },
            ],
          },
          { content: 'The server echoed it (mcp-kingfisher).' },
        ],
      },
    ],
  });
  await openChat(page);
  await page.getByRole('button', { name: 'Settings' }).click();
  const server = page.getByRole('listitem', { name: 'MCP server fixture' });
  await expect(server).toContainText('ready with 9 tools', { timeout: 20_000 });
  await expect(server).toContainText('(stdio)');
  for (const tool of ['fixture-echo', 'fixture-image']) {
    const box = server.getByRole('checkbox', { name: new RegExp(`^${tool} `) });
    await expect(box).not.toBeChecked();
    await box.check();
    await expect(box).toBeChecked();
  }

  await send(page, 'Echo something please, mcp-kingfisher');
  const answer = await lastAnswer(page);
  await expect(answer).toContainText('The server echoed it (mcp-kingfisher).');

  const echo = answer.getByRole('button', { name: /fixture-echo/ });
  await echo.click();
  const echoPanel = await panelOf(echo);
  await expect(echoPanel.getByText('echo: hello from e2e', { exact: true })).toBeVisible();

  const image = answer.getByRole('button', { name: /fixture-image/ });
  await image.click();
  const imagePanel = await panelOf(image);
  await expect(imagePanel.getByText('a red square', { exact: true })).toBeVisible();
  // The image is on the card itself (UI: images a tool produced), opened full size from there.
  const img = answer.getByRole('region', { name: 'Images' }).getByRole('img', { name: /returned by the tool/ });
  await expect(img).toBeVisible();
  // Kept by hash in the conversation and loaded from the app (the run log holds the URL, not base64).
  await expect(img).toHaveAttribute('src', /^\/api\/images\/[\w-]+\/[0-9a-f]{64}$/);
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(2);
});

test('an MCP call stopped while it runs says it was stopped, not that it did not run', async ({ page }) => {
  await setScenario({
    rules: [
      {
        when: { lastUserIncludes: 'mcp-dipper' },
        reply: { toolCalls: [{ name: 'fixture-slow', arguments: '{"ms": 20000}' }] },
      },
    ],
  });
  await openChat(page);
  await page.getByRole('button', { name: 'Settings' }).click();
  const server = page.getByRole('listitem', { name: 'MCP server fixture' });
  await expect(server).toContainText('ready with 9 tools', { timeout: 20_000 });
  await server.getByRole('checkbox', { name: /^fixture-slow / }).check();
  await send(page, 'Sleep a while, mcp-dipper');
  await stopWhileToolRuns(page, /fixture-slow/, 1000);
});

test('the MCP tools stay on for the conversation after a reload', async ({ page }) => {
  await setScenario({ rules: [{ when: { lastUserIncludes: 'mcp-heron' }, reply: [{ content: 'ok (mcp-heron)' }] }] });
  await openChat(page);
  await page.getByRole('button', { name: 'Settings' }).click();
  const server = page.getByRole('listitem', { name: 'MCP server fixture' });
  await expect(server).toContainText('ready with 9 tools', { timeout: 20_000 });
  await server.getByRole('checkbox', { name: /^fixture-add / }).check();
  await send(page, 'hello mcp-heron');
  await lastAnswer(page);
  await expect(page).toHaveURL(/\?c=/);
  await page.reload();
  await page.getByRole('button', { name: 'Settings' }).click();
  const again = page.getByRole('listitem', { name: 'MCP server fixture' });
  await expect(again.getByRole('checkbox', { name: /^fixture-add / })).toBeChecked();
  await expect(again.getByRole('checkbox', { name: /^fixture-echo / })).not.toBeChecked();

  // No search provider in this environment: web_search is not offered, and the panel says how to enable it.
  const settings = page.getByRole('region', { name: 'Settings' });
  await expect(settings.getByRole('checkbox', { name: /^web_extractor / })).toHaveCount(1);
  await expect(settings.getByRole('checkbox', { name: /^web_search / })).toHaveCount(0);
  await expect(settings.getByText(/^Web search is off\. Set WEB_SEARCH_PROVIDER to searxng/)).toBeVisible();
});

test('the MCP config is edited on the admin page: errors are shown, a saved server connects', async ({ page }) => {
  test.slow();
  // The chat's Settings lists the servers and links to the admin page, where they are set up.
  await openChat(page);
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByRole('textbox', { name: 'MCP config (JSON)' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Set up MCP servers and web search on the admin page' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  const editor = page.getByRole('textbox', { name: 'MCP config (JSON)' });
  await expect(editor).toHaveValue(/"fixture"/);
  const original = await editor.inputValue();
  const save = page.getByRole('button', { name: 'Save MCP config' });

  await editor.fill('{"mcpServers": {"broken": {"command": 42}}}');
  await save.click();
  await expect(page.getByRole('region', { name: 'MCP servers' }).getByRole('alert')).toContainText(
    'Invalid MCP config: broken.command:',
  );
  await expect(editor).toHaveAttribute('aria-invalid', 'true');

  const config = JSON.parse(original) as { mcpServers: Record<string, unknown> };
  config.mcpServers.second = config.mcpServers.fixture;
  await editor.fill(JSON.stringify(config, null, 2));
  await save.click();
  await expect(page.getByText('Saved; servers reconnected.')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('listitem', { name: 'MCP server second' })).toContainText('ready with 9 tools');
  await expect(page.getByRole('listitem', { name: 'MCP server fixture' })).toContainText('ready with 9 tools');

  // Back to the original file for the other tests.
  await editor.fill(original);
  await save.click();
  await expect(page.getByRole('listitem', { name: 'MCP server second' })).toHaveCount(0, { timeout: 30_000 });
});

test('web search is set up on the admin page: a provider that fails its test search is refused, saying so, unless saved anyway; the chat offers web_search and says what failed', async ({
  page,
  browser,
}) => {
  // A SearXNG- and Tavily-like responder on loopback (the admin may name any address for web search).
  const provider = createServer(async (req, res) => {
    for await (const chunk of req) void chunk;
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (data: unknown) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(data));
    if (url.pathname === '/searxng/search' && url.searchParams.get('format') === 'json') return send({ results: [] });
    if (url.pathname === '/tavily' && req.headers.authorization === 'Bearer tvly-e2e-never-shown')
      return send({ results: [] });
    res.writeHead(401).end('{"detail":"bad key"}');
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  const local = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
  try {
    await setScenario({
      rules: [
        {
          when: { lastUserIncludes: 'search-kestrel' },
          reply: [
            { toolCalls: [{ name: 'web_search', arguments: '{"query": "kestrels"}' }] },
            { content: 'The search failed (search-kestrel).' },
          ],
        },
      ],
    });
    await page.goto('/admin');
    const form = page.getByRole('form', { name: 'Web search' });
    const save = form.getByRole('button', { name: 'Save web search' });
    await hydrated(save);
    await expect(form.getByRole('status')).toHaveText('Web search is off.');

    // The review's address: nothing can answer there. Not "Saved.": the page says so, and offers to save anyway.
    await form.getByRole('combobox', { name: 'Provider' }).selectOption('searxng');
    await form.getByLabel('SearXNG URL').fill('http://127.0.0.1:9');
    await save.click();
    await expect(form.getByRole('alert')).toHaveText(
      'SearXNG at http://127.0.0.1:9 did not answer a test search (fetch refuses to connect to port 9 (a port ' +
        'browsers block too): run the server on another port). Is it running, and is the URL right? If it is only ' +
        'down for now, save it anyway.',
    );
    await expect(form.getByRole('status')).toHaveText('Web search is off.');
    await expect(form.getByText('Saved.')).toHaveCount(0);
    // In Chinese too.
    const zh = await browser.newPage({ locale: 'zh-CN', baseURL: new URL(page.url()).origin });
    await zh.goto('/admin');
    const zhForm = zh.getByRole('form', { name: '网页搜索' });
    await hydrated(zhForm.getByRole('button', { name: '保存网页搜索设置' }));
    await zhForm.getByRole('combobox', { name: '服务商' }).selectOption('searxng');
    await zhForm.getByLabel('SearXNG 地址').fill('http://127.0.0.1:9');
    await zhForm.getByRole('button', { name: '保存网页搜索设置' }).click();
    await expect(zhForm.getByRole('alert')).toHaveText(
      /^SearXNG（http:\/\/127\.0\.0\.1:9）没有响应测试搜索（fetch refuses to connect to port 9 .*）。它是否在运行？/,
    );
    await expect(zhForm.getByRole('checkbox', { name: /^仍然保存/ })).toBeVisible();
    await zh.close();
    await form.getByRole('checkbox', { name: /^Save anyway/ }).check();
    await save.click();
    await expect(form.getByRole('status')).toHaveText('Web search is on (SearXNG).');
    await expect(form.getByRole('alert')).toHaveCount(0);

    // A search then fails saying which provider at which host did not answer, and why: no "fetch failed".
    await openChat(page);
    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('region', { name: 'Settings' });
    await settings.getByRole('checkbox', { name: /^web_search / }).check();
    await expect(settings.getByText(/^Web search is off/)).toHaveCount(0);
    await send(page, 'Look up kestrels, search-kestrel');
    const answer = await lastAnswer(page);
    await expect(answer).toContainText('The search failed (search-kestrel).');
    const card = answer.getByRole('button', { name: /web_search/ });
    await card.click();
    const panel = await panelOf(card);
    await expect(panel).toContainText(
      'SearXNG at 127.0.0.1:9 did not answer: fetch refuses to connect to port 9 (a port browsers block too)',
    );
    await expect(panel).not.toContainText('fetch failed');
    await expect(panel).not.toContainText('error id');

    // One that answers its test search is saved at once; a keyed provider needs its key, which is never shown.
    await page.goto('/admin');
    await hydrated(save);
    await form.getByLabel('SearXNG URL').fill(`${local}/searxng`);
    await save.click();
    await expect(form.getByText('Saved.')).toBeVisible();
    await expect(form.getByRole('status')).toHaveText('Web search is on (SearXNG).');
    await form.getByRole('combobox', { name: 'Provider' }).selectOption('tavily');
    await form.getByLabel(/^Endpoint/).fill(`${local}/tavily`);
    await save.click();
    await expect(form.getByRole('alert')).toHaveText('tavily needs its API key.');
    await form.getByLabel('API key').fill('tvly-e2e-never-shown');
    await save.click();
    await expect(form.getByRole('status')).toHaveText('Web search is on (Tavily).');
    await expect(form.getByLabel('API key')).toHaveValue('');
    expect(await page.content()).not.toContain('tvly-e2e-never-shown');

    // Back to what the environment says (no provider here), for the other tests.
    await form.getByRole('combobox', { name: 'Provider' }).selectOption('environment');
    await save.click();
    await expect(form.getByRole('status')).toHaveText('Web search is off.');
  } finally {
    provider.closeAllConnections();
    await new Promise((r) => provider.close(r));
  }
});
