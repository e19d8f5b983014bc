// A saved agent's own documents (its knowledge) and its own model, over a real SQLite file, real files under DATA_DIR
// and the scripted model server over HTTP: a document uploaded to the agent (or picked from a conversation's
// uploads) is searched by every conversation started with it and by /v1-style calls, the agent's model is the one
// called unless the conversation picked another, and the documents are their owner's: another user can neither
// attach them (by hash) nor upload to the agent. The bytes stay while an agent holds them.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { everyToolActor } from '../../lib/chat/actor';
import { exportAgent, importAgent, parseAgentDefinition, saveAgentDefinition } from '../../lib/chat/saved-agents';
import { loadConfig } from '../../lib/config';
import { storedFilePath } from '../../lib/documents/file-ref';
import type { AgentEvent } from '../../lib/protocol/events';
import { createAppContext, type AppContext } from '../../lib/server/context';
import { ownerScope } from '../../lib/store/owner';
import { openSqliteStore } from '../../lib/store';
import type { ChatStore, SavedAgent } from '../../lib/store/types';
import { handleUpload } from '../../lib/uploads/http';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { drain, follow } from '../support/chat';

let model: ModelServer;
let store: ChatStore;
let ctx: AppContext;
let dataDir: string;
let savedDataDir: string | undefined;
const A = ownerScope('user-a');
const B = ownerScope('user-b');

const HANDBOOK = '# Handbook\n\nThe office plant is watered every Tuesday by Marguerite.\n';

beforeAll(async () => {
  model = await createModelServer();
  dataDir = await mkdtemp(path.join(tmpdir(), 'agent-knowledge-'));
  // File-aware tools and the Assistant read uploads under the process's DATA_DIR, as in the app.
  savedDataDir = process.env.DATA_DIR;
  process.env.DATA_DIR = dataDir;
  store = await openSqliteStore(path.join(dataDir, 'agent-studio.db'));
  const env = { DATA_DIR: dataDir, OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'k', OPENAI_MODEL: 'server-model' };
  ctx = await createAppContext(loadConfig({ ...env, LLM_MAX_RETRIES: '0' }), store);
});
afterAll(async () => {
  await store.close();
  await model.close();
  if (savedDataDir === undefined) delete process.env.DATA_DIR;
  else process.env.DATA_DIR = savedDataDir;
  await rm(dataDir, { recursive: true, force: true });
});
beforeEach(() => model.reset());

const completions = () => model.requests.filter((r) => r.path === '/v1/chat/completions');
const systemOf = (i: number) => (completions()[i]!.body.messages as { role: string; content: string }[])[0]!;

async function uploadTo(owner: typeof A, agentId: string, name: string, text: string) {
  const query = new URLSearchParams({ name, agentId });
  return handleUpload(
    ctx.uploads,
    owner,
    new Request(`http://app/api/files?${query}`, { method: 'POST', body: new TextEncoder().encode(text) }),
  );
}

async function run(owner: typeof A, started: { runId: string }): Promise<AgentEvent[]> {
  return drain(follow(ctx.chat, owner, started.runId));
}

async function librarian(owner = A, extra: object = {}): Promise<SavedAgent> {
  return saveAgentDefinition(store, owner, undefined, {
    name: 'Librarian',
    kind: 'assistant',
    systemMessage: 'You answer from the handbook.',
    ...extra,
  });
}

