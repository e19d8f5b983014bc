// Files on S3 (issue 19): instances that share one database and one bucket but each have their own, empty, DATA_DIR.
// Real parts throughout: s3rver on a loopback port (test/support/s3.ts), a real SQLite file as the shared database,
// the app's services as the composition root builds them, real uploads and parses, code_interpreter in real
// sandboxes, and the scripted model server. What is in the bucket is read with the AWS SDK directly.
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobStore } from '../../lib/blob';
import { everyToolActor } from '../../lib/chat/actor';
import { loadConfig } from '../../lib/config';
import type { AgentEvent } from '../../lib/protocol/events';
import { artifactResponse } from '../../lib/sandbox/artifact-response';
import { createAppContext, type AppContext } from '../../lib/server/context';
import { ownerScope } from '../../lib/store/owner';
import { openSqliteStore } from '../../lib/store';
import type { ChatStore } from '../../lib/store/types';
import { attachmentItems } from '../../lib/uploads/attachments';
import { toolImageResponse, uploadedImageResponse } from '../../lib/uploads/image-response';
import { keepReturnedImages } from '../../lib/mcp/keep-images';
import type { ContentItem } from '../../lib/llm/schema';
import { handleUpload } from '../../lib/uploads/http';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { codeWorkPrefix } from '../../tools/code-interpreter';
import { drain, follow } from '../support/chat';
import { makeImage } from '../support/images';
import { startS3, type TestS3 } from '../support/s3';

const SLOW = 180_000; // sandboxes start in seconds, more on a loaded machine
const OWNER = ownerScope('owner-a');
const ACTOR = everyToolActor(OWNER);

let s3: TestS3;
let bucket: S3Client;
let server: ModelServer;
let store: ChatStore;
const dirs: string[] = [];
/** The instances made, whose interpreters stop at the end. */
const instances: AppContext[] = [];

beforeAll(async () => {
  [s3, server] = await Promise.all([startS3(), createModelServer()]);
  bucket = new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: s3.env.S3_ACCESS_KEY_ID!, secretAccessKey: s3.env.S3_SECRET_ACCESS_KEY! },
  });
  // The one database every instance uses.
  store = await openSqliteStore(path.join(await tempDir(), 'agent-studio.db'));
});
afterAll(async () => {
  for (const ctx of instances) ctx.tools.sandbox.shutdown();
  await store.close();
  bucket.destroy();
  await Promise.all([s3.close(), server.close()]);
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'files-on-s3-'));
  dirs.push(dir);
  return dir;
}

/** A fresh instance: its own empty DATA_DIR, the shared database and bucket, its own services (as another process
 *  would have). */
async function instance(): Promise<AppContext & { dataDir: string }> {
  const dataDir = await tempDir();
  const env = {
    ...s3.env,
    CODE_INTERPRETER_BACKEND: 'pyodide',
    CODE_INTERPRETER_TIMEOUT_MS: '20000',
    DATA_DIR: dataDir,
    OPENAI_BASE_URL: server.url,
    OPENAI_API_KEY: 'k',
    OPENAI_MODEL: 'scripted',
    LLM_MAX_RETRIES: '0',
    // Every instance signs sessions and seals API keys with the same secrets (else each makes its own in DATA_DIR).
    AUTH_SECRET: 'a-shared-auth-secret-of-enough-length-0123456789',
    SECRET_KEY: 'a-shared-secret-key-of-enough-length-0123456789',
  };
  const ctx = await createAppContext(loadConfig(env), store);
  instances.push(ctx);
  return Object.assign(ctx, { dataDir });
}

async function keys(prefix = ''): Promise<string[]> {
  const out = await bucket.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix }));
  return (out.Contents ?? []).map((o) => o.Key!).sort();
}

async function upload(ctx: AppContext, name: string, bytes: Buffer, conversationId?: string) {
  const query = new URLSearchParams({ name, ...(conversationId ? { conversationId } : {}) });
  const res = await handleUpload(
    ctx.uploads,
    OWNER,
    new Request(`http://app/api/files?${query}`, { method: 'POST', body: new Uint8Array(bytes) }),
  );
  expect(res.status).toBe(201);
  const body = (await res.json()) as { document: { id: string; hash: string; ref: string }; conversationId: string };
  await ctx.uploads.settled(OWNER, body.document.id);
  return body;
}

function codeCall(code: string) {
  return { toolCalls: [{ name: 'code_interpreter', arguments: JSON.stringify({ code }) }] };
}

async function ask(ctx: AppContext, conversationId: string, message: string): Promise<AgentEvent[]> {
  const started = await ctx.chat.send(ACTOR, { conversationId, message });
  return drain(follow(ctx.chat, OWNER, started.runId));
}

const results = (events: AgentEvent[]) =>
  events.filter((e): e is Extract<AgentEvent, { type: 'tool-result' }> => e.type === 'tool-result');

