// A Router or GroupChat saved on the Agents page holding agents from code (plugins, loaded from a folder as the app
// loads PLUGINS_DIR): saved (by the id `plugin:<name>`) and run by the chat service as the app builds it, over a real
// SQLite file and the scripted model server over HTTP; the member's answer, and its plugin tool's, reach the run's
// events. The nesting limit counts members from code; an export names them by that id and an import on another
// account finds them again. When the plugin is no longer loaded, a run says so by a code (both languages), a save
// keeps the member the agent held, and nothing adds it anew. Another user may hold the server's agents from code,
// never someone else's saved agent.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTranslator } from 'next-intl';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { foldEvents, type AgentEvent } from '../../lib/agent';
import { everyToolActor } from '../../lib/chat/actor';
import { feedEvent } from '../../lib/chat/feed';
import {
  exportAgent,
  importAgent,
  saveAgentDefinition,
  saveImportedAgent,
  type AgentExport,
} from '../../lib/chat/saved-agents';
import { foldRun, type AgentBlock } from '../../lib/chat/view';
import { loadConfig } from '../../lib/config';
import en from '../../lib/i18n/messages/en.json';
import zhCN from '../../lib/i18n/messages/zh-CN.json';
import { apiModels } from '../../lib/openai-api/models';
import { PluginCatalog } from '../../lib/plugins';
import type { ErrorCode, ErrorValues } from '../../lib/protocol/errors';
import type { FeedEvent } from '../../lib/protocol/events';
import { createAppContext, type AppContext } from '../../lib/server/context';
import { openSqliteStore } from '../../lib/store';
import { ownerScope } from '../../lib/store/owner';
import type { ChatStore, SavedAgent } from '../../lib/store/types';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { drain, follow } from '../support/chat';

const FIXTURES = path.resolve(__dirname, '../fixtures/plugins');
const WEATHER = 'plugin:Weather Desk';
// Loaded after weather.mjs (files load in name order): Routers from code over its agent, one and two deep.
const ROUTERS = `export const agents = [
  { name: 'Weather Router', kind: 'router', members: ['Weather Desk'] },
  { name: 'Weather Chain', kind: 'router', members: ['Weather Router'] },
];
`;

const A = ownerScope('user-a');
const B = ownerScope('user-b');
const ACTOR_A = everyToolActor(A);
const ACTOR_B = everyToolActor(B);

let dir: string;
let pluginsDir: string;
let catalog: PluginCatalog;
let model: ModelServer;
let store: ChatStore;
let ctx: AppContext;

/** Puts the plugin files in the folder (or takes them out) and loads the folder again, as a restart would. */
async function plugins(loaded: boolean) {
  for (const f of readdirSync(pluginsDir)) rmSync(path.join(pluginsDir, f));
  if (loaded) {
    cpSync(path.join(FIXTURES, 'weather.mjs'), path.join(pluginsDir, 'weather.mjs'));
    writeFileSync(path.join(pluginsDir, 'x-routers.mjs'), ROUTERS);
  }
  await catalog.load();
  expect(catalog.failures()).toEqual([]);
  expect(catalog.agents().length).toBe(loaded ? 3 : 0);
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'plugin-members-'));
  pluginsDir = path.join(dir, 'plugins');
  mkdirSync(pluginsDir);
  // An empty folder loads nothing and fails nothing; the files go in per test.
  catalog = new PluginCatalog(pluginsDir, [], () => {});
  model = await createModelServer();
  store = await openSqliteStore(path.join(dir, 'chat.db'));
  const config = loadConfig({ DATA_DIR: dir, OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'k', OPENAI_MODEL: 'm' });
  ctx = await createAppContext(config, store, { plugins: catalog });
});
afterAll(async () => {
  await store?.close();
  await model?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  model.reset();
  await plugins(true);
  for (const owner of [A, B]) {
    for (const a of (await store.listAgents(owner)).filter((x) => x.members.length))
      await store.deleteAgent(owner, a.id);
    for (const a of await store.listAgents(owner)) await store.deleteAgent(owner, a.id);
  }
});

const analyst = {
  name: 'Data analyst',
  description: 'answers with numbers',
  avatar: '📊',
  kind: 'fncall',
  systemMessage: 'You are a careful analyst.',
  tools: ['calculator'],
  suggestions: [],
};

/** Saves a definition as the Agents page's save does: members looked up among saved agents and the plugins'. */
function save(owner: typeof A, id: string | undefined, definition: object): Promise<SavedAgent> {
  return saveAgentDefinition(store, owner, id, { ...analyst, ...definition }, ctx.agents);
}

