// Documents just work (lib/chat/document-tools.ts): a conversation with documents offers the document tools to the
// agent its settings pick, with the default settings, through the chat service and agent factory as the app builds
// them, a real SQLite file, real uploads and parses, and the scripted model server. A retrieval call naming a file
// that is not attached searches all of the conversation's documents and says so in the result the model reads.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChatService } from '../../lib/chat/service';
import { loadConfig } from '../../lib/config';
import type { AgentEvent } from '../../lib/protocol/events';
import { createAppContext } from '../../lib/server/context';
import { everyToolActor } from '../../lib/chat/actor';
import { ownerScope } from '../../lib/store/owner';
import { openSqliteStore } from '../../lib/store';
import type { ChatStore, ConversationSettings } from '../../lib/store/types';
import { handleUpload } from '../../lib/uploads/http';
import type { DocumentService } from '../../lib/uploads/service';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { drain, follow } from '../support/chat';
import { makeImage } from '../support/images';
import { makePdf, textPage } from '../support/pdf-writer';
import { fromMarkdown } from 'mdast-util-from-markdown';

const OWNER = ownerScope('owner-a');
const ACTOR = everyToolActor(OWNER);
const REVENUE = 'Q3 revenue rose to 4.2 million euros, up 12 percent on the second quarter.';

let server: ModelServer;
let dataDir: string;
let savedDataDir: string | undefined;
let store: ChatStore;
let uploads: DocumentService;
let chat: ChatService;

beforeAll(async () => {
  server = await createModelServer();
});
afterAll(() => server.close());

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'docs-just-work-'));
  // File-aware tools find the uploads under the process's DATA_DIR, as in the app.
  savedDataDir = process.env.DATA_DIR;
  process.env.DATA_DIR = dataDir;
  store = await openSqliteStore(path.join(dataDir, 'agent-studio.db'));
  const env = {
    DATA_DIR: dataDir,
    OPENAI_BASE_URL: server.url,
    OPENAI_API_KEY: 'k',
    OPENAI_MODEL: 'scripted',
    LLM_MAX_RETRIES: '0',
  };
  const ctx = await createAppContext(loadConfig(env), store);
  uploads = ctx.uploads;
  chat = ctx.chat;
  server.reset();
});
afterEach(async () => {
  await store.close();
  if (savedDataDir === undefined) delete process.env.DATA_DIR;
  else process.env.DATA_DIR = savedDataDir;
  await rm(dataDir, { recursive: true, force: true });
});

async function upload(name: string, bytes: Buffer, conversationId?: string) {
  const query = new URLSearchParams({ name, ...(conversationId ? { conversationId } : {}) });
  const res = await handleUpload(
    uploads,
    OWNER,
    new Request(`http://app/api/files?${query}`, { method: 'POST', body: new Uint8Array(bytes) }),
  );
  const body = (await res.json()) as { document: { id: string; ref: string }; conversationId: string };
  await uploads.settled(OWNER, body.document.id);
  return body;
}

/** A conversation holding report.pdf (revenue on page 2) and notes.md. */
async function conversationWithDocuments(settings?: Partial<ConversationSettings>): Promise<string> {
  const report = makePdf([
    textPage('Annual report', ['The company had a steady year.']),
    textPage('Results', [REVENUE]),
  ]);
  const { conversationId } = await upload('report.pdf', report);
  await upload('notes.md', Buffer.from('# Notes\n\nThe picnic is on Friday.'), conversationId);
  if (settings) await store.updateSettings(OWNER, conversationId, settings);
  return conversationId;
}

