// Plugins in the built app (`next start`, accounts on): a PLUGINS_DIR outside the checkout with an .mjs plugin (a
// tool and an agent), a .ts plugin (type annotations only, stripped on Node 20) and a broken one. Their tools are in
// the page's tool list marked with their file, their agent in every user's agent list and on /v1/models, and a
// completion on that agent runs it against the scripted model server, calling the plugin's tool. The broken module
// is named by its file in the server's output and, to the admin only, on the page; nobody can change or delete a
// plugin's agent through the page.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppInfo } from '../../lib/chat/page';
import type { ApiKeyRecord, SavedAgent } from '../../lib/store/types';
import { request, ROOT, startApp, type App } from './support/app';
import { actionAs, resultAs, signUp, type Session } from './support/accounts';

const FIXTURES = path.join(ROOT, 'test/fixtures/plugins');
const AGENT_ID = 'plugin:Weather Desk';

let app: App;
let pluginsDir: string;
let admin: Session;
let user: Session;
let userKey: string;

beforeAll(async () => {
  pluginsDir = mkdtempSync(path.join(tmpdir(), 'app-plugins-'));
  for (const f of ['weather.mjs', 'typed.ts', 'broken.mjs']) cpSync(path.join(FIXTURES, f), path.join(pluginsDir, f));
  app = await startApp({ env: { AUTH: 'required', PLUGINS_DIR: pluginsDir } });
  admin = await signUp(app, 'admin@example.com');
  await resultAs(app, admin, 'updateServerSettings', [{ signUp: 'open' }]);
  user = await signUp(app, 'user@example.com');
  const made = await resultAs<{ secret: string; key: ApiKeyRecord }>(app, user, 'createApiKey', ['plugins', 'run']);
  if (!made.ok) throw new Error(made.error);
  userKey = made.value.secret;
}, 180_000);
afterAll(async () => {
  await app?.stop();
  if (pluginsDir) rmSync(pluginsDir, { recursive: true, force: true });
});

function info(who: Session): Promise<AppInfo> {
  return actionAs<AppInfo>(app, who, 'appInfo', []);
}

describe('plugins in the running app', () => {
  it('names the broken module by its file in the server output, and only to the admin on the page', async () => {
    expect(app.output()).toContain('Plugin broken.mjs failed to load: the weather service key is missing');
    expect((await info(admin)).pluginFailures).toEqual([
      { file: 'broken.mjs', error: 'the weather service key is missing' },
    ]);
    const mine = await info(user);
    expect(mine).not.toHaveProperty('pluginFailures');
    expect(JSON.stringify(mine)).not.toContain('broken.mjs');
  });

  it('lists the .mjs and .ts plugins’ tools with their file, and the agent in every user’s list', async () => {
    for (const who of [admin, user]) {
      const tools = (await info(who)).tools.filter((t) => t.plugin);
      expect(tools).toEqual([
        { name: 'plugin_add', description: 'Adds two numbers', plugin: 'typed.ts' },
        { name: 'plugin_weather', description: 'Current weather for a city (from a plugin)', plugin: 'weather.mjs' },
      ]);
      const agents = await resultAs<(SavedAgent & { plugin?: string })[]>(app, who, 'listAgents', []);
      if (!agents.ok) throw new Error(agents.error);
      expect(agents.value).toEqual([
        expect.objectContaining({
          id: AGENT_ID,
          name: 'Weather Desk',
          plugin: 'weather.mjs',
          tools: ['plugin_weather'],
        }),
      ]);
    }
  });

  it('refuses to change or delete a plugin’s agent through the page, even for the admin', async () => {
    for (const who of [admin, user]) {
      const saved = await resultAs(app, who, 'saveAgent', [AGENT_ID, { name: 'Hijacked', kind: 'fncall' }]);
      expect(saved).toMatchObject({ ok: false, error: expect.stringContaining('comes from code') });
      const deleted = await resultAs(app, who, 'deleteAgent', [AGENT_ID]);
      expect(deleted).toMatchObject({ ok: false });
    }
    const agents = await resultAs<SavedAgent[]>(app, user, 'listAgents', []);
    expect(agents.ok && agents.value.map((a) => a.name)).toEqual(['Weather Desk']);
  });

  it('offers the agent on /v1/models and runs it: its system message, its plugin tool called and answered', async () => {
    const auth = { authorization: `Bearer ${userKey}` };
    const models = await request(app.url, '/v1/models', { headers: auth });
    expect(models.json<{ data: { id: string }[] }>().data.map((m) => m.id)).toContain(AGENT_ID);
    app.model.reset();
    app.model.setScenario({
      replies: [
        { toolCalls: [{ id: 'call_w', name: 'plugin_weather', arguments: '{"city": "Oslo"}' }] },
        { content: 'It is 23°C and clear in Oslo.' },
      ],
    });
    const res = await request(app.url, '/v1/chat/completions', {
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'Weather Desk', messages: [{ role: 'user', content: 'Weather in Oslo?' }] }),
    });
    expect(res.status).toBe(200);
    expect(res.json<{ choices: { message: { content: string } }[] }>().choices[0]!.message.content).toBe(
      'It is 23°C and clear in Oslo.',
    );
    const [first, second] = app.model.requests.filter((r) => r.path.endsWith('/chat/completions'));
    expect(first!.body.messages[0]).toMatchObject({
      role: 'system',
      content: expect.stringContaining('You tell the weather.'),
    });
    expect(first!.body.tools?.map((t: { function: { name: string } }) => t.function.name)).toEqual(['plugin_weather']);
    expect(JSON.stringify(second!.body.messages)).toContain('Oslo: 23°C and clear (plugin weather)');
  });
});