/** Imports an export file as the page's import does. */
async function importFile(owner: typeof A, file: object) {
  const { definition } = await importAgent(store, owner, JSON.stringify(file), ctx.agents);
  return saveImportedAgent(store, owner, definition, undefined, ctx.agents);
}

async function refusalOf(attempt: Promise<unknown>): Promise<Error & { code?: string; values?: ErrorValues }> {
  try {
    await attempt;
  } catch (e) {
    return e as Error;
  }
  throw new Error('not refused');
}

const say = {
  en: createTranslator({ locale: 'en', messages: en, namespace: 'errors' }),
  zh: createTranslator({ locale: 'zh-CN', messages: zhCN as typeof en, namespace: 'errors' }),
};

/** A turn to the agent `agentId` in a new conversation of the actor's, its events as the page follows them. */
async function turn(actor: typeof ACTOR_A, agentId: string): Promise<AgentEvent[]> {
  model.setScenario({
    replies: [
      { content: 'Call: Weather Desk\nReply:' },
      { toolCalls: [{ id: 'call_w', name: 'plugin_weather', arguments: '{"city": "Oslo"}' }] },
      { content: 'It is 23°C and clear in Oslo.' },
    ],
  });
  const started = await ctx.chat.send(actor, { message: 'Weather in Oslo?', settings: { agentId } });
  const events = await drain(follow(ctx.chat, actor.owner, started.runId));
  expect(events.at(-1)).toMatchObject({ type: 'run-end', reason: 'answered' });
  return events;
}

/** The member sections of a run as the page shows them: each child's name and its answer. */
function members(events: AgentEvent[]): { name: string; answer: string; tool?: string }[] {
  const feed = events.map(feedEvent).filter((e): e is FeedEvent => e !== undefined);
  const blocks = foldRun(events[0]!.runId, feed).blocks.filter((b): b is AgentBlock => b.kind === 'agent');
  return blocks.map((b) => {
    const text = b.run.blocks.flatMap((x) => (x.kind === 'text' ? [x.text] : [])).join('');
    const tool = b.run.blocks.find((x) => x.kind === 'tool');
    return { name: b.name, answer: text, ...(tool?.kind === 'tool' ? { tool: String(tool.result) } : {}) };
  });
}

