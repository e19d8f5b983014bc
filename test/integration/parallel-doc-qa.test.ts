// ParallelDocQA over real HTTP against the scripted model server, on a PDF far longer than the model's input: every
// chunk reaches a reader (one request each, within the concurrency bound), the readers' answers in upstream's JSON
// (and malformed ones) are read, the keyword call gets the findings, and the summary's request holds each finding
// with its page; the run's messages are the answer alone, and its trace has a nested run per chunk group.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ParallelDocQA, ParallelDocQAMember, ParallelDocQASummary } from '../../lib/agent';
import { chunkSize } from '../../lib/agent/doc-qa/parallel-doc-qa';
import { indexFile } from '../../lib/documents/search';
import { createChatModel } from '../../lib/llm';
import type { ScriptedReply } from '../../lib/protocol/fixture';
import { messageText, type RecordedRequest } from '../../scripts/model-server/script';
import { toolSettings } from '../../tools';
import { loadConfig } from '../../lib/config';
import { makePdf, textPage } from '../support/pdf-writer';
import { localDocumentsForEachTest } from '../support/local-documents';
import { collectEvents, ofType } from '../support/run';

const MAX_INPUT = 900;
const QUESTION = 'What is the vault code, and who keeps the spare key?';

let manual: string;

const env = localDocumentsForEachTest('pdqa-');
beforeEach(async () => {
  manual = path.join(env.dir, 'manual.pdf');
  const pages = Array.from({ length: 80 }, (_, i) => {
    const n = i + 1;
    const facts: string[] = [];
    if (n === 23) facts.push('The vault code is 4417; change it every spring.');
    if (n === 31) facts.push('Spare key: the night porter keeps the spare key of the vault.');
    return textPage(`Chapter ${n}`, [
      `Page ${n} marker. This page describes routine building operations, cleaning rotas and the delivery schedule for the north wing.`,
      `Visitors sign in at the front desk, and page ${n} lists the rooms that are open on weekdays and weekends alike.`,
      `Heating, lighting and the lifts are serviced by contractors, whose visits are logged in the facilities book.`,
      ...facts,
    ]);
  });
  await writeFile(manual, makePdf(pages));
});

const model = (extra: { maxRetries?: number } = {}) =>
  createChatModel({
    model: 'scripted',
    baseURL: env.server.url,
    apiKey: 'k',
    maxInputTokens: MAX_INPUT,
    maxRetries: extra.maxRetries ?? 0,
  });

const lastUser = (r: RecordedRequest) =>
  messageText(r.body.messages.filter((m: { role: string }) => m.role === 'user').at(-1)?.content);
const systemOf = (r: RecordedRequest) =>
  messageText(r.body.messages.find((m: { role: string }) => m.role === 'system')?.content);
const isReader = (r: RecordedRequest) => lastUser(r).startsWith('# Document:');
const isKeygen = (r: RecordedRequest) => lastUser(r).trimEnd().endsWith('Keywords:');
const isSummary = (r: RecordedRequest) => lastUser(r).startsWith('# Question');

/** Readers answer from their excerpt as a model would; the keyword call and the summary answer as scripted. A
 *  reader waits (up to a moment) for others to be in flight, so that parallel reading shows in the count. */
function responder(opts: { inFlightTarget: number; readerReply?: (excerpt: string) => ScriptedReply | undefined }) {
  let inFlight = 0;
  const seen = { maxInFlight: 0 };
  const reply = async (req: RecordedRequest): Promise<ScriptedReply> => {
    if (isKeygen(req))
      return { content: '{"keywords_zh": ["密码", "钥匙"], "keywords_en": ["vault", "code", "spare key"]}' };
    if (isSummary(req))
      return { content: 'The vault code is 4417 [page: 23]; the night porter keeps the spare key [page: 31].' };
    if (!isReader(req)) return { content: 'unexpected request' };
    inFlight++;
    seen.maxInFlight = Math.max(seen.maxInFlight, inFlight);
    for (let waited = 0; inFlight < opts.inFlightTarget && waited < 100; waited += 5)
      await new Promise((r) => setTimeout(r, 5));
    inFlight--;
    const excerpt = lastUser(req);
    const custom = opts.readerReply?.(excerpt);
    if (custom) return custom;
    if (excerpt.includes('vault code is 4417'))
      return { content: '{"res": "ans", "content": "The vault code is 4417."}\nObservation: done' };
    if (excerpt.includes('Spare key: the night porter'))
      return { content: '```json\n{"res": "ans", "content": "The night porter keeps the spare key."}\n```' };
    return { content: '{"res": "none", "content": "<None>"}' };
  };
  return { reply, seen };
}

