// A plugin whose tool reads its key from a file (BILLING_KEY_FILE) when it is made: with the file gone, building an
// agent that holds it fails, a fault of the server's and not the caller's. The run-start error tests use it.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const KEY_FILE_PLUGIN = `import { readFileSync } from 'node:fs';
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

/** Writes the plugin into `pluginsDir` and its key file into `dir`/secrets; returns the key file's path (what
 *  BILLING_KEY_FILE must name). */
export function writeKeyFilePlugin(pluginsDir: string, dir: string): string {
  writeFileSync(path.join(pluginsDir, 'billing.mjs'), KEY_FILE_PLUGIN);
  const keyFile = path.join(dir, 'secrets', 'billing.key');
  mkdirSync(path.dirname(keyFile), { recursive: true });
  writeFileSync(keyFile, 'k');
  return keyFile;
}

/** What a caller is told of a fault (lib/llm/error-report.ts faultMessage); the group is the error id. */
export const FAULT_MESSAGE = /^Something went wrong on the server \(error id ([0-9a-f]{8})\); its log says what\.$/;