describe('a saved Router holding an agent from code', () => {
  it('saves, and runs: the member from code answers with its plugin tool, in the run’s events', async () => {
    const helper = await save(A, undefined, {});
    const desk = await save(A, undefined, { name: 'Desk', kind: 'router', members: [WEATHER, helper.id] });
    expect(desk.members).toEqual([WEATHER, helper.id]);

    const events = await turn(ACTOR_A, desk.id);
    expect(events.find((e) => e.type === 'handoff')).toMatchObject({ to: 'Weather Desk', reason: 'call' });
    expect(members(events)).toEqual([
      { name: 'Weather Desk', answer: 'It is 23°C and clear in Oslo.', tool: 'Oslo: 23°C and clear (plugin weather)' },
    ]);
    // The router was told of both members; the member ran with its plugin's system message and tool.
    const [router, member] = model.requests;
    expect(router!.body.messages[0].content).toContain('Weather Desk: Says the weather, from code');
    expect(member!.body.messages[0]).toMatchObject({ content: expect.stringContaining('You tell the weather.') });
    expect(member!.body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(['plugin_weather']);
    // Stored under the member's name, as the page shows it again later.
    const stored = foldEvents(await store.getRunEvents(A, events[0]!.runId));
    expect(stored.map((m) => [m.role, m.name, m.content])).toEqual([
      ['assistant', 'Weather Desk', ''],
      ['function', 'plugin_weather', 'Oslo: 23°C and clear (plugin weather)'],
      ['assistant', 'Weather Desk', 'It is 23°C and clear in Oslo.'],
    ]);
    // /v1 lists the Router as a model of its owner's.
    expect((await apiModels(ctx.agents, A)).map((m) => m.name)).toEqual(
      expect.arrayContaining(['Desk', 'Weather Desk']),
    );

    // Deleting the saved member leaves the Router holding the one from code; it saves again as it is, and runs.
    expect(await store.deleteAgent(A, helper.id)).toBe(true);
    const left = (await store.getAgent(A, desk.id))!;
    expect(left.members).toEqual([WEATHER]);
    await expect(save(A, desk.id, { name: 'Desk', kind: 'router', members: left.members })).resolves.toMatchObject({
      members: [WEATHER],
    });
    model.reset();
    expect(members(await turn(ACTOR_A, desk.id)).map((m) => m.name)).toEqual(['Weather Desk']);
  });

  it('counts members from code in the nesting limit', async () => {
    // Page Router → Weather Router → Weather Desk: three deep, the most there may be.
    const top = await save(A, undefined, { name: 'Top', kind: 'groupchat', members: ['plugin:Weather Router'] });
    // Over Weather Chain (two Routers from code): four deep.
    const deep = await refusalOf(
      save(A, undefined, { name: 'Deep', kind: 'router', members: ['plugin:Weather Chain'] }),
    );
    expect(deep).toMatchObject({ code: 'agent-too-deep', field: 'members', status: 400 });
    // A Router over Top: four deep, through the members from code.
    const over = await refusalOf(save(A, undefined, { name: 'Over', kind: 'router', members: [top.id] }));
    expect(over).toMatchObject({ code: 'agent-too-deep', field: 'members' });
    expect((await store.listAgents(A)).map((a) => a.name)).toEqual(['Top']);
  });

  it('exports a member from code by its id; an import on another account finds it again', async () => {
    const helper = await save(A, undefined, {});
    const desk = await save(A, undefined, { name: 'Desk', kind: 'router', members: [WEATHER, helper.id] });
    const file: AgentExport = await exportAgent(ctx.agents, A, desk.id);
    expect(file.agent.members).toEqual([WEATHER, 'Data analyst']);

    // B has no "Data analyst" of his own: A's is not his to hold.
    expect(await refusalOf(importFile(B, file))).toMatchObject({ code: 'agent-import-member-missing', status: 400 });
    const his = await save(B, undefined, {});
    const imported = await importFile(B, file);
    expect(imported).toMatchObject({ agent: { name: 'Desk', members: [WEATHER, his.id] } });
    // A file that names the member from code by its name alone (exported before) finds it too.
    const older = { ...file, agent: { ...file.agent, name: 'Old desk', members: ['Weather Desk'] } };
    expect(await importFile(B, older)).toMatchObject({ agent: { members: [WEATHER] } });

    // The export file of a Router holding only agents from code is a plugin's agent as it is.
    const front = await save(A, undefined, { name: 'Front', kind: 'router', members: [WEATHER] });
    const frontFile = await exportAgent(ctx.agents, A, front.id);
    writeFileSync(path.join(pluginsDir, 'y-front.mjs'), `export const agents = [${JSON.stringify(frontFile)}];\n`);
    await catalog.load();
    expect(catalog.failures()).toEqual([]);
    expect(catalog.agent('plugin:Front')).toMatchObject({ kind: 'router', members: [WEATHER], plugin: 'y-front.mjs' });

    // B's Router runs, the member from code answering.
    if (!('agent' in imported)) throw new Error('not imported');
    expect(members(await turn(ACTOR_B, imported.agent.id)).map((m) => m.answer)).toEqual([
      'It is 23°C and clear in Oslo.',
    ]);
  });

  it('as another user: B holds the agents from code, never A’s saved agent', async () => {
    const hers = await save(A, undefined, {});
    const refused = await refusalOf(save(B, undefined, { name: 'Thief', kind: 'router', members: [WEATHER, hers.id] }));
    expect(refused).toMatchObject({ status: 404, code: 'agent-member-gone' });
    // A plugin id made of A's agent's id names no agent from code.
    const forged = await refusalOf(
      save(B, undefined, { name: 'Thief', kind: 'router', members: [`plugin:${hers.id}`] }),
    );
    expect(forged).toMatchObject({ code: 'agent-plugin-member-gone', field: 'members' });
    // The agent from code alone is B's to hold.
    const mine = await save(B, undefined, { name: 'Mine', kind: 'router', members: [WEATHER] });
    expect((await store.listAgents(B)).map((a) => [a.name, a.members])).toEqual([['Mine', [WEATHER]]]);
    expect(mine.members).toEqual([WEATHER]);
    await expect(ctx.chat.send(ACTOR_B, { message: 'hi', settings: { agentId: hers.id } })).rejects.toMatchObject({
      status: 404,
    });
    expect(await store.getAgent(A, hers.id)).toEqual(hers);
  });
});

describe('a member from code whose plugin is no longer loaded', () => {
  it('is refused by a code when the Router runs, in both languages, for each user; kept by a save, never added', async () => {
    const desk = await save(A, undefined, { name: 'Desk', kind: 'router', members: [WEATHER] });
    const hisDesk = await save(B, undefined, { name: 'Front desk', kind: 'groupchat', members: [WEATHER] });
    await plugins(false);

    for (const [actor, holder, id] of [
      [ACTOR_A, 'Desk', desk.id],
      [ACTOR_B, 'Front desk', hisDesk.id],
    ] as const) {
      const refused = await refusalOf(ctx.chat.send(actor, { message: 'Weather in Oslo?', settings: { agentId: id } }));
      expect(refused).toMatchObject({
        status: 409,
        code: 'agent-plugin-member-gone',
        values: { name: 'Weather Desk', holder },
      });
      expect(say.en(refused.code as ErrorCode, refused.values)).toBe(refused.message);
      expect(say.zh(refused.code as ErrorCode, refused.values)).toBe(
        `“${holder}”的成员“Weather Desk”来自代码（插件文件），但服务器当前没有加载它（文件已被移除或加载失败）：可请服务器管理员恢复它，或将它从“${holder}”中移除。`,
      );
    }
    expect(model.requests).toEqual([]);
    // A conversation with the agent from code itself.
    const direct = await refusalOf(ctx.chat.send(ACTOR_A, { message: 'hi', settings: { agentId: WEATHER } }));
    expect(direct).toMatchObject({ status: 404, code: 'agent-plugin-gone', values: { name: 'Weather Desk' } });
    expect(say.zh(direct.code as ErrorCode, direct.values)).toBe(
      '智能体“Weather Desk”来自代码（插件文件），但服务器当前没有加载它（文件已被移除或加载失败）：可请服务器管理员恢复它。',
    );

    // The Router's other changes save, keeping the member (its plugin may come back); a new holder cannot add it.
    await expect(
      save(A, desk.id, { name: 'Desk', description: 'the front desk', kind: 'router', members: [WEATHER] }),
    ).resolves.toMatchObject({ description: 'the front desk', members: [WEATHER] });
    const added = await refusalOf(save(A, undefined, { name: 'New desk', kind: 'router', members: [WEATHER] }));
    expect(added).toMatchObject({ status: 400, field: 'members', code: 'agent-plugin-member-gone' });
    const file = await exportAgent(ctx.agents, A, desk.id);
    expect(file.agent.members).toEqual([WEATHER]);
    const imported = await refusalOf(importFile(A, { ...file, agent: { ...file.agent, name: 'Copy' } }));
    expect(imported).toMatchObject({ code: 'agent-import-plugin-missing', values: { name: 'Weather Desk' } });
    expect(say.zh(imported.code as ErrorCode, imported.values)).toBe(
      '它的成员“Weather Desk”来自代码（插件文件），而本服务器没有加载该插件。',
    );

    // The plugin back: the Router that kept it runs again.
    await plugins(true);
    expect(members(await turn(ACTOR_A, desk.id)).map((m) => m.name)).toEqual(['Weather Desk']);
  });
});

describe('an agent from code naming a tool this server does not have', () => {
  it('is refused saying what the user can do instead of editing it (ask the admin, or a copy), in both languages', async () => {
    writeFileSync(
      path.join(pluginsDir, 'z-stargazer.mjs'),
      `export const agents = [{ name: 'Stargazer', function_list: ['star_chart'] }];\n`,
    );
    await catalog.load();
    expect(catalog.failures()).toEqual([]);
    const desk = await save(A, undefined, { name: 'Sky desk', kind: 'router', members: ['plugin:Stargazer'] });

    for (const agentId of ['plugin:Stargazer', desk.id]) {
      const refused = await refusalOf(ctx.chat.send(ACTOR_A, { message: 'Which stars?', settings: { agentId } }));
      expect(refused).toMatchObject({
        status: 400,
        code: 'plugin-agent-tool-unknown',
        values: { name: 'Stargazer', tools: 'star_chart' },
        message:
          'This server has no tool named star_chart, which the agent “Stargazer” uses (no builtin tool, plugin or MCP server gives one). The agent comes from code (a plugin file), so it cannot be edited here: ask the server’s admin to provide the tool, or duplicate the agent on the Agents page and untick what is missing in the copy.',
      });
      expect(refused.message).not.toContain('Edit the agent');
      expect(say.en(refused.code as ErrorCode, refused.values)).toBe(refused.message);
      expect(say.zh(refused.code as ErrorCode, refused.values)).toBe(
        '本服务器没有名为 star_chart 的工具，而智能体“Stargazer”用到了它（没有任何内置工具、插件或 MCP 服务器提供）。这个智能体来自代码（插件文件），不能在这里编辑：请服务器管理员提供这个工具，或在“智能体”页复制它，再在副本中取消勾选缺少的工具。',
      );
    }
    expect(model.requests).toEqual([]);

    // Its copy is the user's own: that one is edited, so its refusal says so.
    const copy = await save(A, undefined, { name: 'My stargazer', tools: ['star_chart'] });
    const own = await refusalOf(ctx.chat.send(ACTOR_A, { message: 'hi', settings: { agentId: copy.id } }));
    expect(own).toMatchObject({ code: 'agent-tool-unknown', values: { name: 'My stargazer' } });
    expect(own.message).toContain('Edit the agent on the Agents page');
  });
});