describe('a saved Router holding the plugin’s agent', () => {
  it('is saved through the page’s action by any user and runs over /v1; another user’s saved agent stays out', async () => {
    // The admin's own agent, which the user must not reach through a Router of his.
    const hers = await resultAs<SavedAgent>(app, admin, 'saveAgent', [undefined, { name: 'Private', kind: 'fncall' }]);
    if (!hers.ok) throw new Error(hers.error);
    const thief = await resultAs(app, user, 'saveAgent', [
      undefined,
      { name: 'Thief', kind: 'router', members: [AGENT_ID, hers.value.id] },
    ]);
    expect(thief).toMatchObject({ ok: false, status: 404, code: 'agent-member-gone' });

    const desk = await resultAs<SavedAgent>(app, user, 'saveAgent', [
      undefined,
      { name: 'Front Desk', kind: 'router', members: [AGENT_ID] },
    ]);
    expect(desk).toMatchObject({ ok: true, value: { members: [AGENT_ID] } });
    app.model.reset();
    app.model.setScenario({
      replies: [
        { content: 'Call: Weather Desk\nReply:' },
        { toolCalls: [{ id: 'call_w', name: 'plugin_weather', arguments: '{"city": "Oslo"}' }] },
        { content: 'It is 23°C and clear in Oslo.' },
      ],
    });
    const res = await request(app.url, '/v1/chat/completions', {
      headers: { authorization: `Bearer ${userKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'Front Desk', messages: [{ role: 'user', content: 'Weather in Oslo?' }] }),
    });
    expect(res.status).toBe(200);
    expect(res.json<{ choices: { message: { content: string } }[] }>().choices[0]!.message.content).toBe(
      'It is 23°C and clear in Oslo.',
    );
    const calls = app.model.requests.filter((r) => r.path.endsWith('/chat/completions'));
    expect(JSON.stringify(calls[2]!.body.messages)).toContain('Oslo: 23°C and clear (plugin weather)');
    // The admin does not see the user's Router; the user does not see the admin's agent.
    const listed = await resultAs<SavedAgent[]>(app, admin, 'listAgents', []);
    expect(listed.ok && listed.value.map((a) => a.name)).toEqual(['Private', 'Weather Desk']);
    const his = await resultAs<SavedAgent[]>(app, user, 'listAgents', []);
    expect(his.ok && his.value.map((a) => a.name)).toEqual(['Front Desk', 'Weather Desk']);
  });
});
