// ParallelDocQA: Qwen-Agent's long-document QA. A question over documents far longer than the model's input is
// answered in three steps:
// 1. read: every document is cut into chunks (up to 1000 tokens, fewer when the model's max_input_tokens needs it)
//    and every chunk is read by a reader (ParallelDocQAMember) that says in JSON whether it answers the question; the
//    readers run side by side, at most `concurrency` model calls at once, each reader run taking a group of
//    consecutive chunks (one nested run per group in the trace); a `progress` event per document counts the chunks;
// 2. find: a keyword call (GenKeyword, a child run aside) on the question and what the readers found, and a keyword
//    search of the documents cut into 300-token chunks within a 4500-token budget (a retrieval event); nothing found
//    by any reader leaves the search to the question (upstream reads everything again, up to four times, first);
// 3. answer: ParallelDocQASummary's call, the run's own, from the readers' findings (each marked with its pages) and
//    the passages found, citing pages.
import { parseOptions } from '../../../tools/retrieval';
import type { IndexedDocument } from '../../documents/search';
import { pyJsonDumps } from '../../llm/fncall/json-slice';
import { contentText, type Lang, type Message } from '../../llm/schema';
import { countTokens } from '../../llm/tokens';
import type { AgentKind, StopReason } from '../../protocol/enums';
import { Agent, type AgentOptions } from '../agent';
import { runChild } from '../child-run';
import { GenKeyword, parseKeywordJson } from '../keygen';
import { documentRefs, lastUserQuestion, localFiles, runFileNames } from '../run-files';
import type { RunState } from '../run-state';
import { inputBudget } from '../virtual-memory';
import { ParallelDocQAMember, readerOverhead } from './parallel-doc-qa-member';
import { ParallelDocQASummary, summaryOverhead } from './parallel-doc-qa-summary';
import { runPool } from './pool';
import { readerVerdict } from './reader-output';

/** Upstream's PARALLEL_CHUNK_SIZE: tokens per chunk a reader reads. */
export const PARALLEL_CHUNK_SIZE = 1000;
/** Upstream's MAX_RAG_TOKEN_SIZE: tokens of passages the keyword search finds for the summary. */
export const MAX_RAG_TOKEN_SIZE = 4500;
/** Upstream's RAG_CHUNK_SIZE: tokens per chunk of that search. */
export const RAG_CHUNK_SIZE = 300;
/** Most chunks one reader run reads (a group in the trace). */
export const MAX_GROUP_CHUNKS = 10;
/** Chunks smaller than this cannot hold a useful excerpt: the model's input is too small for the question. */
const MIN_CHUNK_TOKENS = 64;
/** Tokens kept free in each request beside what is counted (message framing, the answer's start). */
const MARGIN_TOKENS = 100;

export interface ParallelDocQAOptions extends AgentOptions {
  /** Reader model calls at once (default PARALLEL_DOC_QA_CONCURRENCY, 4). */
  concurrency?: number;
}

/** What a reader found in one chunk. */
export interface Finding {
  document: string;
  /** 0-based chunk of the document. */
  chunk: number;
  page: number;
  lastPage: number;
  content: string;
}

interface ChunkGroup {
  doc: IndexedDocument;
  /** 0-based chunks of the document, consecutive. */
  first: number;
  last: number;
}

const TEXT = {
  en: {
    description: 'Reads every part of the documents in parallel, then answers from what it found, citing pages.',
    pages: (a: number, b: number) => (a === b ? `page ${a}` : `pages ${a}–${b}`),
    reader: (n: number, g: ChunkGroup, pages: string) =>
      `Reader ${n}: ${g.doc.name}, ${g.first === g.last ? `chunk ${g.first + 1}` : `chunks ${g.first + 1}–${g.last + 1}`} (${pages})`,
    chunk: (i: number, total: number, pages: string) => `Chunk ${i + 1} of ${total} (${pages})`,
    found: (name: string) => `## What the readers found in [file](${name}):`,
    leftOut: (n: number) => `(${n} more findings did not fit the model's input.)`,
  },
  zh: {
    description: '并行通读文档的每个部分，再依据找到的内容回答，并注明页码。',
    pages: (a: number, b: number) => (a === b ? `第 ${a} 页` : `第 ${a}–${b} 页`),
    reader: (n: number, g: ChunkGroup, pages: string) =>
      `阅读者 ${n}：${g.doc.name}，${g.first === g.last ? `第 ${g.first + 1} 块` : `第 ${g.first + 1}–${g.last + 1} 块`}（${pages}）`,
    chunk: (i: number, total: number, pages: string) => `第 ${i + 1} 块，共 ${total} 块（${pages}）`,
    found: (name: string) => `## 阅读者在 [文件](${name}) 中找到的内容：`,
    leftOut: (n: number) => `（另有 ${n} 条发现超出了模型的输入长度，未列出。）`,
  },
} as const;

