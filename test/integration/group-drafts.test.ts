// The page's multi-agent helpers and image_gen as the app builds its services (lib/server/context.ts) over a real
// SQLite file, with the scripted model server over HTTP: a group drafted with GroupChatCreator is saved as the user's
// agents and runs as a GroupChat; "Simulate a user" says the next line of a conversation seen with the roles
// swapped, or that it is over; image_gen is offered only to a user with an images endpoint, and makes its image
// there. Each is its owner's: another user reaches none of it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTranslator } from 'next-intl';
import { failure } from '../../app/actions/action-error';
import { SIMULATED_USER_STOP } from '../../lib/agent';
import { makeViewer } from '../../lib/auth/viewer';
import { everyToolActor } from '../../lib/chat/actor';
import type { ActionFailure } from '../../lib/chat/page';
import { draftGroup, saveAgentGroup } from '../../lib/chat/group-drafts';
import { loadConfig } from '../../lib/config';
import { readToolImage } from '../../lib/documents/tool-images';
import en from '../../lib/i18n/messages/en.json';
import zhCN from '../../lib/i18n/messages/zh-CN.json';
import { parseConversationImageUrl } from '../../lib/documents/image-url';
import type { ContentItem } from '../../lib/llm/schema';
import { appInfo } from '../../lib/server/app-info';
import { createAppContext, type AppContext } from '../../lib/server/context';
import { ownerScope } from '../../lib/store/owner';
import { openSqliteStore } from '../../lib/store';
import type { ChatStore } from '../../lib/store/types';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import type { RecordedRequest } from '../../scripts/model-server/script';
import { drain, follow } from '../support/chat';
import { ofType } from '../support/run';

let model: ModelServer;
const stores: ChatStore[] = [];
let store: ChatStore;
let ctx: AppContext;
const A = ownerScope('user-a');
const B = ownerScope('user-b');
const ACTOR_A = everyToolActor(A);
const ACTOR_B = everyToolActor(B);
const userTools = { codeInterpreter: true, web: true };

// Tools keep what they make under the process's DATA_DIR (as the app runs them): every context here shares it.
const dataDir = mkdtempSync(path.join(tmpdir(), 'group-drafts-'));
const savedEnv = { ...process.env };

async function context(env: Record<string, string> = {}): Promise<AppContext> {
  const s = await openSqliteStore(path.join(dataDir, `chat-${stores.length}.db`));
  stores.push(s);
  return createAppContext(
    loadConfig({
      DATA_DIR: dataDir,
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: 'k',
      OPENAI_MODEL: 'm',
      MODEL_SCAN_PORTS: 'off',
      ...env,
    }),
    s,
  );
}

beforeAll(async () => {
  process.env.DATA_DIR = dataDir;
  model = await createModelServer();
  ctx = await context();
  store = ctx.store;
});
afterAll(async () => {
  for (const s of stores) await s.close();
  await model.close();
  process.env = savedEnv;
});
beforeEach(() => model.reset());

type Wire = { role: string; content: string };
const sent = (r: RecordedRequest) => r.body.messages as Wire[];
const chats = () => model.requests.filter((r) => r.path.endsWith('/chat/completions'));

const CREATOR_REPLY = [
  '<Background>: Two friends plan a trip to the coast.',
  '<Config>: {"name": "Ada", "description": "The planner", "instructions": "You are Ada, you plan every hour."}',
  '<Config>: {"name": "Ben", "description": "The dreamer", "instructions": "You are Ben, you dream big."}',
  '<Answer>: Should they travel by train or by car?',
].join('\n');

