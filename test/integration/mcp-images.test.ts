// An MCP server's image result in a conversation's run, end to end below the page: the real MCP fixture server
// (test/fixtures/mcp-server.mjs over stdio), the real chat service, a real SQLite file and the scripted model server.
// The image is kept by its hash in the conversation and the tool-result event names it by URL, so the log and an
// exported run carry no base64; that URL serves the PNG to the conversation's owner and answers anyone else 404;
// with tool images on, a model that sees is sent it in the next call.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { everyToolActor } from '../../lib/chat/actor';
import type { ChatService } from '../../lib/chat/service';
import type { DocumentService } from '../../lib/uploads/service';
import { loadConfig } from '../../lib/config';
import { parseConversationImageUrl } from '../../lib/documents/image-url';
import { buildRunExport, parseRunExport } from '../../lib/inspect/export';
import type { EventOf } from '../../lib/protocol/events';
import { createAppContext, type AppContext } from '../../lib/server/context';
import { ownerScope } from '../../lib/store/owner';
import { openSqliteStore } from '../../lib/store';
import type { ChatStore } from '../../lib/store/types';
import { toolImageResponse } from '../../lib/uploads/image-response';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { drain, follow } from '../support/chat';

const FIXTURE = path.resolve(__dirname, '../fixtures/mcp-server.mjs');
const OWNER = ownerScope('owner-a');
const OTHER = ownerScope('owner-b');
const ACTOR = everyToolActor(OWNER);
const SLOW = 60_000;

let server: ModelServer;
let dataDir: string;
let store: ChatStore;
let chat: ChatService;
let uploads: DocumentService;
let ctx: AppContext;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'mcp-images-'));
  const config = path.join(dataDir, 'mcp.json');
  await writeFile(
    config,
    JSON.stringify({ mcpServers: { fixture: { command: process.execPath, args: [FIXTURE, 'stdio'] } } }),
  );
  server = await createModelServer();
  store = await openSqliteStore(path.join(dataDir, 'agent-studio.db'));
  const env = { DATA_DIR: dataDir, MCP_CONFIG: config, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'k' };
  // The context makes its own MCP manager from its configuration (MCP_CONFIG), as the app's root does.
  ctx = await createAppContext(loadConfig({ ...env, OPENAI_MODEL: 'gpt-4o', LLM_MAX_RETRIES: '0' }), store);
  chat = ctx.chat;
  uploads = ctx.uploads;
}, SLOW);
afterAll(async () => {
  await ctx.mcp.closeAll();
  await server.close();
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
}, SLOW);

beforeEach(() => {
  server.reset();
  server.setScenario({
    replies: [{ toolCalls: [{ id: 'c1', name: 'fixture-image', arguments: '{}' }] }, { content: 'A red square.' }],
  });
});

async function run(toolImages: boolean) {
  const started = await chat.send(ACTOR, {
    message: 'Show me the image.',
    settings: { tools: ['fixture-image'], toolImages },
  });
  await drain(follow(chat, OWNER, started.runId));
  const events = await store.getRunEvents(OWNER, started.runId);
  expect(events.at(-1)).toMatchObject({ type: 'run-end', reason: 'answered' });
  const result = events.find((e): e is EventOf<'tool-result'> => e.type === 'tool-result')!;
  const bodies = server.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body);
  return { started, events, result, bodies };
}

describe('an MCP image result in a conversation', () => {
  it(
    'is kept by hash and named by URL in the event; the URL serves the PNG to its owner, 404 to another user',
    async () => {
      const { started, events, result, bodies } = await run(false);
      expect(result.ok).toBe(true);
      const items = result.content as { text?: string; image?: string }[];
      expect(items[0]).toEqual({ text: 'a red square' });
      expect(items[1]!.text).toMatch(/^\[image: image\/png, \d+ bytes\]$/);
      const url = items[2]!.image!;
      const ref = parseConversationImageUrl(url)!;
      expect(ref.conversationId).toBe(started.conversationId);
      const logged = JSON.stringify(events);
      expect(logged).not.toContain('base64');
      expect(logged).not.toContain('iVBORw0KGgo');

      const res = await toolImageResponse(store, OWNER, dataDir, ref.conversationId, ref.hash);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      const png = Buffer.from(await res.arrayBuffer());
      expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
      const { createHash } = await import('node:crypto');
      expect(createHash('sha256').update(png).digest('hex')).toBe(ref.hash);
      expect((await toolImageResponse(store, OTHER, dataDir, ref.conversationId, ref.hash)).status).toBe(404);
      expect((await toolImageResponse(store, OWNER, dataDir, ref.conversationId, '0'.repeat(64))).status).toBe(404);

      // The model was given the text only (tool images off), and an exported run keeps the URL, not the bytes.
      expect(JSON.stringify(bodies[1])).not.toContain('image_url');
      const exported = JSON.stringify(buildRunExport({ id: started.runId, status: 'done', startedAt: 0 }, events));
      expect(exported).toContain(url);
      expect(exported).not.toContain('iVBORw0KGgo');
      const imported = await parseRunExport(exported);
      expect(imported.ok && JSON.stringify(imported.value.events)).toContain(url);

      // Deleting the conversation deletes the image with it.
      await uploads.deleteConversation(OWNER, started.conversationId);
      expect((await toolImageResponse(store, OWNER, dataDir, ref.conversationId, ref.hash)).status).toBe(404);
    },
    SLOW,
  );

  it(
    'goes to a model that sees in the next call when tool images are on',
    async () => {
      const { bodies, result } = await run(true);
      const url = (result.content as { image?: string }[]).find((i) => i.image)!.image!;
      expect(JSON.stringify(bodies[0])).not.toContain('image_url');
      const last = (bodies[1].messages as { role: string; content: unknown }[]).at(-1)!;
      expect(last).toEqual({
        role: 'user',
        content: [
          { type: 'text', text: 'The images returned by the tool results above (fixture-image):' },
          { type: 'image_url', image_url: { url: expect.stringMatching(/^data:image\/png;base64,iVBORw0KGgo/) } },
        ],
      });
      expect(url).toMatch(/^\/api\/images\//);
    },
    SLOW,
  );
});
