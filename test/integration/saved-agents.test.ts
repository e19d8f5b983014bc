// Saved agents over a real SQLite file: kept and listed, exported and imported as JSON with readable errors, and run
// by the chat service as the app builds it (its agent factory, the scripted model server over HTTP): a conversation
// with a saved Router hands the turn to a saved helper, whose answer is stored under its name. Each agent is its
// owner's: another user can neither see, edit, export, delete nor run it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { foldEvents } from '../../lib/agent';
import { loadConfig } from '../../lib/config';
import { everyToolActor } from '../../lib/chat/actor';
import {
  AGENT_EXPORT_SCHEMA,
  exportAgent,
  importAgent,
  parseAgentDefinition,
  resolveAgent,
  saveAgentDefinition,
  saveImportedAgent,
  type ImportChoice,
} from '../../lib/chat/saved-agents';
import { createTranslator } from 'next-intl';
import en from '../../lib/i18n/messages/en.json';
import zhCN from '../../lib/i18n/messages/zh-CN.json';
import { codedOf, type ErrorCode, type ErrorValues } from '../../lib/protocol/errors';
import { apiModels } from '../../lib/openai-api/models';
import { createAppContext, type AppContext } from '../../lib/server/context';
import { toolsNotHere } from '../../lib/server/tools-here';
import { ownerScope } from '../../lib/store/owner';
import { openSqliteStore } from '../../lib/store';
import type { ChatStore, SavedAgent } from '../../lib/store/types';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { drain, follow } from '../support/chat';

let model: ModelServer;
let store: ChatStore;
let ctx: AppContext;
const A = ownerScope('user-a');
const B = ownerScope('user-b');
const ACTOR_A = everyToolActor(A);
const ACTOR_B = everyToolActor(B);

beforeAll(async () => {
  model = await createModelServer();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'saved-agents-'));
  store = await openSqliteStore(path.join(dataDir, 'chat.db'));
  ctx = await createAppContext(
    loadConfig({ DATA_DIR: dataDir, OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'k', OPENAI_MODEL: 'm' }),
    store,
  );
});
afterAll(async () => {
  await store.close();
  await model.close();
});
beforeEach(() => model.reset());

const analyst = {
  name: 'Data analyst',
  description: 'answers with numbers',
  avatar: '📊',
  kind: 'fncall',
  systemMessage: 'You are a careful analyst.',
  tools: ['calculator'],
  suggestions: ['What is 2+2?'],
};