describe('ParallelDocQA', () => {
  it('reads every chunk of a document longer than the input, within the concurrency, and cites the pages found', async () => {
    // Readers wait (a moment) for six to be in flight: never more than three are, and three are.
    const { reply, seen } = responder({ inFlightTarget: 6 });
    env.server.setScenario(reply);
    const agent = new ParallelDocQA({ llm: model(), concurrency: 3 });
    const events = await collectEvents(
      agent.runEvents([{ role: 'user', content: [{ file: manual }, { text: QUESTION }] }]),
    );
    const end = ofType(events, 'run-end')[0]!;
    expect(end.reason, JSON.stringify(end.error)).toBe('answered');

    // The document is far longer than the model's input, and is read in chunks that fit it.
    const size = chunkSize(MAX_INPUT, QUESTION, 'en');
    const doc = await indexFile(manual, size);
    expect(doc.totalTokens).toBeGreaterThan(MAX_INPUT * 5);
    expect(doc.chunks.length).toBeGreaterThan(10);
    const readers = env.server.requests.filter(isReader);
    expect(readers).toHaveLength(doc.chunks.length);
    for (const chunk of doc.chunks) expect(readers.some((r) => lastUser(r).includes(chunk.content))).toBe(true);
    for (const r of readers) {
      expect(r.body.stop).toEqual(['Observation:', 'Observation:\n']);
      expect(systemOf(r)).toContain('{"res": "none", "content": "<None>"}');
      expect(lastUser(r)).toContain(`# Question:\n${QUESTION}`);
    }
    // Bounded, and parallel.
    expect(seen.maxInFlight).toBe(3);

    // The keyword call is asked about the question and what the readers found.
    const keygen = env.server.requests.filter(isKeygen);
    expect(keygen).toHaveLength(1);
    expect(lastUser(keygen[0]!)).toContain(
      `Question: ${QUESTION}\n\nThe vault code is 4417.\n\nThe night porter keeps the spare key.`,
    );

    // The summary comes last, with each finding marked with its page and the passages the keyword search found.
    const summary = env.server.requests.at(-1)!;
    expect(isSummary(summary)).toBe(true);
    const system = systemOf(summary);
    expect(system).toContain('## What the readers found in [file](manual.pdf):');
    // Every chunk holding a fact was cited by its pages (a fact in the overlap of two chunks by both).
    const pages = (c: { page: number; lastPage: number }) =>
      `[page: ${c.page === c.lastPage ? c.page : `${c.page}–${c.lastPage}`}]`;
    const holding = (fact: string) => doc.chunks.filter((c) => c.content.includes(fact));
    expect(holding('vault code is 4417').length).toBeGreaterThan(0);
    for (const c of holding('vault code is 4417')) expect(system).toContain(`${pages(c)} The vault code is 4417.`);
    for (const c of holding('Spare key: the night porter'))
      expect(system).toContain(`${pages(c)} The night porter keeps the spare key.`);
    expect(system.match(/^\[page: .*\] The /gm)).toHaveLength(
      holding('vault code is 4417').length + holding('Spare key: the night porter').length,
    );
    expect(system).toContain('## The content from [file](manual.pdf):');
    expect(system).toContain('Spare key: the night porter keeps the spare key of the vault.');
    expect(lastUser(summary)).toContain(`# Question\n${QUESTION}`);
    const [retrieval] = ofType(events, 'retrieval');
    expect(retrieval!.query).toContain('"keywords_en": ["vault", "code", "spare key"]');
    expect(retrieval!.budgetTokens).toBeLessThanOrEqual(4500);
    expect(retrieval!.candidates.some((c) => c.used && c.text.includes('vault code is 4417'))).toBe(true);

    // Progress counts every chunk of the document.
    const progress = ofType(events, 'progress');
    expect(progress[0]).toMatchObject({ document: 'manual.pdf', done: 0, total: doc.chunks.length });
    expect(progress.at(-1)).toMatchObject({ done: doc.chunks.length, total: doc.chunks.length });
    expect(progress.map((p) => p.done)).toEqual(Array.from({ length: doc.chunks.length + 1 }, (_, i) => i));

    // One nested run per chunk group, aside; each reads its chunks one model call each.
    const children = new Map<string, { agent: string; aside?: true; calls: number }>();
    for (const e of ofType(events, 'child')) {
      const entry = children.get(e.event.runId) ?? {
        agent: e.agent,
        ...(e.aside ? { aside: true as const } : {}),
        calls: 0,
      };
      if (e.event.type === 'llm-start') entry.calls++;
      children.set(e.event.runId, entry);
    }
    const groups = [...children.values()].filter((c) => c.agent.startsWith('Reader '));
    expect(groups.length).toBeGreaterThan(1);
    expect(groups.every((g) => g.aside)).toBe(true);
    expect(groups.reduce((n, g) => n + g.calls, 0)).toBe(doc.chunks.length);
    expect(groups[0]!.agent).toMatch(/^Reader 1: manual\.pdf, chunks 1–\d+ \(pages 1–\d+\)$/);
    expect([...children.values()].find((c) => c.agent === 'GenKeyword')?.aside).toBe(true);
  });

  it('answers with the summary alone: the readers and the keyword call are not among the messages', async () => {
    env.server.setScenario(responder({ inFlightTarget: 1 }).reply);
    // The shape callers use: the default concurrency, the question before the file.
    const messages = await new ParallelDocQA({ llm: model() }).runNonStream([
      { role: 'user', content: [{ text: QUESTION }, { file: manual }] },
    ]);
    const doc = await indexFile(manual, chunkSize(MAX_INPUT, QUESTION, 'en'));
    expect(env.server.requests.filter(isReader)).toHaveLength(doc.chunks.length);
    expect(messages).toEqual([
      {
        role: 'assistant',
        content: 'The vault code is 4417 [page: 23]; the night porter keeps the spare key [page: 31].',
        name: 'ParallelDocQA',
      },
    ]);
  });

  it('takes its bound from PARALLEL_DOC_QA_CONCURRENCY when none is given', async () => {
    const { reply, seen } = responder({ inFlightTarget: 5 });
    env.server.setScenario(reply);
    // The configuration's, as a composition root hands it to the agent (the manual is a local path, as the CLI's).
    const settings = { ...toolSettings(loadConfig({ PARALLEL_DOC_QA_CONCURRENCY: '2' })), allowLocalPaths: true };
    const agent = new ParallelDocQA({ llm: model(), toolSettings: settings });
    expect(agent.concurrency).toBe(2);
    await agent.runNonStream([{ role: 'user', content: [{ text: QUESTION }, { file: manual }] }]);
    // Readers wait for five to be in flight; never more than two are.
    expect(seen.maxInFlight).toBe(2);
  });

  it('reads malformed reader output without failing: prose, half JSON, and "none" in other words', async () => {
    const odd = (excerpt: string): ScriptedReply | undefined => {
      if (excerpt.includes('Page 3 marker')) return { content: 'I am afraid this part says nothing about it. <NONE>' };
      if (excerpt.includes('Page 9 marker')) return { content: '{"res": "none"}' };
      if (excerpt.includes('vault code is 4417'))
        return { content: '{"res": "ans", "content": "Code 4417, from page 23' };
      if (excerpt.includes('Spare key: the night porter')) return { content: 'The porter has the spare key.' };
      if (excerpt.includes('Page 5 marker')) return { content: '' };
      return undefined;
    };
    env.server.setScenario(responder({ inFlightTarget: 1, readerReply: odd }).reply);
    const events = await collectEvents(
      new ParallelDocQA({ llm: model(), concurrency: 2 }).runEvents([
        { role: 'user', content: [{ file: manual }, { text: QUESTION }] },
      ]),
    );
    expect(ofType(events, 'run-end')[0]!.reason).toBe('answered');
    const system = systemOf(env.server.requests.filter(isSummary)[0]!);
    const found = system.slice(system.indexOf('## What the readers found'), system.indexOf('## The content from'));
    expect(found).toContain('] Code 4417, from page 23');
    expect(found).toContain('] The porter has the spare key.');
    expect(found).not.toContain('afraid');
    expect(found).not.toContain('res');
    expect(found.match(/\[page: /g)).toHaveLength(2);
  });

  it('ends with a clear error naming the reader whose model call failed, and stops the others', async () => {
    let readers = 0;
    env.server.setScenario((req) => {
      if (!isReader(req)) return { content: 'x' };
      readers++;
      return readers === 2
        ? { fault: { kind: 'status', status: 500, body: { error: { message: 'the GPU fell over' } } } }
        : { content: '{"res": "none", "content": "<None>"}', ttftMs: 20 };
    });
    const events = await collectEvents(
      new ParallelDocQA({ llm: model(), concurrency: 2 }).runEvents([
        { role: 'user', content: [{ file: manual }, { text: QUESTION }] },
      ]),
    );
    const end = ofType(events, 'run-end')[0]!;
    expect(end.reason).toBe('error');
    expect(end.error!.message).toMatch(/^Reader \d+: manual\.pdf, chunks? .*: .*GPU fell over/);
    const doc = await indexFile(manual, chunkSize(MAX_INPUT, QUESTION, 'en'));
    expect(env.server.requests.filter(isReader).length).toBeLessThan(doc.chunks.length);
    expect(env.server.requests.some((r) => isKeygen(r) || isSummary(r))).toBe(false);
  });

  it('says clearly when there is no document to read, or the input is too small for the question', async () => {
    env.server.setScenario({ fallback: { content: 'x' } });
    const none = await collectEvents(
      new ParallelDocQA({ llm: model() }).runEvents([{ role: 'user', content: QUESTION }]),
    );
    expect(ofType(none, 'run-end')[0]!.error!.message).toMatch(
      /reads the conversation's documents, and there are none/,
    );
    const tiny = createChatModel({ model: 'scripted', baseURL: env.server.url, apiKey: 'k', maxInputTokens: 300 });
    const small = await collectEvents(
      new ParallelDocQA({ llm: tiny }).runEvents([{ role: 'user', content: [{ file: manual }, { text: QUESTION }] }]),
    );
    expect(ofType(small, 'run-end')[0]!.error!.message).toMatch(/max_input_tokens 300\) is too small to read/);
    expect(env.server.requests).toHaveLength(0);
    expect(() => new ParallelDocQA({ llm: model(), concurrency: 0 })).toThrow(/at least 1/);
  });
});

