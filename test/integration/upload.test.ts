// The upload API (lib/uploads/http.ts, what app/api/files wires) over real Request objects, a real SQLite file,
// files on disk under a temporary DATA_DIR, the real parsers, and the chat service against the scripted model
// server: upload, parse in the background, list, remove, and the next message carrying the files.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FnCallAgent, type AgentEvent } from '../../lib/agent';
import type { ChatService } from '../../lib/chat/service';
import { DocumentService } from '../../lib/uploads/service';
import { handleDelete, handleGet, handleList, handleUpload } from '../../lib/uploads/http';
import { openSqliteStore } from '../../lib/store';
import type { ChatStore, ConversationSettings, StoredDocument } from '../../lib/store/types';
import { collectFileRefs } from '../../lib/llm/upload-info';
import { parseFileRef } from '../../lib/documents/file-ref';
import { stageFiles } from '../../tools/file-access';
import { toolSettings } from '../../tools/settings';
import { defaultConfig, loadConfig } from '../../lib/config';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { makeDocx } from '../support/document-fixtures';
import { makePdf, textPage } from '../support/pdf-writer';
import { createChatModel } from '../../lib/llm';
import { chatContext, follow } from '../support/chat';
import { ownerScope } from '../../lib/store/owner';
import { everyToolActor } from '../../lib/chat/actor';

const OWNER = ownerScope('owner-a');
const ACTOR = everyToolActor(OWNER);

let server: ModelServer;
let dataDir: string;

/** The document's record as a server that stopped while parsing it left it (written past the store). */
function leftParsing(id: string): void {
  const db = new Database(path.join(dataDir, 'agent-studio.db'));
  try {
    db.prepare("UPDATE documents SET state = 'parsing', pages = NULL WHERE id = ?").run(id);
  } finally {
    db.close();
  }
}
let store: ChatStore;
let documents: DocumentService;
let chat: ChatService;
const limits = { uploadMaxBytes: 64 * 1024, unzippedMaxBytes: 10 * 1024 * 1024 };
const agents = (s: ConversationSettings) =>
  new FnCallAgent({
    llm: createChatModel({ model: 'scripted', baseURL: server.url, apiKey: 'k', generateCfg: { max_retries: 0 } }),
    functionList: s.tools,
    name: 'assistant',
  });

beforeAll(async () => {
  server = await createModelServer();
});
afterAll(() => server.close());

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'upload-'));
  store = await openSqliteStore(path.join(dataDir, 'agent-studio.db'));
  // As the app builds them: the chat service waits on the parses the upload service starts.
  const ctx = await chatContext(store, agents, {
    DATA_DIR: dataDir,
    UPLOAD_MAX_BYTES: String(limits.uploadMaxBytes),
    UNZIP_MAX_BYTES: String(limits.unzippedMaxBytes),
  });
  documents = ctx.uploads;
  chat = ctx.chat;
  server.reset();
});
afterEach(async () => {
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** A body streamed in pieces, as a browser sends it. */
function streamOf(bytes: Uint8Array, piece = 4096): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, at + piece));
      at += piece;
    },
  });
}

async function upload(name: string, bytes: Uint8Array, conversationId?: string, declare = true) {
  const query = new URLSearchParams({ name, ...(conversationId ? { conversationId } : {}) });
  const request = new Request(`http://app/api/files?${query}`, {
    method: 'POST',
    body: streamOf(bytes),
    headers: declare ? { 'content-length': String(bytes.length) } : {},
    duplex: 'half',
  } as RequestInit);
  const res = await handleUpload(documents, OWNER, request);
  return {
    status: res.status,
    body: (await res.json()) as {
      document: StoredDocument;
      conversationId: string;
      notice?: string;
      error?: { message: string; code?: string };
    },
  };
}

async function settled(id: string): Promise<StoredDocument> {
  const doc = await documents.settled(OWNER, id);
  if (!doc) throw new Error('document vanished');
  return doc;
}

const pdf = makePdf([
  textPage('Tide tables', ['High water at Tidewick is at 06:12.']),
  textPage('Page two', ['More.']),
]);