describe('saved agents', () => {
  it('are kept, listed by name, updated and deleted', async () => {
    const a = await store.createAgent(A, parseAgentDefinition(analyst));
    const b = await store.createAgent(A, parseAgentDefinition({ ...analyst, name: 'another' }));
    expect((await store.listAgents(A)).map((x) => x.name)).toEqual(['another', 'Data analyst']);
    const updated = await store.updateAgent(A, b.id, parseAgentDefinition({ ...analyst, name: 'Bee' }));
    expect(updated).toMatchObject({ id: b.id, name: 'Bee', createdAt: b.createdAt });
    expect(await store.deleteAgent(A, b.id)).toBe(true);
    expect(await store.deleteAgent(A, b.id)).toBe(false);
    expect(await store.getAgent(A, a.id)).toMatchObject({ avatar: '📊', suggestions: ['What is 2+2?'] });
    await store.deleteAgent(A, a.id);
  });

  it('refuse a bad definition, naming the field', () => {
    expect(() => parseAgentDefinition({ ...analyst, name: '  ' })).toThrow('name: An agent needs a name.');
    expect(() => parseAgentDefinition({ ...analyst, kind: 'wizard' })).toThrow(/^kind: "kind" must be one of/);
    expect(() => parseAgentDefinition({ ...analyst, kind: 'router' })).toThrow(/needs at least one member/);
    // The two a person makes in the editor carry a code, for the page to say them in its language.
    expect(() => parseAgentDefinition({ ...analyst, name: '' })).toThrow(
      expect.objectContaining({ field: 'name', code: 'agent-name-missing' }),
    );
    expect(() => parseAgentDefinition({ ...analyst, kind: 'groupchat' })).toThrow(
      expect.objectContaining({ field: 'members', code: 'agent-members-missing', values: { kind: 'GroupChat' } }),
    );
    expect(() => parseAgentDefinition({ ...analyst, generateCfg: { temperature: 'hot' } })).toThrow(
      /generateCfg.temperature/,
    );
    // Out of what OpenAI-compatible servers take: refused with the setting and the range.
    expect(() => parseAgentDefinition({ ...analyst, generateCfg: { temperature: 99 } })).toThrow(
      /temperature must be between 0 and 2 \(got 99\)/,
    );
    expect(() => parseAgentDefinition({ ...analyst, generateCfg: { max_tokens: 0.5 } })).toThrow(
      /max_tokens must be a whole number \(got 0.5\)/,
    );
  });

  it('every refusal of the editor, the import and a run of a saved agent has a code said in both languages', async () => {
    const refusal = async (attempt: () => unknown) => {
      try {
        await attempt();
      } catch (e) {
        return e;
      }
      throw new Error('not refused');
    };
    const doc = (i: number) => ({ hash: i.toString(16).padStart(64, '0'), name: `d${i}.md`, size: 1 });
    const helper = await store.createAgent(A, parseAgentDefinition(analyst));
    const router = (name: string, members: string[]) =>
      store.createAgent(A, parseAgentDefinition({ ...analyst, name, kind: 'router', members }));
    // Routers nested four deep, and one of them made to hold itself (saved rows, as an older app could leave them).
    const r1 = await router('R1', [helper.id]);
    const r2 = await router('R2', [r1.id]);
    const r3 = await router('R3', [r2.id]);
    const r4 = await router('R4', [r3.id]);
    const loop = await router('Loop', [helper.id]);
    await store.updateAgent(A, loop.id, { ...loop, members: [loop.id] });
    const crowd = await store.createAgent(A, { ...parseAgentDefinition(analyst), name: 'Crowd', kind: 'router' });
    await store.updateAgent(A, crowd.id, { ...crowd, members: Array(33).fill(helper.id) });
    const file = (body: object) => JSON.stringify({ schema: AGENT_EXPORT_SCHEMA, ...body });
    const save = (d: object) => saveAgentDefinition(store, A, undefined, { ...analyst, ...d });

    const cases: [string, () => unknown][] = [
      ['agent-not-object', () => parseAgentDefinition(['an', 'array'])],
      ['agent-name-long', () => parseAgentDefinition({ ...analyst, name: 'x'.repeat(61) })],
      // An export file names an agent from code `plugin:<name>`: a saved agent named so would import as the plugin's.
      ['agent-name-reserved', () => save({ name: 'plugin:Weather Desk' })],
      ['agent-name-reserved', () => importAgent(store, A, file({ agent: { ...analyst, name: 'plugin:Desk' } }))],
      ['agent-suggestions-many', () => parseAgentDefinition({ ...analyst, suggestions: Array(9).fill('hi') })],
      ['agent-members-many', () => save({ kind: 'router', members: Array(33).fill(helper.id) })],
      ['agent-documents-many', () => save({ documents: Array.from({ length: 21 }, (_, i) => doc(i)) })],
      ['agent-field-invalid', () => save({ kind: 'wizard' })],
      ['agent-field-invalid', () => save({ maxRound: 99 })],
      ['agent-groupchat-documents', () => save({ kind: 'groupchat', members: [helper.id], documents: [doc(1)] })],
      ['agent-member-gone', () => save({ kind: 'router', members: ['no-such-agent'] })],
      ['agent-document-not-yours', () => save({ documents: [doc(7)] })],
      ['agent-import-not-json', () => importAgent(store, A, 'not json')],
      ['agent-import-other-schema', () => importAgent(store, A, file({ schema: 'agent-studio.agent/2' }))],
      ['agent-import-not-export', () => importAgent(store, A, JSON.stringify({ agent: analyst }))],
      ['agent-import-no-agent', () => importAgent(store, A, file({}))],
      ['agent-import-member-missing', () => importAgent(store, A, file({ agent: { ...analyst, members: ['Nob'] } }))],
      ['agent-field-invalid', () => importAgent(store, A, file({ agent: { ...analyst, tools: 'all' } }))],
      // Saving what a run would refuse is refused.
      ['agent-too-deep', () => save({ name: 'R5', kind: 'router', members: [r4.id] })],
      [
        'agent-holds-itself',
        () => saveAgentDefinition(store, A, r1.id, { ...analyst, kind: 'router', members: [r2.id] }),
      ],
      ['agent-holds-itself', () => resolveAgent(store, A, loop.id)],
      ['agent-too-deep', () => resolveAgent(store, A, r4.id)],
      ['agent-members-over', () => resolveAgent(store, A, crowd.id)],
    ];
    const say = {
      en: createTranslator({ locale: 'en', messages: en, namespace: 'errors' }),
      zh: createTranslator({ locale: 'zh-CN', messages: zhCN as typeof en, namespace: 'errors' }),
    };
    const said: Record<string, string> = {};
    for (const [code, attempt] of cases) {
      const coded = codedOf(await refusal(attempt));
      expect(coded?.code, code).toBe(code);
      const zh = say.zh(coded!.code, coded!.values);
      expect(zh, code).toMatch(/[\u4e00-\u9fff]/);
      expect(`${zh} ${say.en(coded!.code, coded!.values)}`, code).not.toMatch(/[{}]/);
      said[code] = zh;
    }
    // What each fills in reaches the sentence.
    expect(said).toMatchObject({
      'agent-name-long': '智能体的名字最多 60 个字符。',
      'agent-name-reserved': '智能体的名字不能以“plugin:”开头：来自代码（插件文件）的智能体以此命名。',
      'agent-members-many': 'Router 或 GroupChat 最多包含 32 个成员。',
      'agent-documents-many': '一个智能体最多持有 20 个文档。',
      'agent-field-invalid': 'tools 的值不符合智能体定义（见 docs/agents.md）。',
      'agent-document-not-yours': '“d7.md”不是你上传的文件。',
      'agent-import-other-schema':
        '此文件的格式是“agent-studio.agent/2”，不是本应用的智能体导出文件（agent-studio.agent/1）。',
      'agent-import-member-missing': '它的成员“Nob”尚未保存在这里：请先导入该成员。',
      'agent-holds-itself': '“Loop”（通过其成员）包含了它自己。',
      'agent-too-deep': '智能体最多嵌套 3 层。',
      'agent-members-over': '“Crowd”包含 33 个成员，而 Router 或 GroupChat 最多包含 32 个：请编辑它。',
    });
    for (const a of [r4, r3, r2, r1, loop, crowd, helper]) await store.deleteAgent(A, a.id);
  });

  it('export to a versioned JSON file and import back, members by name; a bad file says what is wrong', async () => {
    const helper = await store.createAgent(A, parseAgentDefinition(analyst));
    const router = await store.createAgent(
      A,
      parseAgentDefinition({ ...analyst, name: 'Desk', kind: 'router', members: [helper.id] }),
    );
    const file = await exportAgent(store, A, router.id);
    expect(file).toMatchObject({ schema: AGENT_EXPORT_SCHEMA, agent: { name: 'Desk', members: ['Data analyst'] } });
    const back = (await importAgent(store, A, JSON.stringify(file))).definition;
    expect(back).toMatchObject({ name: 'Desk', kind: 'router', members: [helper.id] });

    await expect(importAgent(store, A, 'not json')).rejects.toThrow(/not JSON/);
    await expect(importAgent(store, A, JSON.stringify({ schema: 'agent-studio.run/1' }))).rejects.toThrow(
      /"agent-studio.run\/1", not an agent export/,
    );
    const missing = { ...file, agent: { ...file.agent, members: ['Nobody'] } };
    await expect(importAgent(store, A, JSON.stringify(missing))).rejects.toThrow(/"Nobody" is not saved here/);
    const broken = { ...file, agent: { ...file.agent, kind: 'x' } };
    await expect(importAgent(store, A, JSON.stringify(broken))).rejects.toThrow(/^kind:/);
    await store.deleteAgent(A, router.id);
    await store.deleteAgent(A, helper.id);
  });

  it('an import whose name is taken is not saved until the user chooses: replace that agent, or keep both', async () => {
    const first = await store.createAgent(A, parseAgentDefinition(analyst));
    const file = JSON.stringify({
      ...(await exportAgent(store, A, first.id)),
      agent: { ...analyst, name: 'DATA ANALYST', description: 'from the file', members: [] },
    });
    const { definition } = await importAgent(store, A, file);

    // Asked first: nothing saved, the agent it would collide with named.
    const asked = await saveImportedAgent(store, A, definition);
    expect(asked).toEqual({ conflict: { id: first.id, name: 'Data analyst' } });
    expect(await store.listAgents(A)).toHaveLength(1);

    // Keep both: a name of its own, the next free number.
    const kept = await saveImportedAgent(store, A, definition, 'keep-both');
    expect(kept).toMatchObject({ agent: { name: 'DATA ANALYST (2)', description: 'from the file' } });
    const third = await saveImportedAgent(store, A, definition, 'keep-both');
    expect(third).toMatchObject({ agent: { name: 'DATA ANALYST (3)' } });

    // Replace: the same agent (its id, so conversations and groups holding it keep it), the file's definition.
    const replaced = await saveImportedAgent(store, A, definition, 'replace');
    expect(replaced).toMatchObject({ agent: { id: first.id, name: 'DATA ANALYST', description: 'from the file' } });
    expect((await store.listAgents(A)).map((a) => a.name).sort()).toEqual([
      'DATA ANALYST',
      'DATA ANALYST (2)',
      'DATA ANALYST (3)',
    ]);

    // Another user's agent of that name is no collision (nor replaced).
    expect(await saveImportedAgent(store, B, definition)).toMatchObject({ agent: { name: 'DATA ANALYST' } });
    expect((await store.getAgent(A, first.id))?.description).toBe('from the file');
    for (const owner of [A, B]) for (const a of await store.listAgents(owner)) await store.deleteAgent(owner, a.id);
  });

  it('a conversation with a saved Router: the helper it calls answers, stored under its name and avatar', async () => {
    const helper = await store.createAgent(A, parseAgentDefinition(analyst));
    const router = await store.createAgent(
      A,
      parseAgentDefinition({ ...analyst, name: 'Desk', avatar: '🛎️', kind: 'router', members: [helper.id] }),
    );
    model.setScenario({ replies: [{ content: 'Call: Data analyst\nReply:' }, { content: 'Four.' }] });
    const started = await ctx.chat.send(ACTOR_A, { message: 'What is 2+2?', settings: { agentId: router.id } });
    const events = await drain(follow(ctx.chat, A, started.runId));
    expect(events[0]).toMatchObject({ type: 'run-start', agent: 'Desk', kind: 'router', avatar: '🛎️' });
    expect(model.requests[1]!.body.messages[0]).toEqual({ role: 'system', content: 'You are a careful analyst.' });
    const stored = await store.getRunEvents(A, started.runId);
    expect(foldEvents(stored)).toEqual([{ role: 'assistant', content: 'Four.', name: 'Data analyst' }]);
    expect((await store.getConversation(A, started.conversationId))?.settings.agentId).toBe(router.id);

    // The next turn of the conversation shows the router who answered.
    model.setScenario({ replies: [{ content: 'Glad to help.' }] });
    const next = await ctx.chat.send(ACTOR_A, { conversationId: started.conversationId, message: 'Thanks' });
    await drain(follow(ctx.chat, A, next.runId));
    const sent = model.requests[2]!.body.messages as { role: string; content: string }[];
    expect(sent.find((m) => m.role === 'assistant')?.content).toBe('Call: Data analyst\nReply:Four.');

    // Replay from a step is refused, saying why.
    await expect(ctx.chat.replay(ACTOR_A, started.runId, { fromIteration: 1 })).rejects.toThrow(
      /Router runs cannot be replayed from a step yet/,
    );

    // And the API lists it as a model.
    expect((await apiModels(store, A)).map((m) => m.name)).toEqual(
      expect.arrayContaining(['FnCallAgent', 'Desk', 'Data analyst']),
    );
    await store.deleteAgent(A, router.id);
    // Said without the agent's id, with a code the page says in its language.
    await expect(
      ctx.chat.send(ACTOR_A, { conversationId: started.conversationId, message: 'x' }),
    ).rejects.toMatchObject({
      message: 'A saved agent this conversation uses no longer exists (it may have been deleted).',
      code: 'agent-gone',
    });
    await store.deleteAgent(A, helper.id);
  });

  it('are their owner’s: another user cannot list, read, edit, delete, export, hold or run them (404)', async () => {
    const helper = await store.createAgent(A, parseAgentDefinition(analyst));
    expect(await store.listAgents(B)).toEqual([]);
    expect(await store.getAgent(B, helper.id)).toBeUndefined();
    await expect(store.updateAgent(B, helper.id, parseAgentDefinition(analyst))).rejects.toMatchObject({
      status: 404,
    });
    expect(await store.deleteAgent(B, helper.id)).toBe(false);
    await expect(exportAgent(store, B, helper.id)).rejects.toMatchObject({ status: 404 });
    // B's Router cannot hold A's agent, and B's conversation cannot talk to it.
    await expect(
      saveAgentDefinition(store, B, undefined, { ...analyst, name: 'Thief', kind: 'router', members: [helper.id] }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(ctx.chat.send(ACTOR_B, { message: 'hi', settings: { agentId: helper.id } })).rejects.toMatchObject({
      status: 404,
    });
    expect(await store.listConversations(B)).toEqual([]);
    expect((await apiModels(store, B)).map((m) => m.id)).not.toContain(helper.id);
    // A still has it, unchanged.
    expect(await store.getAgent(A, helper.id)).toMatchObject({ name: 'Data analyst' });
    await store.deleteAgent(A, helper.id);
  });
});

/** What the page says for a refusal, in each language. */
const say = {
  en: createTranslator({ locale: 'en', messages: en, namespace: 'errors' }),
  zh: createTranslator({ locale: 'zh-CN', messages: zhCN as typeof en, namespace: 'errors' }),
};

function definitionOf({ id: _id, createdAt: _c, updatedAt: _u, ...definition }: SavedAgent): object {
  return definition;
}

async function refusalOf(attempt: Promise<unknown>): Promise<Error & { code?: string; values?: ErrorValues }> {
  try {
    await attempt;
  } catch (e) {
    return e as Error;
  }
  throw new Error('not refused');
}

describe('an agent naming a tool this server does not have (from a server with an MCP tool or plugin this one lacks)', () => {
  const tooly = { ...analyst, name: 'Tooly', tools: ['calculator', 'no_such_tool'] };
  const file = (agent: object) =>
    JSON.stringify({ schema: AGENT_EXPORT_SCHEMA, exportedAt: '', agent: { ...agent, members: [] } });

  it('imports, saying which tools are not here; one this server has but cannot run now is not among them', async () => {
    // web_search is this server's tool, off without a provider: not missing (its run says why it cannot run).
    const text = file({ ...tooly, tools: ['calculator', 'no_such_tool', 'web_search', 'nor_this'] });
    const imported = await importAgent(store, A, text);
    expect(imported.missingTools).toEqual(['no_such_tool', 'nor_this']);
    // The app's check (with its plugins' and MCP servers' tools in) says the same; the tools are kept as the file has.
    const inApp = await importAgent(store, A, text, store, (agent) => toolsNotHere(ctx, agent));
    expect(inApp.missingTools).toEqual(['no_such_tool', 'nor_this']);
    expect(inApp.definition.tools).toEqual(['calculator', 'no_such_tool', 'web_search', 'nor_this']);
    // An agent whose tools are all here: nothing said; a kind that runs without its tools: nothing either.
    expect((await importAgent(store, A, file(analyst))).missingTools).toEqual([]);
    expect((await importAgent(store, A, file({ ...tooly, kind: 'tir' }))).missingTools).toEqual([]);
  });

  it('a chat with it is refused before anything is stored or asked, naming the agent, the tool and the fix', async () => {
    const { definition } = await importAgent(store, A, file(tooly));
    const saved = await saveImportedAgent(store, A, definition);
    if (!('agent' in saved)) throw new Error('not saved');
    const conversations = (await store.listConversations(A)).length;
    const refused = await ctx.chat
      .send(ACTOR_A, { message: 'hello tooly', settings: { agentId: saved.agent.id } })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(refused).toMatchObject({
      status: 400,
      code: 'agent-tool-unknown',
      values: { name: 'Tooly', tools: 'no_such_tool' },
      message:
        'This server has no tool named no_such_tool, which the agent “Tooly” uses (no builtin tool, plugin or MCP server gives one). Edit the agent on the Agents page and untick what is missing, or ask the server’s admin to provide it.',
    });
    const coded = codedOf(refused)!;
    expect(
      createTranslator({ locale: 'zh-CN', messages: zhCN as typeof en, namespace: 'errors' })(coded.code, coded.values),
    ).toBe(
      '本服务器没有名为 no_such_tool 的工具，而智能体“Tooly”用到了它（没有任何内置工具、插件或 MCP 服务器提供）。请在“智能体”页编辑该智能体并取消勾选缺少的工具，或请服务器管理员提供它。',
    );
    expect(await store.listConversations(A)).toHaveLength(conversations);
    expect(model.requests).toEqual([]);

    // Held by a Router, the member is named; once edited (the tool unticked), the agent runs.
    const desk = await saveAgentDefinition(store, A, undefined, {
      ...analyst,
      name: 'Desk',
      kind: 'router',
      members: [saved.agent.id],
    });
    await expect(ctx.chat.send(ACTOR_A, { message: 'hi', settings: { agentId: desk.id } })).rejects.toMatchObject({
      code: 'agent-tool-unknown',
      values: { name: 'Tooly' },
    });
    await saveAgentDefinition(store, A, saved.agent.id, { ...tooly, tools: ['calculator'] });
    model.setScenario({ replies: [{ content: 'Hello.' }] });
    const ran = await ctx.chat.send(ACTOR_A, { message: 'hello tooly', settings: { agentId: saved.agent.id } });
    expect((await drain(follow(ctx.chat, A, ran.runId))).at(-1)).toMatchObject({ type: 'run-end', reason: 'answered' });
    await store.deleteAgent(A, desk.id);
    await store.deleteAgent(A, saved.agent.id);
  });

  it('a conversation whose own tools name one is refused with the tool-unknown code, said in both languages', async () => {
    const refused = await ctx.chat
      .send(ACTOR_A, { message: 'hi', settings: { tools: ['no_such_tool'] } })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({
      status: 400,
      code: 'tool-unknown',
      message: 'Tool no_such_tool is not registered.',
    });
    const coded = codedOf(refused)!;
    expect(
      createTranslator({ locale: 'zh-CN', messages: zhCN as typeof en, namespace: 'errors' })(coded.code, coded.values),
    ).toBe(
      '本服务器没有名为“no_such_tool”的工具（没有任何内置工具、插件或 MCP 服务器提供这个名字），因此使用它的智能体无法运行。',
    );
  });
});

describe('a tool this server has but cannot run now (web_search without a search provider)', () => {
  const zh = (e: unknown) => {
    const coded = codedOf(e)!;
    return createTranslator({ locale: 'zh-CN', messages: zhCN as typeof en, namespace: 'errors' })(
      coded.code,
      coded.values,
    );
  };

  it('refuses a conversation or an agent naming it with the tool-unavailable code, saying what to do in both languages', async () => {
    const conversations = (await store.listConversations(A)).length;
    const refused = await ctx.chat
      .send(ACTOR_A, { message: 'search it', settings: { tools: ['web_search'] } })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({
      status: 400,
      code: 'tool-unavailable',
      values: { name: 'web_search', reason: expect.stringMatching(/^no search provider\. Set WEB_SEARCH_PROVIDER/) },
      message: expect.stringMatching(/^Tool web_search is not available: no search provider\. Set WEB_SEARCH_PROVIDER/),
    });
    expect(zh(refused)).toBe(
      'web_search 现在无法运行：本服务器没有设置网页搜索服务商，或管理员关闭了网页搜索。管理员可以在“管理”页的“工具与集成 → 网页搜索”中选择一个服务商，或在服务器环境中设置 WEB_SEARCH_PROVIDER。',
    );
    // A saved agent naming it: not missing (the server has it), refused with the same code.
    const searcher = await saveAgentDefinition(store, A, undefined, {
      ...analyst,
      name: 'Searcher',
      tools: ['web_search'],
    });
    await expect(
      ctx.chat.send(ACTOR_A, { message: 'search it', settings: { agentId: searcher.id } }),
    ).rejects.toMatchObject({ status: 400, code: 'tool-unavailable', values: { name: 'web_search' } });
    expect(await store.listConversations(A)).toHaveLength(conversations);
    expect(model.requests).toEqual([]);
    await store.deleteAgent(A, searcher.id);
  });
});

describe('deleting an agent that others hold', () => {
  it('takes it out of the Routers and GroupChats holding it (nested ones too): they save and run again', async () => {
    const helper = await store.createAgent(A, parseAgentDefinition(analyst));
    const poet = await store.createAgent(A, parseAgentDefinition({ ...analyst, name: 'Poet', tools: [] }));
    const desk = await saveAgentDefinition(store, A, undefined, {
      ...analyst,
      name: 'Desk',
      kind: 'router',
      members: [poet.id, helper.id],
    });
    const team = await saveAgentDefinition(store, A, undefined, {
      ...analyst,
      name: 'Team',
      kind: 'groupchat',
      selection: 'round_robin',
      members: [helper.id, poet.id],
    });
    const top = await saveAgentDefinition(store, A, undefined, {
      ...analyst,
      name: 'Top',
      kind: 'router',
      members: [desk.id, team.id],
    });

    expect(await store.deleteAgent(A, poet.id)).toBe(true);
    expect((await store.getAgent(A, desk.id))?.members).toEqual([helper.id]);
    expect(await store.getAgent(A, team.id)).toMatchObject({ selection: 'round_robin', members: [helper.id] });
    // The Router saves again as it is (it was refused with agent-member-gone) and its conversation runs.
    const again = await store.getAgent(A, desk.id);
    await expect(saveAgentDefinition(store, A, desk.id, definitionOf(again!))).resolves.toMatchObject({
      members: [helper.id],
    });
    model.setScenario({ replies: [{ content: 'Call: Data analyst\nReply:' }, { content: 'Four.' }] });
    const started = await ctx.chat.send(ACTOR_A, { message: 'What is 2+2?', settings: { agentId: top.id } });
    const events = await drain(follow(ctx.chat, A, started.runId));
    expect(events.at(-1)).toMatchObject({ type: 'run-end', reason: 'answered' });

    // A nested Router goes from the one holding it.
    expect(await store.deleteAgent(A, desk.id)).toBe(true);
    expect((await store.getAgent(A, top.id))?.members).toEqual([team.id]);
    for (const a of [top, team, helper]) expect(await store.deleteAgent(A, a.id)).toBe(true);
    expect(await store.listAgents(A)).toEqual([]);
  });

  it('keeps an agent that is the only member of a Router or GroupChat, saying which, in both languages', async () => {
    const helper = await store.createAgent(A, parseAgentDefinition(analyst));
    const other = await store.createAgent(A, parseAgentDefinition({ ...analyst, name: 'Other' }));
    const solo = await store.createAgent(
      A,
      parseAgentDefinition({ ...analyst, name: 'Solo', kind: 'router', members: [helper.id] }),
    );
    const pair = await store.createAgent(
      A,
      parseAgentDefinition({ ...analyst, name: 'Pair', kind: 'groupchat', members: [helper.id, other.id] }),
    );

    const refused = await refusalOf(store.deleteAgent(A, helper.id));
    expect(refused).toMatchObject({
      status: 409,
      code: 'agent-only-member',
      values: { name: 'Data analyst', holders: 'Solo' },
    });
    expect(say.en(refused.code as 'agent-only-member', refused.values)).toBe(refused.message);
    expect(say.zh(refused.code as 'agent-only-member', refused.values)).toBe(
      '“Data analyst”是 Solo 唯一的成员：请先在那里添加其他成员，或先删除 Solo。',
    );
    // Nothing changed: not the agent, not a group that held it with another.
    expect(await store.getAgent(A, helper.id)).toEqual(helper);
    expect(await store.getAgent(A, pair.id)).toEqual(pair);
    expect(await store.getAgent(A, solo.id)).toEqual(solo);

    for (const a of [solo, pair, helper, other]) expect(await store.deleteAgent(A, a.id)).toBe(true);
  });

  it('as another user: B’s delete changes B’s groups only, and none of A’s agents', async () => {
    const hers = await store.createAgent(A, parseAgentDefinition(analyst));
    const herDesk = await store.createAgent(
      A,
      parseAgentDefinition({ ...analyst, name: 'Desk', kind: 'router', members: [hers.id] }),
    );
    const his = await store.createAgent(B, parseAgentDefinition(analyst));
    const hisPoet = await store.createAgent(B, parseAgentDefinition({ ...analyst, name: 'Poet' }));
    const hisDesk = await store.createAgent(
      B,
      parseAgentDefinition({ ...analyst, name: 'Desk', kind: 'router', members: [his.id, hisPoet.id] }),
    );

    // B names A's agent: unknown to B (as for an id nobody has), and A's Router keeps it.
    expect(await store.deleteAgent(B, hers.id)).toBe(false);
    // B deletes his own: his Router lets go of it; A's, of the same name and shape, is not read or changed.
    expect(await store.deleteAgent(B, his.id)).toBe(true);
    expect((await store.getAgent(B, hisDesk.id))?.members).toEqual([hisPoet.id]);
    expect(await store.getAgent(A, herDesk.id)).toEqual(herDesk);
    expect(await store.getAgent(A, hers.id)).toEqual(hers);

    for (const owner of [A, B]) {
      for (const a of (await store.listAgents(owner)).filter((x) => x.members.length))
        await store.deleteAgent(owner, a.id);
      for (const a of await store.listAgents(owner)) await store.deleteAgent(owner, a.id);
    }
  });
});

describe('importing an agent with Replace (or as a new one)', () => {
  /** An export file of a definition, its members by name. */
  const file = (agent: object) =>
    JSON.stringify({ schema: AGENT_EXPORT_SCHEMA, exportedAt: '', agent: { ...analyst, ...agent } });
  const importing = async (owner: typeof A, agent: object, choice?: ImportChoice) =>
    saveImportedAgent(store, owner, (await importAgent(store, owner, file(agent))).definition, choice);

  it('refuses a loop and nesting too deep with the codes a save gives; nothing changes', async () => {
    // R2 → R1 → Data analyst: three deep, the most there may be; Extra stands alone.
    const helper = await store.createAgent(A, parseAgentDefinition(analyst));
    const extra = await store.createAgent(A, parseAgentDefinition({ ...analyst, name: 'Extra' }));
    const r1 = await saveAgentDefinition(store, A, undefined, {
      ...analyst,
      name: 'R1',
      kind: 'router',
      members: [helper.id],
    });
    const r2 = await saveAgentDefinition(store, A, undefined, {
      ...analyst,
      name: 'R2',
      kind: 'router',
      members: [r1.id],
    });
    const before = await store.listAgents(A);

    const cases: [string, object, ImportChoice | undefined][] = [
      // The helper made a Router holding R1, which holds it.
      ['agent-holds-itself', { name: 'Data analyst', kind: 'router', members: ['R1'] }, 'replace'],
      // Extra made a Router over R2: four deep below it.
      ['agent-too-deep', { name: 'Extra', kind: 'router', members: ['R2'] }, 'replace'],
      // The helper made a Router over Extra: R2 above it would be four deep.
      ['agent-too-deep', { name: 'Data analyst', kind: 'router', members: ['Extra'] }, 'replace'],
      // A new agent (no name taken, or Keep both) over R2.
      ['agent-too-deep', { name: 'R3', kind: 'router', members: ['R2'] }, undefined],
      ['agent-too-deep', { name: 'R2', kind: 'router', members: ['R2'] }, 'keep-both'],
    ];
    for (const [code, agent, choice] of cases) {
      const refused = await refusalOf(importing(A, agent, choice));
      expect(refused, JSON.stringify(agent)).toMatchObject({ code, field: 'members', status: 400 });
      // The same as the editor's save of that definition says.
      const id = choice === 'replace' ? before.find((a) => a.name === (agent as { name: string }).name)?.id : undefined;
      const members = (agent as { members: string[] }).members.map((n) => before.find((a) => a.name === n)!.id);
      const saved = await refusalOf(saveAgentDefinition(store, A, id, { ...analyst, ...agent, members }));
      expect([saved.code, saved.message], JSON.stringify(agent)).toEqual([refused.code, refused.message]);
      expect(say.zh(refused.code as ErrorCode, refused.values)).toMatch(/[\u4e00-\u9fff]/);
    }
    expect(await store.listAgents(A)).toEqual(before);

    // What fits is replaced as before: Extra over R1 is three deep.
    expect(await importing(A, { name: 'Extra', kind: 'router', members: ['R1'] }, 'replace')).toMatchObject({
      agent: { id: extra.id, kind: 'router', members: [r1.id] },
    });
    for (const a of [r2, extra, r1, helper]) expect(await store.deleteAgent(A, a.id)).toBe(true);
  });

  it('as another user: B’s Replace of a name A uses changes only B’s agent', async () => {
    const helper = await store.createAgent(A, parseAgentDefinition(analyst));
    const r1 = await store.createAgent(
      A,
      parseAgentDefinition({ ...analyst, name: 'R1', kind: 'router', members: [helper.id] }),
    );
    const his = await store.createAgent(B, parseAgentDefinition(analyst));
    const hisR1 = await store.createAgent(
      B,
      parseAgentDefinition({ ...analyst, name: 'R1', kind: 'router', members: [his.id] }),
    );

    // B's file would loop through B's R1: refused for B; A's agents of the same names are not touched.
    const refused = await refusalOf(importing(B, { name: 'Data analyst', kind: 'router', members: ['R1'] }, 'replace'));
    expect(refused).toMatchObject({ code: 'agent-holds-itself' });
    expect(await store.getAgent(B, his.id)).toEqual(his);
    expect(await store.getAgent(A, helper.id)).toEqual(helper);
    expect(await store.getAgent(A, r1.id)).toEqual(r1);
    for (const [owner, list] of [
      [A, [r1, helper]],
      [B, [hisR1, his]],
    ] as const)
      for (const a of list) expect(await store.deleteAgent(owner, a.id)).toBe(true);
  });
});
