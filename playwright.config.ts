import { defineConfig, devices } from '@playwright/test';
import { execSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

// Ports are picked once in the runner process; workers inherit process.env and so agree on them.
const freePort = () =>
  execSync(
    `node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"`,
  )
    .toString()
    .trim();
process.env.E2E_PORT ??= freePort();
process.env.E2E_MODEL_PORT ??= freePort();
const PORT = Number(process.env.E2E_PORT);
const MODEL_PORT = Number(process.env.E2E_MODEL_PORT);
const baseURL = `http://127.0.0.1:${PORT}`;
// Tests drive the scripted model server through its /_control/* calls (e2e/support/model.ts).
process.env.E2E_MODEL_URL ??= `http://127.0.0.1:${MODEL_PORT}`;
// A fresh database per run: Playwright empties test-results/ before it starts the web servers.
process.env.E2E_DATA_DIR ??= path.join(__dirname, 'test-results', `e2e-data-${Date.now()}`);

// The MCP config e2e/mcp.spec.ts edits from the page: a fresh copy of the fixture per run (once, in the runner;
// workers inherit the variable), outside test-results/, which Playwright empties at start.
if (!process.env.E2E_MCP_CONFIG) {
  process.env.E2E_MCP_CONFIG = path.join(__dirname, 'node_modules/.cache/agent-studio-e2e/mcp.json');
  mkdirSync(path.dirname(process.env.E2E_MCP_CONFIG), { recursive: true });
  copyFileSync(path.join(__dirname, 'test/fixtures/mcp-e2e.json'), process.env.E2E_MCP_CONFIG);
}

export default defineConfig({
  testDir: './e2e',
  timeout: 30_000,
  // Waits, not speed targets: a first parse or a cold worker passes the default 5 s on a loaded shared machine.
  expect: { timeout: 10_000 },
  workers: 1,
  retries: 0,
  reporter: [['list']],
  // English unless a spec says otherwise (the page follows the browser's language; e2e/language.spec.ts sets zh-CN).
  use: { baseURL, locale: 'en-US', trace: 'off', screenshot: 'off', video: 'off' },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: '/usr/bin/chromium', // Debian's package; never `npx playwright install`
          args: [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        },
      },
    },
  ],
  webServer: [
    {
      command: `npx tsx scripts/model-server/main.ts --port ${MODEL_PORT} --model scripted-e2e,scripted-agent --control`,
      url: `http://127.0.0.1:${MODEL_PORT}/health`,
      reuseExistingServer: false,
      timeout: 20_000,
    },
    {
      command: `./node_modules/.bin/next start -p ${PORT} -H 127.0.0.1`, // `next build` runs before (npm test)
      url: `${baseURL}/api/health`,
      env: {
        OPENAI_BASE_URL: `http://127.0.0.1:${MODEL_PORT}/v1`,
        OPENAI_API_KEY: 'sk-e2e-secret-never-shown',
        OPENAI_MODEL: 'scripted-e2e',
        DATA_DIR: process.env.E2E_DATA_DIR,
        // The model-down test wants its error at once, not after two retries with back-off.
        LLM_MAX_RETRIES: '0',
        // Titles by the first message: the scripted model answers by rules on the last user message, which a title
        // request repeats. e2e/titles.spec.ts starts its own server with the model's titles (the default).
        CONVERSATION_TITLES: 'message',
        // A real stdio MCP server for e2e/mcp.spec.ts (started by the app, relative to the project root).
        MCP_CONFIG: process.env.E2E_MCP_CONFIG,
        MCP_CONFIG_EDITABLE: '1',
        // The suite starts runs faster than a person does (dozens a minute from one client); the limit itself is
        // tested in test/security/run-limits.test.ts.
        MAX_RUNS_PER_MINUTE: '10000',
      },
      reuseExistingServer: false,
      timeout: 60_000,
    },
  ],
});