describe('the upload API', () => {
  it('stores the bytes by hash, creates the conversation on the first upload, and parses in the background', async () => {
    const first = await upload('tides.pdf', pdf);
    expect(first.status).toBe(201);
    const { document, conversationId } = first.body;
    expect((await store.getConversation(OWNER, conversationId))?.title).toBe('New chat');
    expect(document).toMatchObject({ name: 'tides.pdf', size: pdf.length, state: 'parsing' });
    expect(document.ref).toBe(`files/${document.hash}/tides.pdf`);
    expect(JSON.stringify(first.body)).not.toContain(dataDir); // the page never sees a server path
    expect(await readFile(path.join(dataDir, 'files', document.hash))).toEqual(pdf);

    expect(await settled(document.id)).toMatchObject({ state: 'ready', kind: 'pdf', pages: 2 });
    const listed = await handleList(
      documents,
      OWNER,
      new Request(`http://app/api/files?conversationId=${conversationId}`),
    );
    expect(
      ((await listed.json()) as { documents: StoredDocument[] }).documents.map((d) => [d.name, d.state, d.pages]),
    ).toEqual([['tides.pdf', 'ready', 2]]);
    const one = await handleGet(documents, OWNER, document.id);
    expect(((await one.json()) as { document: StoredDocument }).document.state).toBe('ready');
  });

  it('records a file that cannot be read as an error with the reason, keeping the other uploads', async () => {
    const { body } = await upload('good.docx', makeDocx([{ text: 'Pilot boarding at the Gullrock buoy.' }]));
    const conversationId = body.conversationId;
    const bad = await upload('broken.pdf', Buffer.from('%PDF-1.7 this is not really a PDF'), conversationId);
    const empty = await upload('empty.txt', new Uint8Array(0), conversationId);
    expect([bad.status, empty.status]).toEqual([201, 201]);
    expect(await settled(bad.body.document.id)).toMatchObject({
      state: 'error',
      error: expect.stringMatching(/^broken\.pdf is a corrupt PDF/),
      errorCode: 'corrupt',
    });
    expect(await settled(empty.body.document.id)).toMatchObject({
      state: 'error',
      error: 'empty.txt is empty (0 bytes).',
      errorCode: 'empty',
    });
    expect(await settled(body.document.id)).toMatchObject({ state: 'ready', kind: 'docx', pages: 1 });
    expect((await store.listDocuments(OWNER, conversationId)).map((d) => d.state)).toEqual(['ready', 'error', 'error']);
  });

  it('refuses an oversize file with 413 while streaming (declared or not), and keeps nothing of it', async () => {
    const big = new Uint8Array(limits.uploadMaxBytes + 1).fill(65);
    for (const declare of [true, false]) {
      const res = await upload('huge.txt', big, undefined, declare);
      expect(res.status).toBe(413);
      expect(res.body.error).toEqual({
        message: 'huge.txt is larger than the 64 KB limit per file.',
        code: 'too-large',
      });
    }
    expect(await store.listConversations(OWNER)).toEqual([]);
    const files = await readdir(path.join(dataDir, 'files'));
    expect(files.filter((f) => f !== '.incoming')).toEqual([]);
    expect(await readdir(path.join(dataDir, 'files', '.incoming'))).toEqual([]);
  });

  it('cleans a name with path separators or control characters, and says so', async () => {
    const res = await upload('../../etc/pass\u0007wd.txt', Buffer.from('plain words'));
    expect(res.status).toBe(201);
    expect(res.body.document.name).toBe('passwd.txt');
    expect(res.body.notice).toBe('The file name "../../etc/pass\\u0007wd.txt" was changed to "passwd.txt".');
    expect(await settled(res.body.document.id)).toMatchObject({ state: 'ready', kind: 'text' });
  });

  it('removes bidi override characters from a name, and shows them escaped in the notice', async () => {
    const res = await upload('invoice\u202Efdp.exe', Buffer.from('plain words'));
    expect(res.body.document.name).toBe('invoicefdp.exe');
    expect(res.body.notice).toBe('The file name "invoice\\u202efdp.exe" was changed to "invoicefdp.exe".');
    expect(parseFileRef(`files/${'a'.repeat(64)}/x\u202Eyz.txt`)).toBeUndefined();
    await settled(res.body.document.id);
  });

  it('answers 400 without a name and 404 for an unknown conversation or document', async () => {
    const noName = await handleUpload(
      documents,
      OWNER,
      new Request('http://app/api/files', { method: 'POST', body: 'x' }),
    );
    expect(noName.status).toBe(400);
    expect((await upload('a.txt', Buffer.from('a'), 'no-such-conversation')).status).toBe(404);
    expect((await handleDelete(documents, OWNER, 'nope')).status).toBe(404);
    expect((await handleGet(documents, OWNER, 'nope')).status).toBe(404);
  });

  it('opens a cited page of the owner’s document by its hash; another user’s, or unknown bytes, read as gone', async () => {
    const { document } = (await upload('tides.pdf', pdf)).body;
    await settled(document.id);
    const page2 = await documents.page(OWNER, document.hash, 2);
    expect(page2).toMatchObject({ page: 2, pageCount: 2 });
    expect(page2.paragraphs.join(' ')).toContain('More.');
    // Out of range: the nearest page, never an error.
    expect((await documents.page(OWNER, document.hash, 9)).page).toBe(2);
    expect((await documents.page(OWNER, document.hash, 0)).paragraphs.join(' ')).toContain('06:12');
    const gone = { status: 404, message: 'This document is not here any more.' };
    await expect(documents.page(ownerScope('owner-b'), document.hash, 1)).rejects.toMatchObject(gone);
    await expect(documents.page(OWNER, 'f'.repeat(64), 1)).rejects.toMatchObject(gone);
    await expect(documents.page(OWNER, '../../etc/passwd', 1)).rejects.toMatchObject(gone);
  });

  it('removes a document; its bytes (and their chunk vectors) go once no other record uses them', async () => {
    const a = await upload('a.pdf', pdf);
    const b = await upload('copy.pdf', pdf, a.body.conversationId);
    await settled(a.body.document.id);
    await settled(b.body.document.id);
    const stored = path.join(dataDir, 'files', a.body.document.hash);
    const vectorsKey = { embedder: 'http://127.0.0.1:1/v1#embed', hash: a.body.document.hash, pageSize: 500 };
    await store.putChunkVectors(vectorsKey, [Float32Array.of(1, 0)]);
    expect((await handleDelete(documents, OWNER, a.body.document.id)).status).toBe(200);
    expect(await readFile(stored)).toEqual(pdf); // still used by copy.pdf
    expect(await store.getChunkVectors(vectorsKey)).toEqual([Float32Array.of(1, 0)]);
    await handleDelete(documents, OWNER, b.body.document.id);
    await expect(readFile(stored)).rejects.toThrow(/ENOENT/);
    expect(await store.getChunkVectors(vectorsKey)).toBeUndefined();
    expect(await readdir(path.join(dataDir, 'parsed'))).toEqual([]);
    expect(await store.listDocuments(OWNER, a.body.conversationId)).toEqual([]);
  });

  it('re-parses a document left "parsing" by a server that stopped', async () => {
    const { body } = await upload('tides.pdf', pdf);
    await settled(body.document.id);
    // What a killed server leaves behind: a record still parsing, and nobody parsing it.
    leftParsing(body.document.id);
    const fresh = new DocumentService(store, { dataDir, limits, images: defaultConfig().images });
    expect((await fresh.list(OWNER, body.conversationId))[0]?.state).toBe('parsing');
    expect(await fresh.settled(OWNER, body.document.id)).toMatchObject({ state: 'ready', pages: 2 });
  });
});

