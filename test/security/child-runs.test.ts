// A child run carries its parent's user and upload access (issue #28, 10). Seen on main: a Router's member with
// doc_parser, called through /v1 with an `image_url` of `files/<sha>/<name>`, staged another user's upload (the member
// alone, top-level, was refused). Here, against the built app with accounts on: B's Router holding a member with
// doc_parser, and B's Router holding that Router (a child run of a child run), are asked about A's upload by its
// reference; the member's tool call is refused as for a missing file, and A's words reach neither the model nor B. The
// same agents of A's own, on A's own upload, do read it (so the probe would see a leak). (A GroupChat's members see the
// conversation as text, without its file items, so a reference reaches none of them; its child runs take over their
// parent's options the same way: lib/agent/child-run.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKeyView } from '../../lib/auth/api-keys';
import type { SavedAgent, StoredDocument } from '../../lib/store/types';
import type { RecordedRequest } from '../../scripts/model-server/script';
import { request, startApp, type App } from './support/app';
import { as, resultAs, signUp, type Session } from './support/accounts';

const SECRET = 'walrus-quartermaster';

let app: App;
let a: Session;
let b: Session;
let aliceFile: StoredDocument;

beforeAll(async () => {
  app = await startApp({ env: { AUTH: 'required', MAX_RUNS_PER_MINUTE: '1000' }, firstPage: '/sign-up' });
  const admin = await signUp(app, 'admin@example.com');
  await resultAs(app, admin, 'updateServerSettings', [{ signUp: 'open' }]);
  a = await signUp(app, 'a@example.com');
  b = await signUp(app, 'b@example.com');
  const up = await request(app.url, '/api/files?name=notes.md', {
    method: 'POST',
    headers: as(app, a),
    body: `# Notes\n\nThe ${SECRET} keeps the ledger.\n`,
  });
  expect(up.status).toBe(201);
  aliceFile = up.json<{ document: StoredDocument }>().document;
  // Wait until it is parsed, so that reading it could succeed at once.
  for (let i = 0; ; i++) {
    const doc = await request(app.url, `/api/files/${aliceFile.id}`, { headers: as(app, a) });
    if (doc.json<{ document: StoredDocument }>().document.state === 'ready') break;
    if (i > 200) throw new Error(`the upload was never parsed: ${doc.text}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}, 120_000);
afterAll(() => app?.stop());

/** The member calls doc_parser on notes.md, then answers; a Router first hands the question to it. */
function script() {
  app.model.reset();
  app.model.setScenario((req: RecordedRequest) => {
    const messages = (req.body.messages ?? []) as { role: string }[];
    if (messages.some((m) => m.role === 'tool')) return { content: 'done' };
    if (req.body.tools?.length)
      return { toolCalls: [{ id: 'call-1', name: 'doc_parser', arguments: '{"url": "notes.md"}' }] };
    return { content: 'Call: Reader\nReply:' };
  });
}

async function holders(user: Session): Promise<{ router: SavedAgent; nested: SavedAgent; key: string }> {
  const save = async (definition: object) => {
    const saved = await resultAs<SavedAgent>(app, user, 'saveAgent', [undefined, definition]);
    if (!saved.ok) throw new Error(saved.error);
    return saved.value;
  };
  const reader = await save({ name: 'Reader', kind: 'fncall', tools: ['doc_parser'], description: 'reads files' });
  const router = await save({ name: 'Desk', kind: 'router', members: [reader.id] });
  const nested = await save({ name: 'Front desk', kind: 'router', members: [router.id] });
  const key = await resultAs<{ secret: string; key: ApiKeyView }>(app, user, 'createApiKey', ['v1', 'run']);
  if (!key.ok) throw new Error(key.error);
  return { router, nested, key: key.value.secret };
}

/** POST /v1/chat/completions with the upload's reference as an image_url, as the finding did. */
function askAbout(key: string, model: string, ref: string) {
  return request(app.url, '/v1/chat/completions', {
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({
      model,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What does this file say?' },
            { type: 'image_url', image_url: { url: ref } },
          ],
        },
      ],
    }),
  });
}

const sentToModel = () => JSON.stringify(app.model.requests.map((r) => r.body));
const toolResults = () =>
  app.model.requests.flatMap((r) =>
    ((r.body.messages ?? []) as { role: string; content: unknown }[])
      .filter((m) => m.role === 'tool')
      .map((m) => JSON.stringify(m.content)),
  );

describe('a member of B’s agents asked about A’s upload by its reference', () => {
  it.each(['router', 'nested'] as const)(
    'B’s %s: the member’s doc_parser is refused as for a missing file; A’s words reach neither the model nor B',
    async (which) => {
      const mine = await holders(b);
      script();
      const answer = await askAbout(mine.key, mine[which].id, aliceFile.ref);
      expect(answer.status, answer.text).toBe(200);
      expect(toolResults().length).toBeGreaterThan(0); // the member did call doc_parser
      expect(toolResults().join('\n')).toMatch(/no longer exists/);
      expect(sentToModel()).not.toContain(SECRET);
      expect(answer.text).not.toContain(SECRET);
    },
  );
});

describe('the same agents of A’s own, on A’s own upload (the probe sees a read)', () => {
  it.each(['router', 'nested'] as const)('A’s %s: the member reads it', async (which) => {
    const mine = await holders(a);
    script();
    const answer = await askAbout(mine.key, mine[which].id, aliceFile.ref);
    expect(answer.status, answer.text).toBe(200);
    expect(toolResults().join('\n')).toContain(SECRET);
  });
});
