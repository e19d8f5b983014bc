// Finding: DNS rebinding got through. `Host: evil.example` was accepted on every route, and with Host equal to
// Origin the server actions ran (list, rename, load, delete conversations; with MCP_CONFIG_EDITABLE=1 an mcpServers
// entry running /bin/sh). Now a Host that is not a name the app is served under is refused before anything runs.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionValue, callAction, countRows, request, startApp, type App } from './support/app';

let app: App;
let conversationId: string;
const evil = { host: 'evil.example', origin: 'http://evil.example' };

beforeAll(async () => {
  app = await startApp({ env: { MCP_CONFIG_EDITABLE: '1' } });
  conversationId = actionValue<string>(await callAction(app, 'startConversation', []));
  actionValue(await callAction(app, 'renameConversation', [conversationId, 'Mine']));
});
afterAll(() => app?.stop());

function titles(): Promise<string[]> {
  return callAction(app, 'listConversations', []).then((r) => actionValue<{ title: string }[]>(r).map((c) => c.title));
}

describe('a request addressed to another name (DNS rebinding) is refused', () => {
  it('on route handlers and pages: 403 with the reason', async () => {
    for (const [pathname, method] of [
      ['/api/health', 'GET'],
      ['/', 'GET'],
      [`/api/files?conversationId=${conversationId}`, 'GET'],
      ['/sign-in', 'GET'],
    ] as const) {
      const res = await request(app.url, pathname, { method, headers: { host: 'evil.example:3000' } });
      expect(res.status, pathname).toBe(403);
      expect(res.text, pathname).toMatch(/This app is not served under the name \\?"evil\.example\\?"/);
    }
  });

  it('POST /api/chat with Host and Origin both the attacker’s: 403, the model server receives nothing', async () => {
    app.model.reset();
    const res = await request(app.url, '/api/chat', {
      headers: { ...evil, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'hello', tools: ['code_interpreter'] }),
    });
    expect(res.status).toBe(403);
    expect(app.model.requests).toHaveLength(0);
  });

  it('server actions with Host equal to Origin: list, load, rename and delete are refused and change nothing', async () => {
    for (const [name, args] of [
      ['listConversations', []],
      ['loadConversation', [conversationId]],
      ['renameConversation', [conversationId, 'Taken over']],
      ['deleteConversation', [conversationId]],
    ] as const) {
      const res = await callAction(app, name, [...args], evil);
      expect(res.status, name).toBe(403);
      expect(res.text, name).not.toContain(conversationId);
    }
    expect(await titles()).toEqual(['Mine']);
    expect(countRows(app, 'conversations')).toBe(1);
  });

  it('saving an mcpServers entry that runs /bin/sh is refused; the file is not written and nothing runs', async () => {
    const marker = path.join(app.dataDir, 'pwned');
    const config = JSON.stringify({ mcpServers: { x: { command: '/bin/sh', args: ['-c', `id > ${marker}`] } } });
    const res = await callAction(app, 'saveMcpConfigText', [config], evil, '/admin');
    expect(res.status).toBe(403);
    await new Promise((r) => setTimeout(r, 500));
    expect(existsSync(path.join(app.dataDir, 'mcp.json'))).toBe(false);
    expect(existsSync(marker)).toBe(false);
    // The same action from the app's own page is allowed (MCP_CONFIG_EDITABLE=1): the refusal was the Host's.
    const own = await callAction(app, 'readMcpConfigText', [], {}, '/admin');
    expect(actionValue<{ ok: boolean }>(own).ok).toBe(true);
  });

  it('a GET that names a server action (skipping proxy.ts) is checked too', async () => {
    const res = await request(app.url, '/', { headers: { host: 'evil.example', 'next-action': 'anything' } });
    expect(res.status).toBe(403);
    expect(res.text).not.toContain('scripted-security');
  });
});
