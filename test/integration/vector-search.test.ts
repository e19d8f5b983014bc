// The Assistant's vector and hybrid search (rag_searchers) over real HTTP against the scripted model server, whose
// /v1/embeddings is a stand-in embedding model (scripts/model-server/embed.ts: "testify" and "witness" are one
// concept there, as a real model would have them close): vector search finds the passage a paraphrase names that
// keyword search misses; hybrid search keeps both rankings; chunk vectors are kept in a real SQLite store and made
// again only when the document changes; a server without /embeddings leaves keyword search, and the trace says so.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Assistant, type AgentEvent } from '../../lib/agent';
import { clearIndexCache, type AvailableSearcher } from '../../lib/documents/search';
import { createChatModel } from '../../lib/llm';
import { DB_FILE_NAME, openSqliteStore } from '../../lib/store';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { messageText } from '../../scripts/model-server/script';
import { allowLocalFileStaging } from '../../tools';
import { collectEvents, ofType } from '../support/run';

const TARGET = 'Court duty: employees who testify in a court case keep their full wages for that day.';
const QUESTION = 'Am I still paid when I am called as a witness?';

let server: ModelServer;
let chatOnly: ModelServer;
let tmp: string;
let handbook: string;

beforeAll(async () => {
  allowLocalFileStaging(true);
  server = await createModelServer();
  chatOnly = await createModelServer({ embeddings: false });
});
afterAll(async () => {
  allowLocalFileStaging(false);
  await server.close();
  await chatOnly.close();
});
beforeEach(async () => {
  server.reset();
  chatOnly.reset();
  clearIndexCache();
  tmp = await mkdtemp(path.join(os.tmpdir(), 'vector-search-'));
  handbook = path.join(tmp, 'handbook.md');
  await writeFile(handbook, handbookText());
  return () => rm(tmp, { recursive: true, force: true });
});

function handbookText(extra = ''): string {
  const sections = Array.from(
    { length: 80 },
    (_, i) => `Section ${i}: office routines, building access, meeting rooms and general administration.`,
  );
  sections.splice(57, 0, TARGET);
  sections.splice(20, 0, 'Salary: salaries are paid on the last working day of each month.');
  return sections.join('\n\n') + extra;
}

function assistant(searchers: AvailableSearcher[], on: ModelServer = server, budget = 150) {
  server.setScenario({ replies: [{ content: 'Yes.' }] });
  chatOnly.setScenario({ replies: [{ content: 'Yes.' }] });
  return new Assistant({
    llm: createChatModel({ model: 'scripted', baseURL: on.url, apiKey: 'k', fncallMode: 'native' }),
    ragCfg: {
      max_ref_token: budget,
      parser_page_size: 100,
      rag_searchers: searchers,
      embedding_model: 'stand-in',
    },
  });
}

const ask = (question = QUESTION) => [{ role: 'user', content: [{ file: handbook }, { text: question }] }];

function systemOf(on: ModelServer): string {
  const chat = on.requests.find((r) => r.path.endsWith('/chat/completions'))!;
  const system = (chat.body as { messages: { role: string; content: unknown }[] }).messages.find(
    (m) => m.role === 'system',
  );
  return system ? messageText(system.content) : '';
}

const embeddingCalls = (on: ModelServer) => on.requests.filter((r) => r.path === '/v1/embeddings');

function retrieval(events: AgentEvent[]) {
  const [step] = ofType(events, 'retrieval');
  return step!;
}

describe('vector and hybrid search (rag_searchers)', () => {
  it('vector_search finds the passage a paraphrased question names, which keyword search misses', async () => {
    await collectEvents(assistant(['keyword_search', 'front_page_search']).runEvents(ask()));
    expect(systemOf(server)).not.toContain(TARGET);
    expect(embeddingCalls(server)).toHaveLength(0); // keyword search embeds nothing

    server.reset();
    const events = await collectEvents(assistant(['vector_search']).runEvents(ask()));
    expect(ofType(events, 'run-end')[0]!.reason).toBe('answered');
    expect(systemOf(server)).toContain(TARGET);
    const calls = embeddingCalls(server);
    expect(calls.length).toBeGreaterThan(0);
    // The configured embedding model, on the connection's own server.
    expect(calls.every((c) => (c.body as { model: string }).model === 'stand-in')).toBe(true);
    expect(retrieval(events).errors).toBeUndefined();
  });

  it('hybrid_search fuses both rankings: the keyword hit and the paraphrase both go in', async () => {
    const question = 'When is the salary paid, and am I paid when I am called as a witness?';
    await collectEvents(assistant(['keyword_search'], server, 400).runEvents(ask(question)));
    const keyword = systemOf(server);
    server.reset();
    await collectEvents(assistant(['hybrid_search'], server, 400).runEvents(ask(question)));
    const hybrid = systemOf(server);
    expect(keyword).toContain('salaries are paid on the last working day');
    expect(keyword).not.toContain(TARGET);
    expect(hybrid).toContain('salaries are paid on the last working day');
    expect(hybrid).toContain(TARGET);
  });

  it('keeps chunk vectors in the store: embedded once, again only when the document changes', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'vector-store-'));
    try {
      const file = path.join(dir, DB_FILE_NAME);
      let store = await openSqliteStore(file);
      await collectEvents(assistant(['vector_search']).runEvents(ask(), { vectorStore: store }));
      const first = embeddingCalls(server).map((c) => (c.body as { input: string[] }).input.length);
      // The document's chunks (one batch here), then the question.
      expect(first).toHaveLength(2);
      expect(first[0]).toBeGreaterThan(1);
      expect(first[1]).toBe(1);

      // Asked again, also after a restart: only the question is embedded.
      await store.close();
      store = await openSqliteStore(file);
      server.reset();
      clearIndexCache();
      await collectEvents(
        assistant(['vector_search']).runEvents(ask('Who pays for court duty?'), { vectorStore: store }),
      );
      expect(embeddingCalls(server).map((c) => (c.body as { input: string[] }).input.length)).toEqual([1]);

      // The document changes: its chunks are embedded again.
      await writeFile(handbook, handbookText('\n\nSection 99: a new rule on desk plants.'));
      server.reset();
      await collectEvents(assistant(['vector_search']).runEvents(ask(), { vectorStore: store }));
      const again = embeddingCalls(server).map((c) => (c.body as { input: string[] }).input.length);
      expect(again).toHaveLength(2);
      expect(again[0]).toBeGreaterThan(1);
      expect(again[1]).toBe(1);
      expect(systemOf(server)).toContain(TARGET);
      await store.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a server without /embeddings: searched by keyword, the answer still comes, and the trace says why', async () => {
    const events = await collectEvents(
      assistant(['hybrid_search'], chatOnly).runEvents(ask('When is the salary paid?')),
    );
    expect(ofType(events, 'run-end')[0]!.reason).toBe('answered');
    expect(systemOf(chatOnly)).toContain('salaries are paid on the last working day');
    const [note] = retrieval(events).errors ?? [];
    expect(note).toMatch(/^Vector search was not possible \(Embeddings failed: .*404.*\); searched by keyword\.$/);
    expect(note).toContain('embedding_model or RAG_EMBEDDING_MODEL');
  });
});