describe('sending a message after uploads', () => {
  it('carries each ready document once as a file item; the model is told of it; tools can stage it', async () => {
    const { body } = await upload('tides.pdf', pdf);
    const bad = await upload('broken.pdf', Buffer.from('%PDF-1.7 nope'), body.conversationId);
    await settled(body.document.id);
    await settled(bad.body.document.id);
    server.setScenario({ replies: [{ content: 'Noted.' }, { content: 'Again.' }] });

    const first = await chat.send(ACTOR, { conversationId: body.conversationId, message: 'When is high water?' });
    await drain(follow(chat, OWNER, first.runId));
    const turn = (await store.getTurn(OWNER, first.turnId))!;
    expect(turn.content).toEqual([{ text: 'When is high water?' }, { file: body.document.ref }]);
    expect((await store.getConversation(OWNER, body.conversationId))?.title).toBe('When is high water?');
    const sent = server.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!.body.messages;
    expect(sent.at(-1)).toMatchObject({ role: 'user', content: '(Uploaded [file](tides.pdf)) When is high water?' });

    const second = await chat.send(ACTOR, { conversationId: body.conversationId, message: 'And low water?' });
    await drain(follow(chat, OWNER, second.runId));
    expect((await store.getTurn(OWNER, second.turnId))!.content).toBe('And low water?');

    const work = path.join(dataDir, 'work');
    const refs = collectFileRefs(await chat.history(OWNER, body.conversationId, Infinity));
    // Where file-aware tools look for uploads: the settings' DATA_DIR.
    const staged = await stageFiles(refs, work, { settings: toolSettings(loadConfig({ DATA_DIR: dataDir })) });
    expect(staged).toEqual({ files: [path.join(work, 'tides.pdf')], errors: [] });
    expect(await readFile(staged.files[0]!)).toEqual(pdf);
  });
});

