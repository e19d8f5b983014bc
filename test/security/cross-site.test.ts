// Finding: any web page the user visits could run code in their interpreter with a cross-site "simple" request
// (text/plain, Origin of another site) to POST /api/chat, and store files through POST /api/files (or a model file
// through POST /api/local-models). Each such request is now refused before anything runs: the model server receives
// nothing and nothing is written.
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTinyModel } from '../../scripts/tiny-gguf/tiny-model';
import { countRows, filesUnder, request, startApp, type App } from './support/app';

let app: App;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app?.stop());
beforeEach(() => {
  app.model.reset();
  app.model.setScenario({
    rules: [
      {
        when: { lastUserIncludes: 'write the file' },
        reply: [
          {
            toolCalls: [
              { name: 'code_interpreter', arguments: JSON.stringify({ code: 'open("pwned.txt", "w").write("x")' }) },
            ],
          },
          { content: 'Done.' },
        ],
      },
    ],
    fallback: 'echo',
  });
});

const chatBody = JSON.stringify({ message: 'Please write the file.', tools: ['code_interpreter'] });

describe('a cross-site request is refused and runs nothing', () => {
  it('POST /api/chat, text/plain from another origin: 403, no model request, no file, no conversation', async () => {
    const res = await request(app.url, '/api/chat', {
      headers: { 'content-type': 'text/plain', origin: 'http://evil.example' },
      body: chatBody,
    });
    expect(res.status).toBe(403);
    expect(res.json().error?.message).toBe(
      "Refused: it was sent by the page at http://evil.example, not by this app's own page. Nothing was run.",
    );
    expect(app.model.requests).toHaveLength(0);
    expect(filesUnder(path.join(app.dataDir, 'work'))).toEqual([]);
    expect(countRows(app, 'conversations')).toBe(0);
  });

  it('the same request from the app’s own page runs (the check above is what stopped it)', async () => {
    const res = await request(app.url, '/api/chat', {
      headers: { 'content-type': 'text/plain', origin: app.url },
      body: chatBody,
    });
    expect(res.status).toBe(200);
    expect(res.text).toContain('"reason":"answered"');
    expect(app.model.requests.length).toBeGreaterThan(0);
    expect(filesUnder(path.join(app.dataDir, 'work')).some((f) => f.endsWith('pwned.txt'))).toBe(true);
  }, 120_000);

  it('POST /api/files from another origin: 403, nothing stored or parsed', async () => {
    const before = filesUnder(path.join(app.dataDir, 'files'));
    const docs = countRows(app, 'documents');
    const res = await request(app.url, '/api/files?name=notes.txt', {
      headers: { 'content-type': 'text/plain', origin: 'http://evil.example' },
      body: 'cross-site upload',
    });
    expect(res.status).toBe(403);
    expect(filesUnder(path.join(app.dataDir, 'files'))).toEqual(before);
    expect(countRows(app, 'documents')).toBe(docs);
  });

  it('POST /api/local-models from another origin: 403, no model file written; from the app’s own page: kept', async () => {
    const bytes = Buffer.from(buildTinyModel().bytes);
    const gguf = () =>
      (async function* () {
        yield bytes;
      })();
    const models = path.join(app.dataDir, 'models');
    const res = await request(app.url, '/api/local-models?name=evil.gguf', {
      headers: { 'content-type': 'application/octet-stream', origin: 'http://evil.example' },
      body: gguf(),
    });
    expect(res.status).toBe(403);
    expect(filesUnder(models)).toEqual([]);
    // A rebinding Host is refused the same way.
    const rebound = await request(app.url, '/api/local-models?name=evil.gguf', {
      headers: { host: 'evil.example', 'content-type': 'application/octet-stream' },
      body: gguf(),
    });
    expect(rebound.status).toBe(403);
    expect(filesUnder(models)).toEqual([]);
    const own = await request(app.url, '/api/local-models?name=own.gguf', {
      headers: { 'content-type': 'application/octet-stream', origin: app.url },
      body: gguf(),
    });
    expect(own.status).toBe(201);
    expect(filesUnder(models).map((f) => path.basename(f))).toEqual(['own.gguf']);
  });

  it('refuses an opaque origin ("null") and, without Origin, a cross-site Sec-Fetch-Site', async () => {
    const cases: Record<string, string>[] = [
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ];
    for (const headers of cases) {
      const res = await request(app.url, '/api/chat', {
        headers: { 'content-type': 'text/plain', ...headers },
        body: chatBody,
      });
      expect(res.status, JSON.stringify(headers)).toBe(403);
    }
    const del = await request(app.url, '/api/files/some-id', {
      method: 'DELETE',
      headers: { origin: 'http://evil.example' },
    });
    expect(del.status).toBe(403);
    expect(app.model.requests).toHaveLength(0);
  });

  it('another site may link to the app but not load its data (Sec-Fetch-Site on reads)', async () => {
    const embed = await request(app.url, '/api/health', {
      headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' },
    });
    expect(embed.status).toBe(403);
    const link = await request(app.url, '/', {
      headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', accept: 'text/html' },
    });
    expect(link.status).toBe(200);
  });
});