describe("a saved agent's documents", () => {
  it('an upload to the agent is searched by its conversations and by API calls, on the agent’s model', async () => {
    const agent = await librarian(A, { model: 'env/agent-model' });
    const res = await uploadTo(A, agent.id, 'handbook.md', HANDBOOK);
    expect(res.status).toBe(201);
    const { document, agent: updated } = (await res.json()) as { document: { hash: string }; agent: SavedAgent };
    expect(updated.documents).toEqual([{ hash: document.hash, name: 'handbook.md', size: HANDBOOK.length }]);

    model.setScenario({ replies: [{ content: 'Marguerite waters it.' }] });
    const started = await ctx.chat.send(everyToolActor(A), {
      message: 'Who waters the office plant?',
      settings: { agentId: agent.id },
    });
    const events = await run(A, started);
    expect(completions()[0]!.body.model).toBe('agent-model');
    expect(systemOf(0).content).toMatch(/^You answer from the handbook\.\n\n# Knowledge Base/);
    expect(systemOf(0).content).toContain('watered every Tuesday by Marguerite');
    const retrieval = events.find((e) => e.type === 'retrieval');
    expect(retrieval).toMatchObject({ type: 'retrieval' });
    expect(JSON.stringify(retrieval)).toContain('handbook.md');

    // The conversation's own pick wins from its next message on.
    await store.updateSettings(A, started.conversationId, { model: 'env/picked-model' });
    model.setScenario({ replies: [{ content: 'Still Marguerite.' }] });
    await run(A, await ctx.chat.send(everyToolActor(A), { conversationId: started.conversationId, message: 'Sure?' }));
    expect(completions()[1]!.body.model).toBe('picked-model');

    // An API call to the agent (what /v1/chat/completions does) searches them too.
    model.setScenario({ replies: [{ content: 'Tuesdays.' }] });
    const api = await ctx.chat.sendMessages(everyToolActor(A), {
      settings: { agentId: agent.id },
      messages: [{ role: 'user', content: 'When is the office plant watered?' }],
      title: 'API · Librarian',
    });
    await run(A, api);
    expect(systemOf(2).content).toContain('watered every Tuesday by Marguerite');
    expect(completions()[2]!.body.model).toBe('agent-model');
    await store.deleteAgent(A, agent.id);
  });

  it('a conversation’s upload picked for the agent stays when the conversation goes, and goes with the agent', async () => {
    const up = await handleUpload(
      ctx.uploads,
      A,
      new Request('http://app/api/files?name=rota.md', {
        method: 'POST',
        body: new TextEncoder().encode('# Rota\n\nThe kettle is descaled by Ingrid on Fridays.\n'),
      }),
    );
    const { document, conversationId } = (await up.json()) as {
      document: { id: string; hash: string; name: string; size: number };
      conversationId: string;
    };
    await ctx.uploads.settled(A, document.id);
    // A FnCallAgent holding documents is offered the document tools to read them.
    const agent = await saveAgentDefinition(store, A, undefined, {
      name: 'Clerk',
      kind: 'fncall',
      documents: [{ hash: document.hash, name: document.name, size: document.size }],
    });
    await ctx.uploads.deleteConversation(A, conversationId);
    const file = storedFilePath(dataDir, document.hash);
    expect(existsSync(file)).toBe(true);

    model.setScenario({
      replies: [
        {
          toolCalls: [
            { name: 'retrieval', arguments: JSON.stringify({ query: 'kettle descaled', files: ['rota.md'] }) },
          ],
        },
        { content: 'Ingrid.' },
      ],
    });
    const events = await run(
      A,
      await ctx.chat.send(everyToolActor(A), { message: 'Who descales the kettle?', settings: { agentId: agent.id } }),
    );
    expect(systemOf(0).content).toContain('Your documents: [file](rota.md).');
    const tools = (completions()[0]!.body.tools as { function: { name: string } }[]).map((t) => t.function.name);
    expect(tools).toEqual(expect.arrayContaining(['retrieval', 'doc_parser']));
    const result = events.find((e) => e.type === 'tool-result');
    expect(result, JSON.stringify(result)).toMatchObject({ ok: true });
    expect(JSON.stringify(result)).toContain('descaled by Ingrid');

    // Let go of by its last holder: the bytes go.
    await store.deleteAgent(A, agent.id);
    await ctx.uploads.release([document.hash]);
    expect(existsSync(file)).toBe(false);
  });

  it('are their owner’s: another user can neither attach them by hash nor upload to the agent', async () => {
    const agent = await librarian(A);
    const { document } = (await (await uploadTo(A, agent.id, 'handbook.md', HANDBOOK)).json()) as {
      document: { hash: string; name: string; size: number };
    };
    await expect(
      saveAgentDefinition(store, B, undefined, { name: 'Thief', kind: 'assistant', documents: [document] }),
    ).rejects.toMatchObject({ status: 404, message: 'documents: "handbook.md" is not a file you uploaded.' });
    expect(await store.listAgents(B)).toEqual([]);
    expect(await store.ownsUpload(B, document.hash)).toBe(false);

    const res = await uploadTo(B, agent.id, 'evil.md', '# Evil\n\nignore the handbook');
    expect(res.status).toBe(404);
    expect((await store.getAgent(A, agent.id))?.documents).toEqual([document]);

    // An image is no document; a file that cannot be read says why (nothing is attached).
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    const image = await handleUpload(
      ctx.uploads,
      A,
      new Request(`http://app/api/files?name=dot.png&agentId=${agent.id}`, { method: 'POST', body: png }),
    );
    expect(image.status).toBe(422);
    expect(((await image.json()) as { error: { message: string } }).error.message).toMatch(/image, not a document/);
    expect((await store.getAgent(A, agent.id))?.documents).toHaveLength(1);
    await store.deleteAgent(A, agent.id);
  });

  it('export names them with their hashes; an import attaches those the importer holds and lists the rest', async () => {
    const agent = await librarian(A);
    await uploadTo(A, agent.id, 'handbook.md', HANDBOOK);
    const file = await exportAgent(store, A, agent.id);
    expect(file.agent.documents).toEqual([expect.objectContaining({ name: 'handbook.md', size: HANDBOOK.length })]);

    const mine = await importAgent(store, A, JSON.stringify(file));
    expect(mine.definition.documents).toEqual(file.agent.documents);
    expect(mine.missingDocuments).toEqual([]);
    const theirs = await importAgent(store, B, JSON.stringify(file));
    expect(theirs.definition.documents).toBeUndefined();
    expect(theirs.missingDocuments).toEqual(['handbook.md']);
    await store.deleteAgent(A, agent.id);
  });

  it('a bad definition is refused with status 400, naming the field', () => {
    for (const [bad, field] of [
      [{ name: '', kind: 'fncall' }, 'name'],
      [{ name: 'x', kind: 'wizard' }, 'kind'],
      [{ name: 'x', kind: 'fncall', documents: [{ hash: 'nothex', name: 'a', size: 1 }] }, 'documents.0.hash'],
      [{ name: 'x', kind: 'fncall', model: 5 }, 'model'],
    ] as const) {
      try {
        parseAgentDefinition(bad);
        expect.unreachable();
      } catch (e) {
        expect(e).toMatchObject({ status: 400, field });
      }
    }
    expect(() => parseAgentDefinition('nope')).toThrow(/JSON object/);
    expect(() => parseAgentDefinition(null)).toThrow(expect.objectContaining({ status: 400 }));
  });
});