export class ParallelDocQA extends Agent {
  static override readonly kind: AgentKind = 'paralleldocqa';
  readonly concurrency: number;

  constructor(opts: ParallelDocQAOptions) {
    super({ ...opts, description: opts.description ?? TEXT.en.description });
    const concurrency = opts.concurrency ?? this.toolSettings.rag.parallelDocQaConcurrency;
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new TypeError(`ParallelDocQA's concurrency must be a whole number of at least 1 (got ${concurrency}).`);
    this.concurrency = concurrency;
  }

  protected override async loop(messages: Message[], run: RunState): Promise<StopReason> {
    const question = lastUserQuestion(messages).trim();
    if (!question) throw new Error(`${this.name} answers a question: the last message must be the user's question.`);
    const refs = documentRefs(this.files, messages);
    if (!refs.length)
      throw new Error(
        `${this.name} reads the conversation's documents, and there are none: attach a document (PDF, Word, a text file…) with the question.`,
      );
    const { files, errors } = await localFiles(
      refs,
      run,
      this.toolSettings,
      'paralleldocqa',
      runFileNames(this.files, messages),
    );
    run.signal.throwIfAborted();
    const budget = inputBudget(this.llm, run);
    const { loadIndexes, retrieve, retrievalStep, formatKnowledge } = await import('../../documents/search');
    const parse = parseOptions(this.toolSettings);
    const loaded = await loadIndexes(files, chunkSize(budget, question, run.lang), parse);
    const unreadable = [...errors, ...loaded.errors, ...loaded.unsupported];
    const docs = loaded.docs.filter((d) => d.chunks.length);
    if (!docs.length)
      throw new Error(`${this.name} could not read any of the documents:\n${unreadable.join('\n') || refs.join('\n')}`);

    const findings = await this.read(messages, question, docs, run);
    const room = summaryRoom(budget, question, run.lang);
    const lead = findingSections(findings, room, run.lang);
    const query = await this.keywords(question, findings, run);
    run.signal.throwIfAborted();
    // The keyword search fills what the summary's input leaves after the findings.
    const found = await retrieve(files, query, {
      maxRefTokens: Math.max(0, Math.min(MAX_RAG_TOKEN_SIZE, room - countTokens(lead.join('\n\n')))),
      parserPageSize: RAG_CHUNK_SIZE,
      searchers: ['keyword_search'],
      parse,
    });
    run.emit({ ...retrievalStep(query, found, [...found.errors, ...found.unsupported]), by: 'assistant' });
    const knowledge = formatKnowledge(found.documents, run.lang, unreadable, lead);
    await new ParallelDocQASummary({ llm: this.llm }).summarize(messages, knowledge, run);
    return 'answered';
  }

  /** Step 1: every chunk read by a reader; what they found, in document order. */
  private async read(messages: Message[], question: string, docs: IndexedDocument[], run: RunState) {
    const t = TEXT[run.lang];
    const size = groupSize(
      docs.reduce((n, d) => n + d.chunks.length, 0),
      this.concurrency,
    );
    const groups: ChunkGroup[] = [];
    for (const doc of docs)
      for (let first = 0; first < doc.chunks.length; first += size)
        groups.push({ doc, first, last: Math.min(first + size, doc.chunks.length) - 1 });
    const read = new Map<IndexedDocument, number>();
    for (const doc of docs) {
      read.set(doc, 0);
      run.emit({ type: 'progress', document: doc.name, done: 0, total: doc.chunks.length });
    }
    const stop = new AbortController();
    const answers = await runPool(
      groups,
      this.concurrency,
      async (group, n) => {
        const chunks = group.doc.chunks.slice(group.first, group.last + 1);
        const reader = new ParallelDocQAMember({
          llm: this.llm,
          name: t.reader(n + 1, group, t.pages(chunks[0]!.page, chunks[chunks.length - 1]!.lastPage)),
          question,
          chunks: chunks.map((c) => ({
            text: c.content,
            label: t.chunk(c.index, group.doc.chunks.length, t.pages(c.page, c.lastPage)),
          })),
        });
        const texts: string[] = chunks.map(() => '');
        await runChild(reader, messages, run, {
          aside: true,
          signal: stop.signal,
          onEvent: (e) => {
            // The reader's iteration i is its i-th chunk; its labels are its own text, not an answer.
            if (e.type === 'text-delta' && !e.newMessage && e.iteration >= 1) texts[e.iteration - 1] += e.text;
            else if (e.type === 'llm-end') {
              const done = read.get(group.doc)! + 1;
              read.set(group.doc, done);
              run.emit({ type: 'progress', document: group.doc.name, done, total: group.doc.chunks.length });
            }
          },
        });
        return texts;
      },
      stop,
    );
    const findings: Finding[] = [];
    groups.forEach((group, g) =>
      answers[g]!.forEach((text, i) => {
        const verdict = readerVerdict(text);
        if (!verdict.found) return;
        const chunk = group.doc.chunks[group.first + i]!;
        findings.push({
          document: group.doc.name,
          chunk: chunk.index,
          page: chunk.page,
          lastPage: chunk.lastPage,
          content: verdict.content,
        });
      }),
    );
    return findings;
  }

