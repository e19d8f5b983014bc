// The doc_parser and retrieval tools through runTool: files staged from the conversation, the pipeline, the trace
// event, and readable errors for the model.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clearIndexCache } from '../lib/documents/search';
import type { ToolContext, ToolEvent } from './base-tool';
import { DocParserTool } from './doc-parser';
import { ragSettings, RetrievalTool } from './retrieval';
import { runTool } from './run-tool';
import { allowLocalFileStaging } from './file-access';
import { toolSettings } from './settings';
import { loadConfig } from '../lib/config';

// These tests hand the tools files from a temporary folder, as the CLI does (the app only stages uploads).
beforeAll(() => allowLocalFileStaging(true));
afterAll(() => allowLocalFileStaging(false));

let tmp: string;
let handbook: string;
let menu: string;
let events: ToolEvent[];

beforeEach(async () => {
  clearIndexCache();
  tmp = await mkdtemp(path.join(os.tmpdir(), 'retrieval-'));
  handbook = path.join(tmp, 'handbook.md');
  menu = path.join(tmp, 'menu.txt');
  const filler = Array.from(
    { length: 60 },
    (_, i) => `Section ${i}: general office matters, routine administration, building access and meeting rooms.`,
  );
  filler.splice(41, 0, 'Sabbatical leave: after seven years of service staff may take a three-month sabbatical.');
  await writeFile(handbook, filler.join('\n\n'));
  await writeFile(menu, 'Monday: soup.\n\nTuesday: pasta.');
  events = [];
  return () => rm(tmp, { recursive: true, force: true });
});

function ctx(files: string[]): ToolContext {
  return {
    files,
    workDir: path.join(tmp, 'work'),
    lang: 'en',
    messages: [],
    emit: (e) => events.push(e),
  };
}

describe('retrieval tool', () => {
  it('returns the relevant passages of the named file and reports the search', async () => {
    const tool = new RetrievalTool({ max_ref_token: 200, parser_page_size: 100 });
    const r = await runTool(
      tool,
      JSON.stringify({ query: 'sabbatical, 休假', files: ['handbook.md'] }),
      ctx([handbook, menu]),
    );
    expect(r.ok).toBe(true);
    const out = JSON.parse(r.content as string) as { url: string; text: string[] }[];
    expect(out.map((d) => d.url)).toEqual(['handbook.md']);
    expect(out[0]!.text.join('\n')).toContain('Sabbatical leave: after seven years');
    expect(out[0]!.text[0]).toMatch(/^\[page: 1\]\n/);

    expect(events).toHaveLength(1);
    const e = events[0]!;
    expect(e.query).toBe('sabbatical, 休假');
    expect(e.terms).toContain('sabbat');
    expect(e.mode).toBe('ranked');
    expect(e.budgetTokens).toBe(200);
    expect(e.usedTokens).toBeLessThanOrEqual(200);
    const hit = e.candidates.find((c) => c.text.includes('Sabbatical leave'))!;
    expect(hit.used).toBe(true);
    expect(hit.score).toBeGreaterThan(0);
    expect(hit.fileName).toBe('handbook.md');
    expect(hit.page).toBe(1);
    expect(e.candidates.some((c) => !c.used)).toBe(true);
  });

  it('searches every file of the conversation when no file is named', async () => {
    const r = await runTool(new RetrievalTool(), JSON.stringify({ query: 'pasta', files: [] }), ctx([handbook, menu]));
    const out = JSON.parse(r.content as string) as { url: string }[];
    expect(out.map((d) => d.url).sort()).toEqual(['handbook.md', 'menu.txt']); // all fits the budget: everything
  });

  it("searches all of the conversation's files for a name that is none of them, and says so first", async () => {
    const r = await runTool(
      new RetrievalTool(),
      JSON.stringify({ query: 'sabbatical', files: ['/etc/passwd', 'handbook.md'] }),
      ctx([handbook, menu]),
    );
    expect(r.ok).toBe(true);
    const out = JSON.parse(r.content as string) as { notice?: string; url?: string; text?: string[] }[];
    expect(out[0]!.notice).toBe(
      '/etc/passwd: not a file of this conversation, so all of its files were searched instead: handbook.md, menu.txt.',
    );
    expect(out.slice(1).map((d) => d.url)).toEqual(['handbook.md', 'menu.txt']);
    expect(r.content).not.toContain('root:'); // nothing outside the conversation is read
    expect(events[0]!.candidates.map((c) => c.fileName)).toContain('menu.txt');
  });

  it('says it in Chinese for a Chinese conversation', async () => {
    const r = await runTool(new RetrievalTool(), JSON.stringify({ query: 'soup', files: ['菜单.txt'] }), {
      ...ctx([menu]),
      lang: 'zh',
    });
    const out = JSON.parse(r.content as string) as { notice?: string }[];
    expect(out[0]!.notice).toBe('菜单.txt：不是本对话的文件，因此改为检索了本对话的全部文件：menu.txt。');
  });

  it('refuses when the conversation has no file at all, saying so', async () => {
    const r = await runTool(new RetrievalTool(), JSON.stringify({ query: 'x', files: ['/etc/passwd'] }), ctx([]));
    expect(r.ok).toBe(false);
    expect(r.content).toContain('Not a file of this conversation: …/passwd');
    expect(r.content).toContain('No file was shared in this conversation.');
  });

  it('reports an unreadable file to the model and still searches the others', async () => {
    const empty = path.join(tmp, 'empty.txt');
    await writeFile(empty, '');
    const r = await runTool(new RetrievalTool(), JSON.stringify({ query: 'soup', files: [] }), ctx([menu, empty]));
    expect(r.ok).toBe(true);
    const out = JSON.parse(r.content as string) as { url?: string; error?: string }[];
    expect(out[0]!.url).toBe('menu.txt');
    expect(out[1]!.error).toContain('empty.txt is empty');
    expect(events[0]!.errors).toEqual([out[1]!.error]);
  });

  it('fails readably when the query or files are missing', async () => {
    const r = await runTool(new RetrievalTool(), JSON.stringify({ files: [] }), ctx([menu]));
    expect(r.ok).toBe(false);
    expect(r.content).toContain("missing required property 'query'");
  });
});

