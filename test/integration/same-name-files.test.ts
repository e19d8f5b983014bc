// Two files of one name in one run (two folders' notes.txt uploaded to a conversation, an agent's document and an
// upload, two of an agent's documents), through the upload route's handler, the chat service and agents as the app
// builds them, a real SQLite file, real files under DATA_DIR and the scripted model server over HTTP: each file
// keeps a name of its own (the later one numbered, "notes (2).txt"), the model is told both (an agent's document by
// the name the run staged it under), and a retrieval call searches and cites both.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { everyToolActor } from '../../lib/chat/actor';
import { saveAgentDefinition } from '../../lib/chat/saved-agents';
import { loadConfig } from '../../lib/config';
import type { AgentEvent } from '../../lib/protocol/events';
import { createAppContext, type AppContext } from '../../lib/server/context';
import { ownerScope } from '../../lib/store/owner';
import { openSqliteStore } from '../../lib/store';
import type { ChatStore, SavedAgent } from '../../lib/store/types';
import { handleUpload } from '../../lib/uploads/http';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { drain, follow } from '../support/chat';

const OWNER = ownerScope('owner-a');
const ACTOR = everyToolActor(OWNER);
const NINE = 'The ferry leaves at nine from the north pier.';
const TEN = 'The ferry leaves at ten from the south pier.';

let model: ModelServer;
let store: ChatStore;
let ctx: AppContext;
let dataDir: string;
let savedDataDir: string | undefined;

beforeAll(async () => {
  model = await createModelServer();
});
afterAll(() => model.close());
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'same-name-'));
  // File-aware tools read the uploads under the process's DATA_DIR, as in the app.
  savedDataDir = process.env.DATA_DIR;
  process.env.DATA_DIR = dataDir;
  store = await openSqliteStore(path.join(dataDir, 'agent-studio.db'));
  const env = { DATA_DIR: dataDir, OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'k', OPENAI_MODEL: 'scripted' };
  ctx = await createAppContext(loadConfig({ ...env, LLM_MAX_RETRIES: '0' }), store);
  model.reset();
});
afterEach(async () => {
  await store.close();
  if (savedDataDir === undefined) delete process.env.DATA_DIR;
  else process.env.DATA_DIR = savedDataDir;
  await rm(dataDir, { recursive: true, force: true });
});

interface Uploaded {
  document: { id: string; hash: string; name: string; size: number };
  conversationId: string;
  notice?: string;
  noticeCode?: string;
  agent?: SavedAgent;
}

async function upload(name: string, text: string, to: { conversationId?: string; agentId?: string } = {}) {
  const query = new URLSearchParams({ name, ...to });
  const res = await handleUpload(
    ctx.uploads,
    OWNER,
    new Request(`http://app/api/files?${query}`, { method: 'POST', body: new TextEncoder().encode(text) }),
  );
  expect(res.status).toBe(201);
  const body = (await res.json()) as Uploaded;
  if (!to.agentId) await ctx.uploads.settled(OWNER, body.document.id);
  return body;
}

const completions = () => model.requests.filter((r) => r.path === '/v1/chat/completions');
type Sent = { role: string; content: string };
const sent = (i: number) => completions()[i]!.body.messages as Sent[];

function retrievalCall(files: string[]) {
  return { toolCalls: [{ name: 'retrieval', arguments: JSON.stringify({ query: 'ferry leaves', files }) }] };
}

async function ask(message: string, settings: object, conversationId?: string): Promise<AgentEvent[]> {
  const started = await ctx.chat.send(ACTOR, { message, settings, ...(conversationId ? { conversationId } : {}) });
  return drain(follow(ctx.chat, OWNER, started.runId));
}

/** The names of the documents a retrieval step's passages came from. */
function citedNames(events: AgentEvent[]): string[] {
  const names = events.flatMap((e) => (e.type === 'retrieval' ? e.candidates.map((c) => c.fileName) : []));
  return [...new Set(names)].sort();
}