describe('a group drafted with GroupChatCreator', () => {
  it('is reviewed, saved as the owner’s agents, and runs as a GroupChat of them', async () => {
    model.setScenario({ replies: [{ content: CREATOR_REPLY }] });
    const ask = { role: 'user' as const, content: 'Two friends planning a trip.' };
    const reply = await draftGroup({ models: ctx.models, config: ctx.config }, A, { messages: [ask] }, 'en');
    expect(reply.answer).toBe('Should they travel by train or by car?');
    expect(reply.draft).toEqual({
      background: 'Two friends plan a trip to the coast.',
      members: [
        { name: 'Ada', description: 'The planner', instructions: 'You are Ada, you plan every hour.' },
        { name: 'Ben', description: 'The dreamer', instructions: 'You are Ben, you dream big.' },
      ],
    });
    expect(reply.messages.map((m) => m.name)).toEqual(['background', 'role_config', 'role_config', 'GroupChatCreator']);
    expect(sent(chats()[0]!)[0]!.content).toContain('<Config>');

    // Reviewed: Ben is told to keep it short. Saved: two Assistants and the GroupChat holding them.
    const members = reply.draft.members.map((m) =>
      m.name === 'Ben' ? { ...m, instructions: 'You are Ben, you dream big, in one sentence.' } : m,
    );
    const saved = await saveAgentGroup(store, A, {
      name: 'Trip planners',
      background: reply.draft.background,
      members,
      selection: 'round_robin',
    });
    expect(saved.members.map((m) => [m.name, m.kind, m.systemMessage, m.description])).toEqual([
      ['Ada', 'assistant', 'You are Ada, you plan every hour.', 'The planner'],
      ['Ben', 'assistant', 'You are Ben, you dream big, in one sentence.', 'The dreamer'],
    ]);
    expect(saved.group).toMatchObject({
      name: 'Trip planners',
      kind: 'groupchat',
      systemMessage: 'Two friends plan a trip to the coast.',
      members: saved.members.map((m) => m.id),
      selection: 'round_robin',
    });
    expect((await store.listAgents(A)).map((a) => a.name)).toEqual(['Ada', 'Ben', 'Trip planners']);

    model.reset();
    model.setScenario({ fallback: { content: 'Let us go.' } });
    const started = await ctx.chat.send(ACTOR_A, {
      message: 'Where shall we stay?',
      settings: { agentId: saved.group.id },
    });
    const events = await drain(follow(ctx.chat, A, started.runId));
    expect(ofType(events, 'run-end')[0]!.reason).toBe('answered');
    expect(ofType(events, 'handoff').map((h) => h.to)).toEqual(['Ada', 'Ben', 'Ada']);
    const [toAda, toBen] = chats().map((r) => sent(r)[0]!.content);
    expect(toAda).toContain('You are Ada, you plan every hour.');
    expect(toAda).toContain('Two friends plan a trip to the coast.');
    expect(toBen).toContain('in one sentence');
  });

  it('is saved all or nothing, and only for its owner', async () => {
    const before = (await store.listAgents(A)).length;
    const twice = { name: 'Twins', members: [{ name: 'Kim' }, { name: 'kim' }] };
    await expect(saveAgentGroup(store, A, twice)).rejects.toThrow(/Member 2’s name “kim” is taken/);
    await expect(saveAgentGroup(store, A, { name: 'Empty', members: [] })).rejects.toThrow(/at least one member/);
    await expect(saveAgentGroup(store, A, { name: 'Long', members: [{ name: 'x'.repeat(61) }] })).rejects.toThrow(
      /at most 60/,
    );
    expect((await store.listAgents(A)).length).toBe(before);
    expect(await store.listAgents(B)).toEqual([]);
    // The draft answers the last user message; a draft ending with the creator's answer is refused.
    await expect(
      draftGroup({ models: ctx.models, config: ctx.config }, A, {
        messages: [{ role: 'assistant', content: 'hi', name: 'GroupChatCreator' }],
      }),
    ).rejects.toThrow(/The last message must be yours/);
    expect(chats()).toHaveLength(0);
  });
});

