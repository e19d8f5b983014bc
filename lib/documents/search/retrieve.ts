// The search pipeline from files to passages: each file parsed (loadDocument) and indexed once, the query searched
// within the token budget, and the outcome told two ways: Qwen-Agent's [{url, text: [...]}] for the model, and the
// scored candidates for the trace (which chunks were considered and which went into the prompt).
import type { Embedder } from '../../llm/embeddings';
import type { RetrievalCandidate, RetrievalStep } from '../../protocol/events';
import { DocumentError } from '../types';
import { DEFAULT_PARSER_PAGE_SIZE } from './chunk';
import { indexFile, type IndexedDocument, type ParseOptions } from './index-cache';
import { DEFAULT_MAX_REF_TOKEN, searchDocuments, UNUSED_LISTED, type SearchMode } from './search';
import { DEFAULT_RAG_SEARCHERS, searchPlan, type AvailableSearcher } from './searchers';
import { vectorScores, type VectorStore } from './vectors';
import { isErrorNamed } from '../../protocol/errors';

/** Characters of an unused candidate's text kept in the trace. */
const UNUSED_TEXT_CHARS = 400;

export interface RetrievalFile {
  /** A local path. */
  path: string;
  /** Display name (default: the path's basename). */
  name?: string;
}

export interface RetrieveOptions {
  maxRefTokens?: number;
  parserPageSize?: number;
  /** How files are parsed: the limits and the parse cache (default: loadDocument's). */
  parse?: ParseOptions;
  /** Which searches rank the chunks (checked names: searchers.ts); default keyword and front page. */
  searchers?: readonly AvailableSearcher[];
  /** What embeds chunks and the query for vector_search / hybrid_search. */
  embedder?: Embedder;
  /** Where chunk vectors are kept (default: this process's memory). */
  vectorStore?: VectorStore;
  signal?: AbortSignal;
}

export interface RetrievedDocument {
  /** The file's display name (what the model and the user call it). */
  url: string;
  text: string[];
}

export interface Retrieval {
  /** Qwen-Agent's retrieval output. */
  documents: RetrievedDocument[];
  /** For each used passage and the best unused ones: where it is from, its score, whether it went in. */
  candidates: RetrievalCandidate[];
  terms: string[];
  mode: SearchMode;
  budgetTokens: number;
  usedTokens: number;
  /** Files that could not be read, one readable sentence each. */
  errors: string[];
  /** Files of a type that is not a document (the Assistant leaves them out silently, as upstream). */
  unsupported: string[];
  /** How the search went otherwise than asked (vector search not possible, so keyword search alone), for the trace. */
  notes: string[];
  durationMs: number;
}

export async function loadIndexes(
  files: readonly RetrievalFile[],
  pageSize: number,
  parse: ParseOptions = {},
): Promise<{ docs: IndexedDocument[]; errors: string[]; unsupported: string[] }> {
  const docs: IndexedDocument[] = [];
  const errors: string[] = [];
  const unsupported: string[] = [];
  for (const file of files) {
    try {
      docs.push(await indexFile(file.path, pageSize, file.name, parse));
    } catch (e) {
      if (!isErrorNamed<DocumentError>(e, 'DocumentError')) throw e;
      (e.code === 'unsupported' ? unsupported : errors).push(e.message);
    }
  }
  return { docs, errors, unsupported };
}

