// Chunks and BM25 index of a document, built once per content hash and page size and kept in memory (least
// recently used first out, bounded by the number of chunks held), so a question costs a search, not a re-index.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { loadDocumentOffThread } from '../parse-pool';
import type { DocumentLimits } from '../limits';
import type { DocumentKind, ParsedDocument } from '../types';
import { Bm25Index } from './bm25';
import { chunkDocument, type Chunk } from './chunk';
import { terms } from './terms';

export interface IndexedDocument {
  hash: string;
  name: string;
  title?: string;
  kind: DocumentKind;
  pageSize: number;
  chunks: Chunk[];
  totalTokens: number;
  bm25: Bm25Index;
}

/** About 100 MB of chunk text and postings at 500-token chunks. */
export const MAX_CACHED_CHUNKS = 50_000;

const MAX_KNOWN_FILES = 10_000;

const indexes = new Map<string, IndexedDocument>();
let cachedChunks = 0;
/** path -> the file's size and mtime when it was read, and its content hash: skips re-reading unchanged files. */
const files = new Map<string, { size: number; mtimeMs: number; hash: string }>();

function remember(key: string, entry: IndexedDocument): void {
  indexes.set(key, entry);
  cachedChunks += entry.chunks.length;
  for (const [k, v] of indexes) {
    if (cachedChunks <= MAX_CACHED_CHUNKS || k === key) break;
    indexes.delete(k);
    cachedChunks -= v.chunks.length;
  }
}

function recall(key: string): IndexedDocument | undefined {
  const hit = indexes.get(key);
  if (hit) {
    indexes.delete(key); // move to the most recently used end
    indexes.set(key, hit);
  }
  return hit;
}

/** The document's chunks and index, built on first use; the same content under another name shares them. */
export function indexDocument(doc: ParsedDocument, pageSize: number): IndexedDocument {
  const key = `${doc.hash}:${pageSize}`;
  let entry = recall(key);
  if (!entry) {
    const chunks = chunkDocument(doc, pageSize);
    entry = {
      hash: doc.hash,
      name: doc.name,
      kind: doc.kind,
      pageSize,
      chunks,
      totalTokens: chunks.reduce((sum, c) => sum + c.tokens, 0),
      bm25: new Bm25Index(chunks.map((c) => terms(c.content))),
    };
    if (doc.title) entry.title = doc.title;
    remember(key, entry);
  }
  return entry.name === doc.name && entry.title === doc.title ? entry : { ...entry, name: doc.name, title: doc.title };
}

/** How a file is parsed: its limits and where parses are cached (loadDocument's options). */
export type ParseOptions = { limits?: DocumentLimits; cacheDir?: string | false };

/** Parses (through loadDocument, in a worker thread) and indexes a local file; an unchanged file already indexed is not read again. */
export async function indexFile(
  filePath: string,
  pageSize: number,
  name = path.basename(filePath),
  parse: ParseOptions = {},
): Promise<IndexedDocument> {
  const abs = path.resolve(filePath);
  const info = await stat(abs).catch(() => undefined);
  const known = files.get(abs);
  if (info && known && known.size === info.size && known.mtimeMs === info.mtimeMs) {
    const hit = recall(`${known.hash}:${pageSize}`);
    if (hit) return hit.name === name ? hit : { ...hit, name };
  }
  const doc = await loadDocumentOffThread(abs, name, parse);
  if (files.size >= MAX_KNOWN_FILES) files.clear(); // a cheap bound: forgetting only costs a re-read
  if (info) files.set(abs, { size: info.size, mtimeMs: info.mtimeMs, hash: doc.hash });
  return indexDocument(doc, pageSize);
}

/** Empties the cache (tests). */
export function clearIndexCache(): void {
  indexes.clear();
  files.clear();
  cachedChunks = 0;
}

export function indexCacheStats(): { documents: number; chunks: number } {
  return { documents: indexes.size, chunks: cachedChunks };
}