const completions = () => server.requests.filter((r) => r.path === '/v1/chat/completions');
const toolNames = (i: number): string[] =>
  ((completions()[i]!.body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);

function retrievalCall(files: string[]) {
  return { toolCalls: [{ name: 'retrieval', arguments: JSON.stringify({ query: 'Q3 revenue', files }) }] };
}

async function run(started: { runId: string }): Promise<AgentEvent[]> {
  return drain(follow(chat, OWNER, started.runId));
}

describe('documents just work', () => {
  it('offers retrieval and doc_parser to the default agent once the conversation has documents', async () => {
    server.setScenario({ replies: [{ content: 'Hello.' }, retrievalCall(['report.pdf']), { content: 'Done.' }] });
    const before = await chat.send(ACTOR, { message: 'Hi' }); // no documents: the default tools only
    await run(before);
    expect(toolNames(0)).toEqual(['calculator', 'current_time']);

    const id = await conversationWithDocuments();
    const events = await run(
      await chat.send(ACTOR, { conversationId: id, message: 'What does it say about Q3 revenue?' }),
    );
    expect(toolNames(1)).toEqual(['calculator', 'current_time', 'retrieval', 'doc_parser']);
    expect((await store.getConversation(OWNER, id))!.settings.tools).toEqual(['calculator', 'current_time']); // not stored
    // The model is told which documents exist, as before.
    expect(JSON.stringify(completions()[1]!.body.messages.at(-1))).toContain('[file](report.pdf)');
    const result = events.find((e) => e.type === 'tool-result');
    expect(result).toMatchObject({ name: 'retrieval', ok: true });
    expect(JSON.stringify(result)).toContain('Q3 revenue rose to 4.2 million euros');
    // The report fits in one passage, over both of its pages: the trace says so.
    const retrieval = events.find((e) => e.type === 'retrieval');
    expect(retrieval?.type === 'retrieval' && retrieval.candidates[0]).toMatchObject({
      fileName: 'report.pdf',
      page: 1,
      lastPage: 2,
    });
  });

  it('searches all documents for a retrieval of a file that is not attached, and says so in the result', async () => {
    const id = await conversationWithDocuments();
    server.setScenario({ replies: [retrievalCall(['q3-summary.pdf']), { content: 'Q3 revenue was 4.2 million.' }] });
    await run(
      await chat.send(ACTOR, { conversationId: id, message: 'What does q3-summary.pdf say about Q3 revenue?' }),
    );
    const toolMessage = (completions()[1]!.body.messages as { role: string; content: string }[]).find(
      (m) => m.role === 'tool',
    )!;
    expect(toolMessage.content).toContain(
      'q3-summary.pdf: not a file of this conversation, so all of its files were searched instead: ',
    );
    expect(toolMessage.content).toMatch(/searched instead: (report\.pdf, notes\.md|notes\.md, report\.pdf)\./);
    expect(toolMessage.content).toContain(REVENUE);
  });

  it('offers them to ReActChat too, and again on regenerate', async () => {
    const id = await conversationWithDocuments({ agent: 'react' });
    server.setScenario({ fallback: { content: 'Thought: I know.\nFinal Answer: Fine.' } });
    const first = await chat.send(ACTOR, { conversationId: id, message: 'Anything about revenue?' });
    await run(first);
    await run(await chat.regenerate(ACTOR, first.turnId));
    for (const request of completions()) {
      const prompt = JSON.stringify(request.body.messages);
      expect(prompt).toContain('retrieval');
      expect(prompt).toContain('doc_parser');
    }
  });

  it('respects document tools turned off, and leaves the Assistant its own knowledge injection', async () => {
    server.setScenario({ fallback: { content: 'Fine.' } });
    const off = await conversationWithDocuments({ documentTools: 'off' });
    await run(await chat.send(ACTOR, { conversationId: off, message: 'Revenue?' }));
    expect(toolNames(0)).toEqual(['calculator', 'current_time']);

    const ticked = await conversationWithDocuments({ documentTools: 'off', tools: ['retrieval'] });
    await run(await chat.send(ACTOR, { conversationId: ticked, message: 'Revenue?' }));
    expect(toolNames(1)).toEqual(['retrieval']); // a tool ticked by hand stays offered

    const assistant = await conversationWithDocuments({ agent: 'assistant' });
    await run(await chat.send(ACTOR, { conversationId: assistant, message: 'Q3 revenue?' }));
    expect(toolNames(2)).toEqual(['calculator', 'current_time']);
    expect(JSON.stringify(completions()[2]!.body.messages[0])).toContain('# Knowledge Base');
  });

  it('counts files a message brings over POST /api/chat as documents', async () => {
    const report = makePdf([textPage('Results', [REVENUE])]);
    const { document } = await upload('report.pdf', report);
    server.setScenario({ fallback: { content: 'Fine.' } });
    await run(await chat.send(ACTOR, { message: 'Q3 revenue?', files: [document.ref] }));
    expect(toolNames(0)).toEqual(['calculator', 'current_time', 'retrieval', 'doc_parser']);
    await expect(chat.send(ACTOR, { message: 'x', settings: { documentTools: 'never' as 'off' } })).rejects.toThrow(
      '"documentTools" must be "auto" or "off"',
    );
  });
});

/** The link targets of a markdown text, as a CommonMark reader takes them (the file names a model is told). */
function linkTargets(markdown: string): string[] {
  const out: string[] = [];
  const walk = (node: { type: string; url?: string; children?: unknown[] }) => {
    if (node.type === 'link' || node.type === 'image') out.push(node.url!);
    for (const child of node.children ?? []) walk(child as typeof node);
  };
  walk(fromMarkdown(markdown));
  return out;
}

describe('file names', () => {
  // Stored names (the upload turns "?" into "_"), each with a word only its own document holds.
  const NAMES: [string, string, string][] = [
    ['données été – 報告 (final) v2 #1 ?.md', 'données été – 報告 (final) v2 #1 _.md', 'ornithopter'],
    ['Invoice #42.md', 'Invoice #42.md', 'quetzal'],
    ['minutes [draft] (2).md', 'minutes [draft] (2).md', 'marzipan'],
    ['季度 报告.md', '季度 报告.md', 'zeppelin'],
    ['plain.md', 'plain.md', 'aardvark'],
  ];

  it('tells the model each uploaded name whole, and doc_parser reads the file by the name it was told', async () => {
    let id: string | undefined;
    for (const [name, , word] of NAMES)
      id = (await upload(name, Buffer.from(`# Note\n\nThe word is ${word}.`), id)).conversationId;
    server.setScenario({ fallback: { content: 'Noted.' } });
    await run(await chat.send(ACTOR, { conversationId: id, message: 'Here are my notes.' }));
    const note = (completions()[0]!.body.messages.at(-1) as { content: string }).content;
    const told = linkTargets(note);
    expect(told).toEqual(NAMES.map(([, stored]) => stored));
    expect(note).toMatch(/\[(file|文件)\]\(plain\.md\)/); // a plain name is written as upstream writes it
    // As a model passes a name back: what the reader took, or the link target as the note wrote it.
    const written = [...note.matchAll(/\[(?:file|文件)\]\((<(?:\\.|[^>])*>|[^)\s]*)\)/g)].map((m) => m[1]!);
    expect(written).toHaveLength(NAMES.length);
    const urls = [...told, ...written];
    server.setScenario({
      replies: [
        { toolCalls: urls.map((url) => ({ name: 'doc_parser', arguments: JSON.stringify({ url }) })) },
        { content: 'Done.' },
      ],
    });
    const events = await run(await chat.send(ACTOR, { conversationId: id, message: 'Read each of them.' }));
    const results = events.filter((e) => e.type === 'tool-result');
    expect(results).toHaveLength(urls.length);
    results.forEach((r, i) => {
      expect(r).toMatchObject({ name: 'doc_parser', ok: true });
      expect(JSON.stringify(r)).toContain(`The word is ${NAMES[i % NAMES.length]![2]}.`);
    });
  });

  it('retrieval over all files leaves an uploaded image out: it is no document, so it is not reported unreadable', async () => {
    const id = await conversationWithDocuments();
    await upload('chart.png', Buffer.from(await makeImage('png')), id);
    server.setScenario({ replies: [retrievalCall([]), { content: 'Q3 revenue was 4.2 million.' }] });
    const events = await run(await chat.send(ACTOR, { conversationId: id, message: 'What about Q3 revenue?' }));
    const retrieval = events.find((e) => e.type === 'retrieval')!;
    expect(retrieval).toMatchObject({ type: 'retrieval', by: 'tool' });
    expect(JSON.stringify(retrieval)).not.toContain('chart.png');
    expect(new Set(retrieval.type === 'retrieval' ? retrieval.candidates.map((c) => c.fileName) : [])).toEqual(
      new Set(['report.pdf', 'notes.md']),
    );
    const toolMessage = (completions()[0 + 1]!.body.messages as { role: string; content: string }[]).find(
      (m) => m.role === 'tool',
    )!;
    expect(toolMessage.content).toContain(REVENUE);
    expect(toolMessage.content).not.toContain('chart.png');
    // Named by the model, the image is still refused as no document.
    server.setScenario({ replies: [retrievalCall(['chart.png']), { content: 'No.' }] });
    const named = await run(await chat.send(ACTOR, { conversationId: id, message: 'And the chart?' }));
    expect(JSON.stringify(named.find((e) => e.type === 'tool-result'))).toContain('chart.png is a PNG image');
  });
});
