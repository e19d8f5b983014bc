// Conversation titles made by the model from the first exchange (CONVERSATION_TITLES=model), through the chat service
// over a real SQLite file and the scripted model server over HTTP.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FnCallAgent } from '../../lib/agent';
import { everyToolActor } from '../../lib/chat/actor';
import type { ChatService } from '../../lib/chat/service';
import { cleanTitle } from '../../lib/chat/titles';
import { createChatModel } from '../../lib/llm';
import { ownerScope } from '../../lib/store/owner';
import { openSqliteStore } from '../../lib/store';
import type { ChatStore, ConversationSettings } from '../../lib/store/types';
import type { RecordedRequest } from '../../scripts/model-server/script';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { loadConfig } from '../../lib/config';
import { createAppContext } from '../../lib/server/context';
import { drain, follow } from '../support/chat';

const OWNER = ownerScope('owner-a');
const ACTOR = everyToolActor(OWNER);
const TITLE_ASK = 'You name conversations';

let server: ModelServer;
let store: ChatStore;
let service: ChatService;

beforeAll(async () => {
  server = await createModelServer();
  store = await openSqliteStore(path.join(mkdtempSync(path.join(tmpdir(), 'titles-')), 'chat.db'));
  // As the app builds it (lib/server/context.ts build()): CONVERSATION_TITLES=model, the default.
  const config = loadConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'titles-data-')) });
  expect(config.llm.titles).toBe('model');
  const agents = (s: ConversationSettings) =>
    new FnCallAgent({
      llm: createChatModel({ model: 'scripted', baseURL: server.url, apiKey: 'k', generateCfg: { max_retries: 0 } }),
      functionList: s.tools,
      name: 'assistant',
    });
  service = (await createAppContext(config, store, { agents, titles: config.llm.titles })).chat;
});
afterAll(async () => {
  await store.close();
  await server.close();
});
beforeEach(() => server.reset());

const isTitleRequest = (r: RecordedRequest) => JSON.stringify(r.body.messages).includes(TITLE_ASK);

describe('conversation titles by the model', () => {
  it('titles a new conversation from its first exchange, after the answer, in the user’s language', async () => {
    server.setScenario({
      rules: [
        { when: { anyIncludes: TITLE_ASK }, reply: { content: '"貘的饮食习惯。"' } },
        { when: { lastUserIncludes: '貘' }, reply: { content: '貘主要吃树叶和水果。' } },
      ],
    });
    const started = await service.send(ACTOR, { message: '貘平时吃什么？我想了解一下它们的饮食。' });
    // Until the model has named it, the conversation is named by its first message.
    expect((await store.getConversation(OWNER, started.conversationId))?.title).toBe(
      '貘平时吃什么？我想了解一下它们的饮食。',
    );
    const events = await drain(follow(service, OWNER, started.runId));
    expect(events.at(-1)).toMatchObject({ type: 'run-end', reason: 'answered' });
    expect(await service.settledTitle(ACTOR, started.conversationId)).toBe('貘的饮食习惯');
    expect((await store.getConversation(OWNER, started.conversationId))?.title).toBe('貘的饮食习惯');
    // The answer went first: the title was asked after it, with the question and the answer, and no tools.
    expect(server.requests.map(isTitleRequest)).toEqual([false, true]);
    const asked = JSON.stringify(server.requests[1]!.body);
    expect(asked).toContain('貘平时吃什么');
    expect(asked).toContain('貘主要吃树叶和水果');
    expect(server.requests[1]!.body.tools).toBeUndefined();

    // A later turn does not title it again.
    await drain(
      follow(
        service,
        OWNER,
        (await service.send(ACTOR, { conversationId: started.conversationId, message: '那水果呢？貘' })).runId,
      ),
    );
    await service.settledTitle(ACTOR, started.conversationId);
    expect(server.requests.filter(isTitleRequest)).toHaveLength(1);
  });

  it('keeps the first message’s title when the model fails or says nothing usable', async () => {
    server.setScenario({
      rules: [
        { when: { anyIncludes: TITLE_ASK }, reply: { fault: { kind: 'status', status: 500 } } },
        { when: {}, reply: { content: 'An answer.' } },
      ],
    });
    const failed = await service.send(ACTOR, { message: 'What is the tide at noon?' });
    await drain(follow(service, OWNER, failed.runId));
    expect(await service.settledTitle(ACTOR, failed.conversationId)).toBe('What is the tide at noon?');

    server.setScenario({
      rules: [
        { when: { anyIncludes: TITLE_ASK }, reply: { content: '  \n"" ' } },
        { when: {}, reply: { content: 'An answer.' } },
      ],
    });
    const empty = await service.send(ACTOR, { message: 'And at midnight?' });
    await drain(follow(service, OWNER, empty.runId));
    expect(await service.settledTitle(ACTOR, empty.conversationId)).toBe('And at midnight?');
  });

  it('leaves a title the user gave meanwhile, and titles nothing for a run that did not answer', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    server.setScenario(async (req) => {
      if (!isTitleRequest(req)) return { content: 'Fine.' };
      await held;
      return { content: 'Model title' };
    });
    const started = await service.send(ACTOR, { message: 'Hello there' });
    await drain(follow(service, OWNER, started.runId));
    await store.renameConversation(OWNER, started.conversationId, 'Mine');
    release();
    expect(await service.settledTitle(ACTOR, started.conversationId)).toBe('Mine');

    server.reset();
    server.setScenario({ rules: [{ when: {}, reply: { fault: { kind: 'status', status: 400 } } }] });
    const failed = await service.send(ACTOR, { message: 'Will fail' });
    expect((await drain(follow(service, OWNER, failed.runId))).at(-1)).toMatchObject({ reason: 'error' });
    await service.settledTitle(ACTOR, failed.conversationId);
    expect(server.requests.filter(isTitleRequest)).toHaveLength(0);
  });

  it('answers for the owner’s conversations only', async () => {
    server.setScenario({ fallback: 'echo' });
    const started = await service.send(ACTOR, { message: 'Mine alone' });
    await drain(follow(service, OWNER, started.runId));
    await expect(
      service.settledTitle(everyToolActor(ownerScope('owner-b')), started.conversationId),
    ).rejects.toMatchObject({ status: 404 });
  });
});

describe('cleanTitle', () => {
  it('takes the first line, without a label, quotes, Markdown or a final period', () => {
    expect(cleanTitle('Title: "Tapir diets".\nBecause the user asked…')).toBe('Tapir diets');
    expect(cleanTitle('标题：《貘的饮食》。')).toBe('貘的饮食');
    expect(cleanTitle('<think>short, please</think>\n**Tide tables**')).toBe('Tide tables');
    expect(cleanTitle('17% of 2,340 is **397.8**.')).toBe('17% of 2,340 is 397.8');
    expect(cleanTitle('Listing files with `ls -la` and *globs*')).toBe('Listing files with ls -la and globs');
    expect(cleanTitle('3 * 4 = 12, and 5 * 6')).toBe('3 * 4 = 12, and 5 * 6');
    expect(cleanTitle('   ')).toBeUndefined();
    expect(Array.from(cleanTitle('x'.repeat(100))!)).toHaveLength(60);
  });
});