describe('ParallelDocQA steps on their own', () => {
  it('a member reads each excerpt it is given, one call each, answering in upstream JSON', async () => {
    env.server.setScenario({
      replies: [{ content: '{"res": "ans", "content": "42"}' }, { content: '{"res": "none", "content": "<None>"}' }],
    });
    const messages = await new ParallelDocQAMember({
      llm: model(),
      chunks: ['The answer is 42.', 'Nothing here.'],
    }).runNonStream([{ role: 'user', content: 'What is the answer?' }]);
    expect(messages.map((m) => m.content)).toEqual([
      '{"res": "ans", "content": "42"}',
      '{"res": "none", "content": "<None>"}',
    ]);
    expect(env.server.requests.map(lastUser)).toEqual([
      '# Document:\nThe answer is 42.\n\n# Question:\nWhat is the answer?\n\nAnswer following the rules:',
      '# Document:\nNothing here.\n\n# Question:\nWhat is the answer?\n\nAnswer following the rules:',
    ]);
  });

  it('the summary answers from the knowledge it is given (or the run’s knowledge option)', async () => {
    env.server.setScenario({ fallback: { content: 'Blue [page: 2].' } });
    await new ParallelDocQASummary({ llm: model() }).runNonStream([{ role: 'user', content: 'What colour?' }], {
      knowledge: '# Knowledge Base\n\n[page: 2] The door is blue.',
    });
    const [req] = env.server.requests;
    expect(systemOf(req!)).toMatch(/Cite the page .*\n\n# Knowledge Base\n\n\[page: 2\] The door is blue\.$/s);
    expect(lastUser(req!)).toMatch(/^# Question\nWhat colour\?\n/);
  });
});
