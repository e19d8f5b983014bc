// Images in messages, end to end below the page: uploads checked by content (real libvips), stored by hash in a
// real SQLite file, carried by the next message as image items, and sent by the real agent factory to the
// scripted model server over HTTP: as image_url parts (data URLs built as the request leaves) to a model that
// sees, as an upload note to one that does not (and the turn says so). The run log and its export keep the
// reference, never the bytes.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { agentFactory } from '../../lib/chat/agents';
import { createAppContext } from '../../lib/server/context';
import { storedFeed } from '../../lib/chat/feed';
import type { ChatService } from '../../lib/chat/service';
import { everyToolActor } from '../../lib/chat/actor';
import { foldRun } from '../../lib/chat/view';
import { loadConfig } from '../../lib/config';
import { buildRunExport } from '../../lib/inspect/export';
import { ownerScope } from '../../lib/store/owner';
import { defaultSettings } from '../../lib/protocol/conversation-settings';
import { openSqliteStore } from '../../lib/store';
import type { ChatStore, StoredDocument } from '../../lib/store/types';
import { handleUpload } from '../../lib/uploads/http';
import { uploadedImageResponse } from '../../lib/uploads/image-response';
import type { DocumentService } from '../../lib/uploads/service';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { drain, follow } from '../support/chat';
import { makeImage, pngBomb } from '../support/images';

const OWNER = ownerScope('owner-a');
const ACTOR = everyToolActor(OWNER);
const OTHER = ownerScope('owner-b');

let server: ModelServer;
let dataDir: string;
let store: ChatStore;
let uploads: DocumentService;
let chat: ChatService;

beforeAll(async () => {
  server = await createModelServer();
});
afterAll(() => server.close());

