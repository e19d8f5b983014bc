// An error nobody meant, while /v1/chat/completions starts a run, as a plugin makes one: its tool reads its key from a
// file each time the tool is made, and the file is gone by the time a run builds the agent (ENOENT, with the file's
// absolute path). The real handlers behind test/support/api-server.ts, a real SQLite store, the plugin loaded from a
// folder as the app loads PLUGINS_DIR.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyToolActor } from '../../lib/chat/actor';
import { loadConfig } from '../../lib/config';
import { PluginCatalog } from '../../lib/plugins';
import { createAppContext } from '../../lib/server/context';
import { openSqliteStore } from '../../lib/store';
import { ownerScope } from '../../lib/store/owner';
import type { ChatStore } from '../../lib/store/types';
import { startApiServer, type ApiServer } from '../support/api-server';

const PLUGIN = `import { readFileSync } from 'node:fs';
import { BaseTool } from '@agent-studio/core';
export class Billing extends BaseTool {
  name = 'plugin_billing';
  description = 'Looks up an invoice';
  parameters = { type: 'object', properties: {} };
  key = readFileSync(process.env.BILLING_KEY_FILE, 'utf8');
  async call() { return 'paid'; }
}
export const agents = [{ name: 'Billing Desk', function_list: ['plugin_billing'] }];
`;

let dir: string;
let keyFile: string;
let store: ChatStore;
let api: ApiServer;
let client: OpenAI;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'v1-unexpected-'));
  keyFile = path.join(dir, 'secrets', 'billing.key');
  writeFileSync(path.join(dir, 'billing.mjs'), PLUGIN);
  mkdirSync(path.dirname(keyFile));
  writeFileSync(keyFile, 'k');
  process.env.BILLING_KEY_FILE = keyFile;
  const catalog = new PluginCatalog(dir, []);
  await catalog.load();
  expect(catalog.failures()).toEqual([]);
  store = await openSqliteStore(path.join(dir, 'chat.db'));
  const config = loadConfig({ DATA_DIR: dir, OPENAI_API_KEY: 'k', OPENAI_MODEL: 'm' });
  api = await startApiServer(await createAppContext(config, store, { plugins: catalog }), {
    'key-a': everyToolActor(ownerScope('user-a')),
  });
  client = new OpenAI({ baseURL: api.url, apiKey: 'key-a', maxRetries: 0 });
});
afterAll(async () => {
  await api?.close();
  await store?.close();
  delete process.env.BILLING_KEY_FILE;
  rmSync(dir, { recursive: true, force: true });
});

describe('POST /v1/chat/completions, an unexpected error while starting', () => {
  it('is said without the server’s absolute paths, as a server action says it', async () => {
    rmSync(keyFile);
    const failed = await client.chat.completions
      .create({ model: 'Billing Desk', messages: [{ role: 'user', content: 'invoice 7?' }] })
      .catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(OpenAI.APIError);
    const message = (failed as Error).message;
    expect(message).toContain('ENOENT');
    expect(message).toContain('…/billing.key');
    expect(message).not.toContain(dir);
  });
});