describe('two files of one name', () => {
  it('uploaded to one conversation: the second is numbered, told to the model, and both are searched', async () => {
    const first = await upload('notes.txt', NINE);
    const second = await upload('notes.txt', TEN, { conversationId: first.conversationId });
    expect(second.document.name).toBe('notes (2).txt');
    expect(second.noticeCode).toBe('duplicate-name');
    expect(second.notice).toContain('"notes (2).txt"');
    // The same bytes under the same name are the same file: not numbered.
    const again = await upload('notes.txt', NINE, { conversationId: first.conversationId });
    expect(again.document.name).toBe('notes.txt');
    await ctx.uploads.remove(OWNER, again.document.id);

    for (const files of [[], ['notes.txt', 'notes (2).txt']]) {
      model.reset();
      model.setScenario({
        replies: [retrievalCall(files), { content: 'At nine (notes.txt) or ten (notes (2).txt).' }],
      });
      const events = await ask('When does the ferry leave?', {}, first.conversationId);
      // The files came with the first message: its note names both.
      const notes = sent(0).filter((m) => m.role === 'user' && m.content.startsWith('(Uploaded'));
      expect(notes.map((m) => m.content)).toEqual([
        '(Uploaded [file](notes.txt) [file](<notes (2).txt>)) When does the ferry leave?',
      ]);
      const result = sent(1).find((m) => m.role === 'tool')!.content;
      expect(result, JSON.stringify(files)).toContain(NINE);
      expect(result, JSON.stringify(files)).toContain(TEN);
      expect(citedNames(events)).toEqual(['notes (2).txt', 'notes.txt']);
    }
  });

  it('an agent’s document and an upload: the tools stage both and search both', async () => {
    const agent = await saveAgentDefinition(store, OWNER, undefined, { name: 'Clerk', kind: 'fncall' });
    await upload('notes.txt', NINE, { agentId: agent.id });
    const { conversationId } = await upload('notes.txt', TEN);
    model.setScenario({ replies: [retrievalCall([]), { content: 'Nine or ten.' }] });
    const events = await ask('When does the ferry leave?', { agentId: agent.id }, conversationId);
    const result = sent(1).find((m) => m.role === 'tool')!.content;
    expect(result).toContain(NINE);
    expect(result).toContain(TEN);
    // The conversation's upload keeps the name the model was told; the agent's own document is numbered.
    expect(citedNames(events)).toEqual(['notes (2).txt', 'notes.txt']);
  });

  it('an agent’s document numbered by an upload: its documents line names the copy the run staged', async () => {
    const agent = await saveAgentDefinition(store, OWNER, undefined, { name: 'Clerk', kind: 'fncall' });
    await upload('notes.txt', NINE, { agentId: agent.id });
    const { conversationId } = await upload('notes.txt', TEN);
    // The model asks for the agent's document by the name it was told.
    model.setScenario({ replies: [retrievalCall(['notes (2).txt']), { content: 'Nine.' }] });
    await ask('When does the ferry leave?', { agentId: agent.id }, conversationId);
    const [system, ...rest] = sent(0);
    expect(system!.role).toBe('system');
    expect(system!.content).toContain('Your documents: [file](<notes (2).txt>). Search them with the retrieval tool.');
    expect(system!.content).not.toContain('[file](notes.txt)');
    // The upload keeps its own name in the note, so the two names the model holds are two files.
    expect(rest.find((m) => m.role === 'user')!.content).toBe(
      '(Uploaded [file](notes.txt)) When does the ferry leave?',
    );
    const result = sent(1).find((m) => m.role === 'tool')!.content;
    expect(result).toContain(NINE);
    expect(result).not.toContain(TEN);
  });

  it('an Assistant with a document of the same name as an upload cites them apart', async () => {
    const agent = await saveAgentDefinition(store, OWNER, undefined, { name: 'Reader', kind: 'assistant' });
    await upload('notes.txt', NINE, { agentId: agent.id });
    const { conversationId } = await upload('notes.txt', TEN);
    model.setScenario({ replies: [{ content: 'Nine or ten.' }] });
    const events = await ask('When does the ferry leave?', { agentId: agent.id }, conversationId);
    const system = sent(0)[0]!.content;
    expect(system).toContain(NINE);
    expect(system).toContain(TEN);
    expect(citedNames(events)).toEqual(['notes (2).txt', 'notes.txt']);
  });

  it('two of an agent’s documents: the second is numbered', async () => {
    const agent = await saveAgentDefinition(store, OWNER, undefined, { name: 'Keeper', kind: 'fncall' });
    await upload('notes.txt', NINE, { agentId: agent.id });
    const { agent: updated } = await upload('notes.txt', TEN, { agentId: agent.id });
    expect(updated!.documents!.map((d) => d.name)).toEqual(['notes.txt', 'notes (2).txt']);
    model.setScenario({ replies: [retrievalCall(['notes (2).txt']), { content: 'Ten.' }] });
    await ask('When does the ferry leave?', { agentId: agent.id });
    expect(sent(0)[0]!.content).toContain('Your documents: [file](notes.txt) [file](<notes (2).txt>).');
    const result = sent(1).find((m) => m.role === 'tool')!.content;
    expect(result).toContain(TEN);
    expect(result).not.toContain(NINE);
  });
});