/** The app's context with the real agent factory, on `model` (its name decides whether it sees images). */
async function open(model: string, env: Record<string, string> = {}) {
  const all = {
    DATA_DIR: dataDir,
    OPENAI_BASE_URL: server.url,
    OPENAI_API_KEY: 'k',
    OPENAI_MODEL: model,
    LLM_MAX_RETRIES: '0',
    ...env,
  };
  const ctx = await createAppContext(loadConfig(all), store);
  uploads = ctx.uploads;
  chat = ctx.chat;
}

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'images-'));
  store = await openSqliteStore(path.join(dataDir, 'agent-studio.db'));
  server.reset();
  server.setScenario({ fallback: { content: 'A blue rectangle.' } });
});
afterEach(async () => {
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function upload(name: string, bytes: Uint8Array, conversationId?: string): Promise<StoredDocument> {
  const query = new URLSearchParams({ name, ...(conversationId ? { conversationId } : {}) });
  const res = await handleUpload(
    uploads,
    OWNER,
    new Request(`http://app/api/files?${query}`, { method: 'POST', body: bytes as BodyInit }),
  );
  expect(res.status).toBe(201);
  const { document } = (await res.json()) as { document: StoredDocument };
  return (await uploads.settled(OWNER, document.id))!;
}

/** Sends a message in the upload's conversation and waits for the answer; the last request the model received. */
async function ask(conversationId: string, message: string, settings?: Parameters<ChatService['send']>[1]['settings']) {
  const started = await chat.send(ACTOR, { conversationId, message, ...(settings ? { settings } : {}) });
  await drain(follow(chat, OWNER, started.runId));
  const sent = server.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!.body;
  return { started, sent, events: await store.getRunEvents(OWNER, started.runId) };
}

const lastUser = (body: { messages: { role: string; content: unknown }[] }) =>
  body.messages.filter((m) => m.role === 'user').at(-1)!;

describe('an image sent to a model that sees', () => {
  beforeEach(() => open('qwen2.5-vl-7b-instruct'));

  it('goes as an image_url part with the bytes as a data URL; the run log and its export keep the reference', async () => {
    const png = await makeImage('png', 120, 80);
    const doc = await upload('holiday.jpg', png); // a PNG by its bytes, whatever its name says
    expect(doc).toMatchObject({ state: 'ready', kind: 'png' });

    const { started, sent, events } = await ask(doc.conversationId, 'What is in the picture?');
    const b64 = png.toString('base64');
    expect(lastUser(sent).content).toEqual([
      { type: 'text', text: 'What is in the picture?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${b64}` } },
    ]);
    expect((await store.getTurn(OWNER, started.turnId))!.content).toEqual([
      { text: 'What is in the picture?' },
      { image: doc.ref },
    ]);
    expect(started.content).toEqual([{ text: 'What is in the picture?' }, { image: doc.ref }]);

    const logged = JSON.stringify(events);
    expect(logged).toContain(`"url":"${doc.ref}"`);
    expect(logged).not.toContain(b64.slice(0, 40));
    const exported = JSON.stringify(buildRunExport({ id: started.runId, status: 'done', startedAt: 0 }, events));
    expect(exported).toContain(doc.ref);
    expect(exported).not.toContain(b64.slice(0, 40));
    expect(foldRun(started.runId, storedFeed(events)).imagesWithheld).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ type: 'run-end', reason: 'answered' });
  });

  it.each(['native', 'nous'] as const)(
    'goes as an image part in a run with tools too (%s calls)',
    async (fncallMode) => {
      const doc = await upload('chart.webp', await makeImage('webp'));
      const { sent } = await ask(doc.conversationId, 'Read the chart.', { tools: ['calculator'], fncallMode });
      expect(fncallMode === 'native' ? sent.tools?.length : 0).toBe(fncallMode === 'native' ? 1 : 0);
      const parts = lastUser(sent).content as { type: string; image_url?: { url: string } }[];
      expect(parts.filter((p) => p.type === 'image_url').map((p) => p.image_url!.url.slice(0, 23))).toEqual([
        'data:image/webp;base64,',
      ]);
    },
  );

  it('carries an image named in `files` (POST /api/chat) as an image item, after the same check as an upload', async () => {
    const jpeg = await makeImage('jpeg');
    const doc = await upload('cat.jpeg', jpeg);
    const started = await chat.send(ACTOR, { message: 'Which animal?', files: [doc.ref] });
    await drain(follow(chat, OWNER, started.runId));
    expect((await store.getTurn(OWNER, started.turnId))!.content).toEqual([
      { text: 'Which animal?' },
      { image: doc.ref },
    ]);
    const body = server.requests.at(-1)!.body;
    expect(JSON.stringify(lastUser(body).content)).toContain(`data:image/jpeg;base64,${jpeg.toString('base64')}`);
  });

  it('refuses a bomb at upload (the message goes without it) and when a message names it in `files`', async () => {
    const bomb = await upload('bomb.png', pngBomb());
    expect(bomb).toMatchObject({ state: 'error', errorCode: 'too-many-pixels' });
    expect(bomb.error).toMatch(/^bomb\.png is 100000 × 100000 pixels \(10000 megapixels\); images may have at most 40/);
    const { started, sent } = await ask(bomb.conversationId, 'Look at this.');
    expect((await store.getTurn(OWNER, started.turnId))!.content).toBe('Look at this.');
    expect(JSON.stringify(sent)).not.toContain('image_url');
    await expect(chat.send(ACTOR, { message: 'And now?', files: [bomb.ref] })).rejects.toThrow(
      /^bomb\.png is 100000 × 100000 pixels/,
    );
  });

  it('refuses a truncated image at upload with the reason', async () => {
    const whole = await makeImage('jpeg', 300, 200, '#aa3300');
    const doc = await upload('cut.jpg', whole.subarray(0, whole.length >> 1));
    expect(doc).toMatchObject({ state: 'error', errorCode: 'corrupt' });
    expect(doc.error).toMatch(/^cut\.jpg is a damaged or incomplete JPEG image \(.*premature end/i);
  });
});

describe('an image and a model that cannot see', () => {
  beforeEach(() => open('scripted'));

  it('is not sent: the model is told the file name, and the turn says why', async () => {
    const doc = await upload('photo.png', await makeImage('png'));
    const { started, sent, events } = await ask(doc.conversationId, 'What is in the picture?');
    expect(JSON.stringify(sent)).not.toContain('image_url');
    expect(lastUser(sent).content).toBe('(Uploaded ![image](photo.png)) What is in the picture?');
    expect(events.find((e) => e.type === 'llm-start')).toMatchObject({ imagesWithheld: 1 });
    expect(foldRun(started.runId, storedFeed(events)).imagesWithheld).toBe(1);

    // Said on the turn whose message carried it, not again on the next turns (still told of it by name).
    const next = await ask(doc.conversationId, 'And what colour is it?');
    expect(JSON.stringify(next.sent)).toContain('![image](photo.png)');
    expect(next.events.find((e) => e.type === 'llm-start')).not.toHaveProperty('imagesWithheld');
    expect(foldRun(next.started.runId, storedFeed(next.events)).imagesWithheld).toBeUndefined();
    // A second image attached later is said on its own turn: one, not two.
    await upload('second.png', await makeImage('png', 12, 12, '#00aa00'), doc.conversationId);
    const third = await ask(doc.conversationId, 'And this one?');
    expect(third.events.find((e) => e.type === 'llm-start')).toMatchObject({ imagesWithheld: 1 });
  });

  it('MODEL_VISION=on makes it see; MODEL_VISION=off blinds a model whose name says it sees', async () => {
    await open('scripted', { MODEL_VISION: 'on' });
    const doc = await upload('photo.png', await makeImage('png'));
    expect(JSON.stringify((await ask(doc.conversationId, 'Look.')).sent)).toContain('data:image/png;base64,');
    await open('gpt-4o', { MODEL_VISION: 'off' });
    const other = await upload('photo.png', await makeImage('png', 10, 10));
    expect(JSON.stringify((await ask(other.conversationId, 'Look.')).sent)).not.toContain('image_url');
  });
});

describe('GET /api/images/<conversationId>/<sha256>, and deleting the conversation', () => {
  beforeEach(() => open('scripted'));

  it('serves an image of that conversation, typed by its bytes; nothing of another conversation or no image', async () => {
    const png = await makeImage('png');
    const doc = await upload('renamed.jpg', png);
    const res = await uploadedImageResponse(store, OWNER, dataDir, doc.conversationId, doc.hash);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(Buffer.from(await res.arrayBuffer())).toEqual(png);

    const elsewhere = (await store.createConversation(OWNER)).id;
    expect((await uploadedImageResponse(store, OWNER, dataDir, elsewhere, doc.hash)).status).toBe(404);
    const text = await upload('notes.txt', Buffer.from('plain words'), doc.conversationId);
    expect((await uploadedImageResponse(store, OWNER, dataDir, doc.conversationId, text.hash)).status).toBe(404);
    expect((await uploadedImageResponse(store, OWNER, dataDir, doc.conversationId, '../../etc/passwd')).status).toBe(
      404,
    );

    // Deleted with its conversation, as documents are.
    await uploads.deleteConversation(OWNER, doc.conversationId);
    await expect(readFile(path.join(dataDir, 'files', doc.hash))).rejects.toThrow(/ENOENT/);
    expect((await uploadedImageResponse(store, OWNER, dataDir, doc.conversationId, doc.hash)).status).toBe(404);
  });
});

describe('images are their owner’s', () => {
  beforeEach(() => open('scripted', { MODEL_VISION: 'on' }));

  it('another user gets 404 from the image route and cannot name the image in `files`', async () => {
    const doc = await upload('private.png', await makeImage('png'));
    expect((await uploadedImageResponse(store, OWNER, dataDir, doc.conversationId, doc.hash)).status).toBe(200);
    const res = await uploadedImageResponse(store, OTHER, dataDir, doc.conversationId, doc.hash);
    expect(res.status).toBe(404);
    await expect(
      chat.send(everyToolActor(OTHER), { message: 'Whose is this?', files: [doc.ref] }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it('a run of another user sends no image part for the owner’s upload, whatever its message names', async () => {
    const png = await makeImage('png');
    const doc = await upload('private.png', png);
    const ctx = await createAppContext(
      loadConfig({
        DATA_DIR: dataDir,
        OPENAI_BASE_URL: server.url,
        OPENAI_API_KEY: 'k',
        OPENAI_MODEL: 'scripted',
        LLM_MAX_RETRIES: '0',
        MODEL_VISION: 'on',
      }),
      store,
    );
    const agents = agentFactory(ctx.config, ctx.models, ctx.tools, store);
    const message = [{ role: 'user', content: [{ text: 'Describe it.' }, { image: doc.ref }] }];
    const sentBy = async (owner: typeof OWNER) => {
      await drain((await agents(defaultSettings(), { owner })).runEvents(message));
      return JSON.stringify(lastUser(server.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!.body));
    };
    expect(await sentBy(OWNER)).toContain(`data:image/png;base64,${png.toString('base64').slice(0, 40)}`);
    const other = await sentBy(OTHER);
    expect(other).not.toContain('data:image/png');
    expect(other).toContain('(The image private.png is no longer available.)');
  });
});