describe('files on S3, several instances', () => {
  it(
    'an upload on one instance is read, parsed and given to code_interpreter on another; what the code wrote is ' +
      'served by a third and staged again by a fourth; deleting the conversation empties the bucket of it',
    async () => {
      // Instance A takes the upload: its bytes and their parse go to the bucket.
      const a = await instance();
      const csv = Buffer.from('n,label\n3,three\n4,four\n5,five\n');
      const { conversationId, document } = await upload(a, 'numbers.csv', csv);
      expect(await keys()).toEqual([`files/${document.hash}`, `parsed/${document.hash}.json`]);
      await store.updateSettings(OWNER, conversationId, { tools: ['code_interpreter'] });

      // Instance B starts with an empty DATA_DIR: the search parses the file, the code reads it and writes one.
      const b = await instance();
      expect(await readdir(b.dataDir)).toEqual([]); // the database is elsewhere; the secrets come from the environment
      expect((await b.uploads.list(OWNER, conversationId)).map((d) => d.state)).toEqual(['ready']);
      server.setScenario({
        replies: [
          { toolCalls: [{ name: 'retrieval', arguments: JSON.stringify({ query: 'four', files: ['numbers.csv'] }) }] },
          codeCall(
            "import csv\nrows = [int(r['n']) for r in csv.DictReader(open('numbers.csv'))]\n" +
              "open('total.txt', 'w').write(str(sum(rows)))\nprint('sum', sum(rows))",
          ),
          { content: 'The total is 12.' },
        ],
      });
      const [search, code] = results(await ask(b, conversationId, 'Add up the numbers.'));
      expect(search).toMatchObject({ name: 'retrieval', ok: true });
      expect(JSON.stringify(search!.content)).toContain('four');
      expect(code).toMatchObject({ name: 'code_interpreter', ok: true });
      expect(code!.content).toContain('sum 12');
      expect(code!.files).toEqual([
        expect.objectContaining({ name: 'total.txt', url: `/api/artifacts/${conversationId}/total.txt`, bytes: 2 }),
      ]);
      expect(existsSync(path.join(b.dataDir, 'files', document.hash))).toBe(true); // B's copy, from the bucket
      const work = `work/${conversationId}/code_interpreter/`;
      expect(await keys(work)).toEqual([`${work}total.txt`]); // what the code wrote; the staged upload is not copied

      // Instance A never ran the code: it serves the file from the bucket.
      expect(existsSync(path.join(a.dataDir, 'work', conversationId))).toBe(false);
      const served = await artifactResponse(blobStore(a.config), codeWorkPrefix(conversationId), ['total.txt']);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-disposition')).toContain('attachment; filename="total.txt"');
      expect(await served.text()).toBe('12');

      // Instance C, empty again: the next call finds the file the code wrote on B, and its change goes back.
      const c = await instance();
      server.setScenario({
        replies: [
          codeCall("t = open('total.txt').read()\nopen('total.txt', 'w').write(t + '!')\nprint('was', t)"),
          { content: 'Done.' },
        ],
      });
      const [again] = results(await ask(c, conversationId, 'What was the total?'));
      expect(again!.content).toContain('was 12');
      const reread = await artifactResponse(blobStore(a.config), codeWorkPrefix(conversationId), ['total.txt']);
      expect(await reread.text()).toBe('12!');

      // Deleting the conversation on C removes its upload, parse and work files from the bucket.
      await c.uploads.deleteConversation(OWNER, conversationId);
      expect(await keys()).toEqual([]);
    },
    SLOW,
  );

  it('an image uploaded on one instance is attached and served by another', async () => {
    const a = await instance();
    const png = await makeImage('png', 32, 24);
    const { conversationId, document } = await upload(a, 'dot.png', png);
    const b = await instance();
    const res = await uploadedImageResponse(b.store, OWNER, b.dataDir, conversationId, document.hash);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true);
    const c = await instance();
    expect(await attachmentItems([document.ref], c.store, OWNER, c.dataDir, c.config.images)).toEqual([
      { image: document.ref },
    ]);
    expect(await keys('files/')).toContain(`files/${document.hash}`);
    await c.uploads.deleteConversation(OWNER, conversationId);
    expect(await keys('files/')).not.toContain(`files/${document.hash}`);
  });

  it('an image an MCP tool returned on one instance is served by another, and goes with its conversation', async () => {
    const a = await instance();
    const conversation = await a.store.createConversation(OWNER, { title: 'A tool image' });
    const png = await makeImage('png', 20, 10);
    const output = [{ image: `data:image/png;base64,${png.toString('base64')}` }];
    const [item] = (await keepReturnedImages(output, conversation.id, a.tools)) as ContentItem[];
    const hash = /[0-9a-f]{64}/.exec(item?.image ?? '')?.[0];
    expect(hash).toBeDefined();
    expect(await keys(`work/${conversation.id}/`)).toEqual([`work/${conversation.id}/images/${hash}`]);

    const b = await instance();
    const res = await toolImageResponse(b.store, OWNER, b.dataDir, conversation.id, hash!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true);
    // Another owner is told there is no such image, on any instance.
    expect((await toolImageResponse(b.store, ownerScope('owner-b'), b.dataDir, conversation.id, hash!)).status).toBe(
      404,
    );

    await b.uploads.deleteConversation(OWNER, conversation.id);
    expect(await keys(`work/${conversation.id}/`)).toEqual([]);
  });
});