describe('doc_parser tool', () => {
  it("returns Qwen-Agent's record of chunks, each with its page marker and token count", async () => {
    const tool = new DocParserTool({ parser_page_size: 100 });
    const r = await runTool(tool, JSON.stringify({ url: 'handbook.md' }), ctx([handbook]));
    expect(r.ok).toBe(true);
    const record = JSON.parse(r.content as string) as {
      url: string;
      title: string;
      raw: { content: string; metadata: { source: string; title: string; chunk_id: number }; token: number }[];
    };
    expect(record.url).toBe('handbook.md');
    expect(record.raw.length).toBeGreaterThan(5);
    record.raw.forEach((c, i) => {
      expect(c.metadata).toEqual({ source: 'handbook.md', title: 'handbook.md', chunk_id: i });
      expect(c.content.startsWith('[page: 1]\n')).toBe(true);
      expect(c.token).toBeLessThanOrEqual(100);
    });
    expect(record.raw.map((c) => c.content).join('\n')).toContain('Sabbatical leave');
  });

  it('reads a file by its name as the upload note gave it: whole, as <name>, as the whole link, or percent-encoded', async () => {
    const odd = path.join(tmp, 'données été – 報告 (final) v2 #1 _.md');
    await writeFile(odd, 'The secret word is ornithopter.');
    for (const url of [
      'données été – 報告 (final) v2 #1 _.md',
      '<données été – 報告 (final) v2 #1 _.md>',
      '[file](<données été – 報告 (final) v2 #1 _.md>)',
      encodeURIComponent('données été – 報告 (final) v2 #1 _.md'),
    ]) {
      const r = await runTool(new DocParserTool(), JSON.stringify({ url }), ctx([handbook, odd]));
      expect(r.ok, url).toBe(true);
      expect(r.content).toContain('ornithopter');
    }
  });

  it('refuses a file that is not in the conversation, saying which files there are', async () => {
    const r = await runTool(new DocParserTool(), JSON.stringify({ url: '/etc/passwd' }), ctx([handbook]));
    expect(r.ok).toBe(false);
    expect(r.content).toContain('Not a file of this conversation: …/passwd');
    expect(r.content).toContain("The conversation's files: handbook.md");
  });

  it('gives the model the document error as text', async () => {
    const empty = path.join(tmp, 'blank.txt');
    await writeFile(empty, '');
    const r = await runTool(new DocParserTool(), JSON.stringify({ url: 'blank.txt' }), ctx([empty]));
    expect(r.ok).toBe(false);
    expect(r.content).toContain('DocumentError: blank.txt is empty (0 bytes).');
  });
});

describe('ragSettings: rag_searchers and the embedding model', () => {
  const saved = { ...process.env };
  /** The settings of the environment as the test leaves it, made as a composition root makes them. */
  const env = () => toolSettings(loadConfig());
  afterAll(() => {
    process.env = { ...saved };
  });

  it('takes upstream’s default searchers, the agent’s own list, and RAG_SEARCHERS for agents that set none', () => {
    delete process.env.RAG_SEARCHERS;
    delete process.env.QWEN_AGENT_DEFAULT_RAG_SEARCHERS;
    delete process.env.RAG_EMBEDDING_MODEL;
    expect(ragSettings({}, env()).searchers).toEqual(['keyword_search', 'front_page_search']);
    expect(ragSettings({}, env()).embeddingModel).toBeUndefined();
    expect(ragSettings({ rag_searchers: ['hybrid_search', 'front_page_search'] }, env()).searchers).toEqual([
      'hybrid_search',
      'front_page_search',
    ]);
    process.env.RAG_SEARCHERS = ' vector_search , front_page_search ';
    process.env.RAG_EMBEDDING_MODEL = 'text-embedding-3-small';
    expect(ragSettings({}, env())).toMatchObject({
      searchers: ['vector_search', 'front_page_search'],
      embeddingModel: 'text-embedding-3-small',
    });
    expect(ragSettings({ embedding_model: 'bge-m3' }, env()).embeddingModel).toBe('bge-m3');
    delete process.env.RAG_SEARCHERS;
    process.env.QWEN_AGENT_DEFAULT_RAG_SEARCHERS = "['hybrid_search', 'front_page_search']";
    expect(ragSettings({}, env()).searchers).toEqual(['hybrid_search', 'front_page_search']);
  });

  it('refuses a searcher it does not know, naming the ones it does', () => {
    expect(() => ragSettings({ rag_searchers: ['keyword_search', 'semantic_search'] }, env())).toThrow(
      'rag_searchers: "semantic_search" is not a searcher. The searchers are "keyword_search", "front_page_search", "vector_search", "hybrid_search".',
    );
    expect(() => ragSettings({ rag_searchers: [] }, env())).toThrow(/rag_searchers is empty/);
  });
});