describe('a group or draft refused', () => {
  const refusal = async (attempt: () => Promise<unknown>): Promise<ActionFailure> => {
    try {
      await attempt();
    } catch (e) {
      return failure(e); // what the server action hands the page
    }
    throw new Error('not refused');
  };
  const say = {
    en: createTranslator({ locale: 'en', messages: en, namespace: 'errors' }),
    zh: createTranslator({ locale: 'zh-CN', messages: zhCN as typeof en, namespace: 'errors' }),
  };

  it('carries a code the page says in English and Chinese, and the field at fault; nothing is saved or asked', async () => {
    const before = (await store.listAgents(A)).length;
    const draft = (input: object) => draftGroup({ models: ctx.models, config: ctx.config }, A, input, 'zh');
    const save = (input: object) => saveAgentGroup(store, A, input);
    const user = (content: string) => ({ role: 'user', content });
    const ada = { name: 'Ada' };
    const crowd = Array.from({ length: 13 }, (_, i) => ({ name: `M${i}` }));
    const cases: [string, string | undefined, () => Promise<unknown>][] = [
      ['group-describe-first', 'messages', () => draft({ messages: [] })],
      ['group-draft-long', 'messages', () => draft({ messages: Array(81).fill(user('hi')) })],
      ['group-message-long', 'messages.0.content', () => draft({ messages: [user('x'.repeat(20_001))] })],
      [
        'group-last-not-user',
        'messages',
        () => draft({ messages: [{ role: 'assistant', content: 'hi', name: 'GroupChatCreator' }] }),
      ],
      ['group-field-invalid', 'messages.0.role', () => draft({ messages: [{ role: 'system', content: 'hi' }] })],
      ['group-name-missing', 'name', () => save({ name: '  ', members: [ada] })],
      ['group-name-missing', 'name', () => save({ members: [ada] })],
      ['group-name-long', 'name', () => save({ name: 'g'.repeat(61), members: [ada] })],
      ['group-background-long', 'background', () => save({ name: 'G', background: 'b'.repeat(4001), members: [ada] })],
      ['group-members-missing', 'members', () => save({ name: 'G', members: [] })],
      ['group-members-many', 'members', () => save({ name: 'G', members: crowd })],
      ['group-member-name-missing', 'members.1.name', () => save({ name: 'G', members: [ada, { name: ' ' }] })],
      ['group-member-name-long', 'members.0.name', () => save({ name: 'G', members: [{ name: 'n'.repeat(61) }] })],
      [
        'group-member-description-long',
        'members.0.description',
        () => save({ name: 'G', members: [{ name: 'Ada', description: 'd'.repeat(501) }] }),
      ],
      [
        'group-member-instructions-long',
        'members.0.instructions',
        () => save({ name: 'G', members: [{ name: 'Ada', instructions: 'i'.repeat(20_001) }] }),
      ],
      ['group-member-name-taken', 'members.1.name', () => save({ name: 'G', members: [ada, { name: 'ada ' }] })],
      ['group-member-name-taken', 'members.0.name', () => save({ name: 'Ada', members: [ada] })],
      ['group-field-invalid', 'selection', () => save({ name: 'G', members: [ada], selection: 'loudest' })],
    ];
    const said: Record<string, string> = {};
    for (const [code, field, attempt] of cases) {
      const refused = await refusal(attempt);
      expect(refused, code).toMatchObject({ ok: false, status: 400, code, field });
      // The server's English is the English page's sentence; the Chinese one fills in the same values.
      expect(say.en(refused.code!, refused.values), code).toBe(refused.error);
      const zh = say.zh(refused.code!, refused.values);
      expect(zh, code).toMatch(/[\u4e00-\u9fff]/);
      expect(zh, code).not.toMatch(/[{}]/);
      said[field ? `${code} ${field}` : code] = zh;
    }
    expect(said).toMatchObject({
      'group-describe-first messages': '请先描述这个群组。',
      'group-message-long messages.0.content': '发给创建助手的消息最多 20,000 个字符。',
      'group-field-invalid messages.0.role': 'messages.0.role 的值不符合群组的要求（见 docs/agents.md）。',
      'group-name-missing name': '请给群组起个名字。',
      'group-members-many members': '群组最多有 12 个成员：请移除一些。',
      'group-member-name-missing members.1.name': '成员 2 需要一个名称。',
      'group-member-instructions-long members.0.instructions': '成员 1 的指令最多 20,000 个字符。',
      'group-member-name-taken members.1.name': '成员 2 的名称“ada”已被另一个成员或群组使用：名称不能重复。',
      'group-member-name-taken members.0.name': '成员 1 的名称“Ada”已被另一个成员或群组使用：名称不能重复。',
    });
    expect((await store.listAgents(A)).length).toBe(before);
    expect(chats()).toHaveLength(0);
  });
});

describe('Simulate a user', () => {
  it('says the simulated user’s next line from the conversation with the roles swapped, or that it is over', async () => {
    model.setScenario({ replies: [{ content: 'Paris is lovely in May.' }] });
    const started = await ctx.chat.send(ACTOR_A, { message: 'Where should I travel in May?' });
    await drain(follow(ctx.chat, A, started.runId));

    model.reset();
    model.setScenario({ replies: [{ content: '["Is it expensive?", "What about Rome?"]' }] });
    const next = await ctx.chat.simulateUser(ACTOR_A, started.conversationId, { persona: 'You are a student.' });
    expect(['Is it expensive?', 'What about Rome?']).toContain((next as { message: string }).message);
    const request = sent(chats()[0]!);
    expect(request[0]!.role).toBe('system');
    expect(request[0]!.content).toContain('JSON list of four questions');
    expect(request[0]!.content).toContain('You are a student.');
    expect(request.slice(1).map((m) => [m.role, m.content])).toEqual([
      ['user', expect.stringContaining('first request')],
      ['assistant', 'Where should I travel in May?'],
      ['user', 'Paris is lovely in May.'],
    ]);
    // Nothing was added to the conversation: the page sends the line as the next message.
    expect(await store.listHistory(A, started.conversationId)).toHaveLength(1);

    model.setScenario({ replies: [{ content: `["${SIMULATED_USER_STOP}"]` }] });
    expect(await ctx.chat.simulateUser(ACTOR_A, started.conversationId, {})).toEqual({ stop: true });

    await expect(ctx.chat.simulateUser(ACTOR_B, started.conversationId, {})).rejects.toMatchObject({
      name: 'NotFoundError',
    });
    await expect(ctx.chat.simulateUser(ACTOR_A, started.conversationId, { persona: 'x'.repeat(2001) })).rejects.toThrow(
      /at most 2,000 characters/,
    );
  });
});

