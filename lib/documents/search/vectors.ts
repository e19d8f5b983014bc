// Vector search's half of retrieval: each document's chunks embedded once per content hash, page size and embedding
// model (kept in a VectorStore: the database's, or memory), the query embedded per search, and every chunk scored by
// cosine similarity to it. An exact scan: at 10k chunks it costs a few ms (bench/recall.ts says how much beside
// keyword search), which no approximate index would be worth at a conversation's size.
import type { Embedder } from '../../llm/embeddings';
import type { IndexedDocument } from './index-cache';

/** Where chunk vectors are kept between searches, by what made them and which document version they are of. */
export interface VectorStore {
  /** The vectors of the document's chunks (in chunk order), or undefined when none are stored. */
  getChunkVectors(key: ChunkVectorsKey): Promise<Float32Array[] | undefined>;
  putChunkVectors(key: ChunkVectorsKey, vectors: readonly Float32Array[]): Promise<void>;
}

export interface ChunkVectorsKey {
  /** The Embedder's id (server and model, or GGUF file). */
  embedder: string;
  /** The document's content hash: a changed document is another key, so it is embedded again. */
  hash: string;
  pageSize: number;
}

/** Documents whose vectors a process keeps in memory when no database store is given (least recently used out). */
const MEMORY_DOCUMENTS = 200;

/** A VectorStore in this process's memory (the CLI, scripts, tests without a database). */
export function memoryVectorStore(limit = MEMORY_DOCUMENTS): VectorStore {
  const held = new Map<string, Float32Array[]>();
  const keyOf = (k: ChunkVectorsKey) => `${k.embedder}\n${k.hash}\n${k.pageSize}`;
  return {
    async getChunkVectors(k) {
      const hit = held.get(keyOf(k));
      if (hit) {
        held.delete(keyOf(k));
        held.set(keyOf(k), hit);
      }
      return hit;
    },
    async putChunkVectors(k, vectors) {
      held.set(keyOf(k), [...vectors]);
      for (const key of held.keys()) {
        if (held.size <= limit) break;
        held.delete(key);
      }
    },
  };
}

let processStore: VectorStore | undefined;

/** The process's in-memory store (used when a search is given none). */
export function defaultVectorStore(): VectorStore {
  processStore ??= memoryVectorStore();
  return processStore;
}

/** The vector scaled to length 1 (a zero vector stays zero), so a dot product is the cosine. */
export function normalized(v: Float32Array): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum);
  if (!norm) return v;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i]! / norm;
  return out;
}

/** Four sums at once: the loop that scans every chunk's vector for every question, so it is worth unrolling. */
export function dot(a: Float32Array, b: Float32Array): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  const n = Math.min(a.length, b.length);
  let i = 0;
  for (; i + 3 < n; i += 4) {
    s0 += a[i]! * b[i]!;
    s1 += a[i + 1]! * b[i + 1]!;
    s2 += a[i + 2]! * b[i + 2]!;
    s3 += a[i + 3]! * b[i + 3]!;
  }
  for (; i < n; i++) s0 += a[i]! * b[i]!;
  return s0 + s1 + s2 + s3;
}

/** The cosine of a normalized query vector with each normalized chunk vector. */
export function cosineScores(query: Float32Array, vectors: readonly Float32Array[]): Float64Array {
  const out = new Float64Array(vectors.length);
  for (let i = 0; i < vectors.length; i++) out[i] = dot(query, vectors[i]!);
  return out;
}

/** The normalized vectors of every chunk of `doc`: from the store, or embedded now and stored. */
export async function chunkVectors(
  doc: IndexedDocument,
  embedder: Embedder,
  store: VectorStore,
  signal?: AbortSignal,
): Promise<Float32Array[]> {
  const key = { embedder: embedder.id, hash: doc.hash, pageSize: doc.pageSize };
  const stored = await store.getChunkVectors(key);
  if (stored && stored.length === doc.chunks.length) return stored;
  const made = (
    await embedder.embed(
      doc.chunks.map((c) => c.content),
      { signal },
    )
  ).map(normalized);
  await store.putChunkVectors(key, made);
  return made;
}

/**
 * Cosine similarity of the query to every chunk, per document (the same shape as the BM25 scores). Documents are
 * embedded first where their vectors are not stored; the query once.
 */
export async function vectorScores(
  docs: readonly IndexedDocument[],
  query: string,
  embedder: Embedder,
  store: VectorStore = defaultVectorStore(),
  signal?: AbortSignal,
): Promise<Float64Array[]> {
  const perDoc: Float32Array[][] = [];
  for (const doc of docs) perDoc.push(await chunkVectors(doc, embedder, store, signal));
  const [q] = await embedder.embed([query], { signal });
  const qv = normalized(q!);
  return perDoc.map((vectors) => cosineScores(qv, vectors));
}
