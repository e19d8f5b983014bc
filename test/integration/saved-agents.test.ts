// Saved agents over a real SQLite file: kept and listed, exported and imported as JSON with readable errors, and run
// by the chat service as the app builds it (its agent factory, the scripted model server over HTTP): a conversation
// with a saved Router hands the turn to a saved helper, whose answer is stored under its name.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { foldEvents } from '../../lib/agent';
import { loadConfig } from '../../lib/config';
import { exportAgent, importAgent, parseAgentDefinition, AGENT_EXPORT_SCHEMA } from '../../lib/chat/saved-agents';
import { apiModels } from '../../lib/openai-api/models';
import { createAppContext, type AppContext } from '../../lib/server/context';
import { openSqliteStore } from '../../lib/store/sqlite';
import type { ChatStore } from '../../lib/store/types';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { drain, follow } from '../support/chat';

let model: ModelServer;
let store: ChatStore;
let ctx: AppContext;

beforeAll(async () => {
  model = await createModelServer();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'saved-agents-'));
  store = openSqliteStore(path.join(dataDir, 'chat.db'));
  ctx = createAppContext(
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
    const a = await store.createAgent(parseAgentDefinition(analyst));
    const b = await store.createAgent(parseAgentDefinition({ ...analyst, name: 'another' }));
    expect((await store.listAgents()).map((x) => x.name)).toEqual(['another', 'Data analyst']);
    const updated = await store.updateAgent(b.id, parseAgentDefinition({ ...analyst, name: 'Bee' }));
    expect(updated).toMatchObject({ id: b.id, name: 'Bee', createdAt: b.createdAt });
    expect(await store.deleteAgent(b.id)).toBe(true);
    expect(await store.deleteAgent(b.id)).toBe(false);
    expect(await store.getAgent(a.id)).toMatchObject({ avatar: '📊', suggestions: ['What is 2+2?'] });
    await store.deleteAgent(a.id);
  });

  it('refuse a bad definition, naming the field', () => {
    expect(() => parseAgentDefinition({ ...analyst, name: '  ' })).toThrow('name: An agent needs a name.');
    expect(() => parseAgentDefinition({ ...analyst, kind: 'wizard' })).toThrow(/^kind: "kind" must be one of/);
    expect(() => parseAgentDefinition({ ...analyst, kind: 'router' })).toThrow(/needs at least one member/);
    expect(() => parseAgentDefinition({ ...analyst, generateCfg: { temperature: 'hot' } })).toThrow(
      /generateCfg.temperature/,
    );
  });

  it('export to a versioned JSON file and import back, members by name; a bad file says what is wrong', async () => {
    const helper = await store.createAgent(parseAgentDefinition(analyst));
    const router = await store.createAgent(
      parseAgentDefinition({ ...analyst, name: 'Desk', kind: 'router', members: [helper.id] }),
    );
    const file = await exportAgent(store, router.id);
    expect(file).toMatchObject({ schema: AGENT_EXPORT_SCHEMA, agent: { name: 'Desk', members: ['Data analyst'] } });
    const back = await importAgent(store, JSON.stringify(file));
    expect(back).toMatchObject({ name: 'Desk', kind: 'router', members: [helper.id] });

    await expect(importAgent(store, 'not json')).rejects.toThrow(/not JSON/);
    await expect(importAgent(store, JSON.stringify({ schema: 'agent-studio.run/1' }))).rejects.toThrow(
      /"agent-studio.run\/1", not an agent export/,
    );
    const missing = { ...file, agent: { ...file.agent, members: ['Nobody'] } };
    await expect(importAgent(store, JSON.stringify(missing))).rejects.toThrow(/"Nobody" is not saved here/);
    const broken = { ...file, agent: { ...file.agent, kind: 'x' } };
    await expect(importAgent(store, JSON.stringify(broken))).rejects.toThrow(/^kind:/);
    await store.deleteAgent(router.id);
    await store.deleteAgent(helper.id);
  });

  it('a conversation with a saved Router: the helper it calls answers, stored under its name and avatar', async () => {
    const helper = await store.createAgent(parseAgentDefinition(analyst));
    const router = await store.createAgent(
      parseAgentDefinition({ ...analyst, name: 'Desk', avatar: '🛎️', kind: 'router', members: [helper.id] }),
    );
    model.setScenario({ replies: [{ content: 'Call: Data analyst\nReply:' }, { content: 'Four.' }] });
    const started = await ctx.chat.send({ message: 'What is 2+2?', settings: { agentId: router.id } });
    const events = await drain(follow(ctx.chat, started.runId));
    expect(events[0]).toMatchObject({ type: 'run-start', agent: 'Desk', kind: 'router', avatar: '🛎️' });
    expect(model.requests[1]!.body.messages[0]).toEqual({ role: 'system', content: 'You are a careful analyst.' });
    const stored = await store.getRunEvents(started.runId);
    expect(foldEvents(stored)).toEqual([{ role: 'assistant', content: 'Four.', name: 'Data analyst' }]);
    expect((await store.getConversation(started.conversationId))?.settings.agentId).toBe(router.id);

    // The next turn of the conversation shows the router who answered.
    model.setScenario({ replies: [{ content: 'Glad to help.' }] });
    const next = await ctx.chat.send({ conversationId: started.conversationId, message: 'Thanks' });
    await drain(follow(ctx.chat, next.runId));
    const sent = model.requests[2]!.body.messages as { role: string; content: string }[];
    expect(sent.find((m) => m.role === 'assistant')?.content).toBe('Call: Data analyst\nReply:Four.');

    // Replay from a step is refused, saying why.
    await expect(ctx.chat.replay(started.runId, { fromIteration: 1 })).rejects.toThrow(
      /Router runs cannot be replayed from a step yet/,
    );

    // And the API lists it as a model.
    expect((await apiModels(store)).map((m) => m.name)).toEqual(
      expect.arrayContaining(['FnCallAgent', 'Desk', 'Data analyst']),
    );
    await store.deleteAgent(router.id);
    await expect(ctx.chat.send({ conversationId: started.conversationId, message: 'x' })).rejects.toThrow(
      /saved agent .* does not exist/,
    );
    await store.deleteAgent(helper.id);
  });
});