export function searchIndexes(
  docs: readonly IndexedDocument[],
  query: string,
  budgetTokens: number,
  searchers: readonly AvailableSearcher[] = DEFAULT_RAG_SEARCHERS,
  vectors?: Float64Array[],
): Omit<Retrieval, 'errors' | 'unsupported' | 'notes' | 'durationMs'> {
  const result = searchDocuments(docs, query, budgetTokens, searchPlan(searchers), vectors);
  const used = result.ranking.filter((r) => r.usedText !== undefined);
  const unused = result.ranking.filter((r) => r.usedText === undefined).slice(0, UNUSED_LISTED);
  const shown =
    result.mode === 'ranked' ? [...used, ...unused] : [...used, ...unused].sort((a, b) => b.score - a.score);
  const candidates = shown.map((r): RetrievalCandidate => {
    const doc = docs[r.doc]!;
    const chunk = doc.chunks[r.chunk]!;
    const text =
      r.usedText ??
      (chunk.content.length > UNUSED_TEXT_CHARS ? `${chunk.content.slice(0, UNUSED_TEXT_CHARS)}…` : chunk.content);
    const candidate: RetrievalCandidate = {
      chunkId: `${doc.hash.slice(0, 16)}:${r.chunk}`,
      fileId: doc.hash,
      fileName: doc.name,
      page: chunk.page,
      score: Math.round(r.score * 1000) / 1000,
      tokens: r.usedTokens ?? chunk.tokens,
      text,
      used: r.usedText !== undefined,
    };
    const lastPage = r.usedText !== undefined ? lastMarkedPage(text, chunk.page) : chunk.lastPage;
    if (lastPage > chunk.page) candidate.lastPage = lastPage;
    if (r.pinned) candidate.pinned = true;
    return candidate;
  });
  return {
    documents: result.refs.map((ref) => ({ url: ref.doc.name, text: ref.texts })),
    candidates,
    terms: result.terms,
    mode: result.mode,
    budgetTokens: result.budgetTokens,
    usedTokens: result.usedTokens,
  };
}

/** The last page a text's "[page: N]" lines reach (a passage cut to the budget may stop before its chunk's). */
function lastMarkedPage(text: string, first: number): number {
  let last = first;
  for (const m of text.matchAll(/^\[page: (\d+)\]$/gm)) last = Math.max(last, Number(m[1]));
  return last;
}

/** Parses, indexes and searches `files` for `query`. Unreadable files are listed in `errors`, never thrown. */
export async function retrieve(
  files: readonly RetrievalFile[],
  query: string,
  opts: RetrieveOptions = {},
): Promise<Retrieval> {
  const started = performance.now();
  const { docs, errors, unsupported } = await loadIndexes(
    files,
    opts.parserPageSize ?? DEFAULT_PARSER_PAGE_SIZE,
    opts.parse,
  );
  const budget = opts.maxRefTokens ?? DEFAULT_MAX_REF_TOKEN;
  const notes: string[] = [];
  let searchers = opts.searchers ?? DEFAULT_RAG_SEARCHERS;
  let scores: Float64Array[] | undefined;
  // Vectors only when the search ranks (a question, and more text than the budget): otherwise nothing is embedded.
  const ranks = query.trim() && docs.reduce((sum, d) => sum + d.totalTokens, 0) > budget;
  if (searchPlan(searchers).vector && ranks) {
    try {
      if (!opts.embedder) throw new Error('this model makes no embeddings');
      scores = await vectorScores(docs, query, opts.embedder, opts.vectorStore, opts.signal);
    } catch (e) {
      if (opts.signal?.aborted) throw e;
      // The question is still answered: by keyword search, and the trace says why.
      notes.push(
        `Vector search was not possible (${e instanceof Error ? e.message : String(e)}); searched by keyword.`,
      );
      searchers = DEFAULT_RAG_SEARCHERS;
    }
  }
  const found = searchIndexes(docs, query, budget, searchers, scores);
  return { ...found, errors, unsupported, notes, durationMs: Math.round((performance.now() - started) * 1000) / 1000 };
}

/** What a retrieval puts into the trace (the `retrieval` event, less what the emitter stamps): `notes` are the
 *  files that could not be searched, as the emitter tells them. */
export function retrievalStep(query: string, found: Retrieval, notes: string[]): RetrievalStep {
  return {
    type: 'retrieval',
    query,
    terms: found.terms,
    mode: found.mode,
    candidates: found.candidates,
    budgetTokens: found.budgetTokens,
    usedTokens: found.usedTokens,
    durationMs: found.durationMs,
    ...(notes.length ? { errors: notes } : {}),
  };
}