describe('deleting a conversation', () => {
  it('removes its files, parses and work directories, but not a file another conversation holds', async () => {
    const a = await upload('tides.pdf', pdf);
    const docx = makeDocx([{ text: 'Pilot boarding at the buoy.' }]);
    const own = await upload('pilots.docx', docx, a.body.conversationId);
    const b = await upload('tides-copy.pdf', pdf); // the same bytes, in another conversation
    for (const d of [a, own, b]) await settled(d.body.document.id);
    const workOf = (id: string) => path.join(dataDir, 'work', id);
    for (const id of [a.body.conversationId, b.body.conversationId]) {
      await mkdir(path.join(workOf(id), 'code_interpreter'), { recursive: true });
      await writeFile(path.join(workOf(id), 'code_interpreter', 'plot.png'), 'png');
    }
    // (.incoming holds uploads in flight)
    const stored = async () => (await readdir(path.join(dataDir, 'files'))).filter((f) => !f.startsWith('.')).sort();
    const parsed = async () => (await readdir(path.join(dataDir, 'parsed'))).sort();
    expect(await stored()).toEqual([a.body.document.hash, own.body.document.hash].sort());

    await documents.deleteConversation(OWNER, a.body.conversationId);
    expect(await store.getConversation(OWNER, a.body.conversationId)).toBeUndefined();
    expect(await store.getDocument(OWNER, own.body.document.id)).toBeUndefined();
    expect(await stored()).toEqual([b.body.document.hash]);
    expect(await parsed()).toEqual([`${b.body.document.hash}.json`]);
    await expect(readdir(workOf(a.body.conversationId))).rejects.toThrow(/ENOENT/);
    expect(await readdir(path.join(workOf(b.body.conversationId), 'code_interpreter'))).toEqual(['plot.png']);

    await documents.deleteConversation(OWNER, b.body.conversationId);
    expect(await stored()).toEqual([]);
    expect(await parsed()).toEqual([]);
  });
});

describe('a message sent while its upload is still being parsed', () => {
  it('waits for the parse and carries the file (and does not wait for a conversation with nothing parsing)', async () => {
    server.setScenario({ replies: [{ content: 'Noted.' }, { content: 'Again.' }] });
    const { body } = await upload('tides.pdf', pdf);
    expect((await store.getDocument(OWNER, body.document.id))?.state).toBe('parsing');

    const run = await chat.send(ACTOR, { conversationId: body.conversationId, message: 'When is high water?' });
    expect((await store.getDocument(OWNER, body.document.id))?.state).toBe('ready');
    await drain(follow(chat, OWNER, run.runId));
    expect((await store.getTurn(OWNER, run.turnId))!.content).toEqual([
      { text: 'When is high water?' },
      { file: body.document.ref },
    ]);

    // Nothing left to wait for: the next message goes at once (sitting out the 120 s wait would time the test out).
    const next = await chat.send(ACTOR, { conversationId: body.conversationId, message: 'And low water?' });
    await drain(follow(chat, OWNER, next.runId));
  });

  it('parses, then carries, a document another instance uploaded and is still parsing (or a stopped one left)', async () => {
    server.setScenario({ replies: [{ content: 'Noted.' }] });
    const { body } = await upload('tides.pdf', pdf);
    await settled(body.document.id);
    // What this instance sees of an upload to another one: a record still parsing, and no parse running here.
    leftParsing(body.document.id);
    const elsewhere = await chatContext(store, agents, { DATA_DIR: dataDir });
    const run = await elsewhere.chat.send(ACTOR, {
      conversationId: body.conversationId,
      message: 'When is high water?',
    });
    expect(await store.getDocument(OWNER, body.document.id)).toMatchObject({ state: 'ready', pages: 2 });
    await drain(follow(elsewhere.chat, OWNER, run.runId));
    expect((await store.getTurn(OWNER, run.turnId))!.content).toEqual([
      { text: 'When is high water?' },
      { file: body.document.ref },
    ]);
  });
});

async function drain(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}