  /** Step 2a: the search query, from a keyword call on the question and the findings (as upstream writes it). */
  private async keywords(question: string, findings: Finding[], run: RunState): Promise<string> {
    const found = findings.map((f) => f.content).join('\n\n');
    const text = found ? `${question}\n\n${found}` : question;
    // Findings longer than the search's budget would only make the keyword call long: the question alone then.
    const asked = countTokens(found) > MAX_RAG_TOKEN_SIZE ? question : text;
    const keygen = new GenKeyword({ llm: this.llm, toolSettings: this.toolSettings });
    const { messages } = await runChild(keygen, [{ role: 'user', content: asked }], run, { aside: true });
    const answer = messages.filter((m) => m.role === 'assistant' && !m.function_call).at(-1);
    const keywords = parseKeywordJson(answer ? contentText(answer.content) : '');
    return keywords ? pyJsonDumps({ ...keywords, text }) : text;
  }
}

/** Tokens per reader chunk: upstream's 1000, or what the model's input leaves beside the reader's prompt. */
export function chunkSize(budget: number, question: string, lang: Lang): number {
  if (budget <= 0) return PARALLEL_CHUNK_SIZE;
  const room = budget - countTokens(readerOverhead(question, lang)) - MARGIN_TOKENS;
  if (room < MIN_CHUNK_TOKENS)
    throw new Error(
      `The model's input (max_input_tokens ${budget}) is too small to read the documents with this question: it leaves ${Math.max(0, room)} tokens for each part of a document.`,
    );
  return Math.min(PARALLEL_CHUNK_SIZE, room);
}

/** Chunks per reader run: enough groups to keep `concurrency` readers busy, at most MAX_GROUP_CHUNKS each. */
export function groupSize(chunks: number, concurrency: number): number {
  return Math.max(1, Math.min(MAX_GROUP_CHUNKS, Math.ceil(chunks / (2 * concurrency))));
}

/** Tokens the summary's knowledge may take (no limit when the model's input has none). */
function summaryRoom(budget: number, question: string, lang: Lang): number {
  if (budget <= 0) return Infinity;
  return Math.max(0, budget - countTokens(summaryOverhead(question, lang)) - MARGIN_TOKENS);
}

/**
 * The findings as knowledge sections, one per document, each finding marked with its pages as a chunk marks them
 * ("[page: 7]", "[page: 7–9]"); at most half of `room` tokens, the rest left out and counted.
 */
function findingSections(findings: Finding[], room: number, lang: Lang): string[] {
  const t = TEXT[lang];
  const share = room / 2;
  let used = 0;
  let leftOut = 0;
  const byDoc = new Map<string, string[]>();
  for (const f of findings) {
    const line = `[page: ${f.page === f.lastPage ? f.page : `${f.page}–${f.lastPage}`}] ${f.content}`;
    const tokens = countTokens(line);
    if (used + tokens > share) {
      leftOut++;
      continue;
    }
    used += tokens;
    byDoc.set(f.document, [...(byDoc.get(f.document) ?? []), line]);
  }
  const lead = [...byDoc].map(([name, lines]) => `${t.found(name)}\n\n${lines.join('\n\n')}`);
  if (leftOut) lead.push(t.leftOut(leftOut));
  return lead;
}