describe('image_gen in the app', () => {
  const viewer = (owner: typeof A) => makeViewer({ owner, admin: false, via: 'session', userTools });

  it('is offered only to a user with an images endpoint: the environment’s, or one of their connections', async () => {
    const names = async (c: AppContext, owner: typeof A) => (await appInfo(c, viewer(owner))).tools.map((t) => t.name);
    expect(await names(ctx, A)).not.toContain('image_gen');
    expect(await names(ctx, A)).toEqual(expect.arrayContaining(['image_zoom_in', 'front_page_search']));
    // B names an image model on a connection of B's: offered to B, not to A, and under B's address policy.
    await ctx.store.addConnection(B, {
      name: 'B images',
      baseURL: 'https://images.example/v1',
      apiKeyCipher: null,
      capabilities: { 'img-b': { imageGeneration: true } },
      rates: {},
    });
    expect(await names(ctx, B)).toContain('image_gen');
    expect(await names(ctx, A)).not.toContain('image_gen');
    expect(await ctx.models.imageEndpoint(B)).toMatchObject({
      baseURL: 'https://images.example/v1',
      model: 'img-b',
      connection: 'B images',
      addressPolicy: { allowPrivate: false },
    });
    const withEnv = await context({ OPENAI_IMAGE_MODEL: 'img-env' });
    expect(await names(withEnv, A)).toContain('image_gen');
  });

  it('makes the image at the endpoint and keeps it in the conversation; without one the model is told why', async () => {
    const withEnv = await context({ OPENAI_IMAGE_MODEL: 'img-env' });
    model.setScenario({
      replies: [
        { toolCalls: [{ name: 'image_gen', arguments: '{"prompt":"a lighthouse, #ffcc00"}' }] },
        { content: 'Here.' },
      ],
    });
    const started = await withEnv.chat.send(ACTOR_A, {
      message: 'Draw a lighthouse.',
      settings: { tools: ['image_gen'] },
    });
    const events = await drain(follow(withEnv.chat, A, started.runId));
    const result = ofType(events, 'tool-result')[0]!;
    expect(result.ok).toBe(true);
    const url = (result.content as ContentItem[]).find((i) => i.image)!.image!;
    expect(parseConversationImageUrl(url)?.conversationId).toBe(started.conversationId);
    const kept = await readToolImage(
      withEnv.config.dataDir,
      started.conversationId,
      parseConversationImageUrl(url)!.hash,
    );
    expect(kept?.kind).toBe('png');
    expect(model.requests.find((r) => r.path === '/v1/images/generations')?.body).toMatchObject({
      model: 'img-env',
      prompt: 'a lighthouse, #ffcc00',
    });

    model.reset();
    model.setScenario({
      replies: [{ toolCalls: [{ name: 'image_gen', arguments: '{"prompt":"a lighthouse"}' }] }, { content: 'Sorry.' }],
    });
    const refused = await ctx.chat.send(ACTOR_A, { message: 'Draw a lighthouse.', settings: { tools: ['image_gen'] } });
    const said = ofType(await drain(follow(ctx.chat, A, refused.runId)), 'tool-result')[0]!;
    expect(said).toMatchObject({ ok: true, content: expect.stringMatching(/^image_gen cannot make images/) });
    expect(model.requests.filter((r) => r.path === '/v1/images/generations')).toHaveLength(0);
  });
});

describe('amap_weather and image_search in the app', () => {
  const names = async (web: boolean, c: AppContext = ctx) =>
    (
      await appInfo(
        c,
        makeViewer({ owner: A, admin: false, via: 'session', userTools: { codeInterpreter: true, web } }),
      )
    ).tools.map((t) => t.name);

  it('are offered once their keys are set, and to a user only where the admin allows users the web tools', async () => {
    const before = await names(true);
    expect(before).not.toContain('amap_weather');
    expect(before).not.toContain('image_search');
    // A server configured with their keys.
    const keyed = await context({ AMAP_TOKEN: 'amap-key', SERPAPI_IMAGE_SEARCH_KEY: 'serp-key' });
    expect(await names(true, keyed)).toEqual(expect.arrayContaining(['amap_weather', 'image_search']));
    const withoutWeb = await names(false, keyed);
    expect(withoutWeb).not.toContain('amap_weather');
    expect(withoutWeb).not.toContain('image_search');
    expect(withoutWeb).toContain('front_page_search');
  });
});
