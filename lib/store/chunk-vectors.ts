// The chunk vectors of vector search (lib/documents/search/vectors.ts), kept beside the documents: one row per
// embedding model, document content and page size, the chunks' vectors one after another as float32 bytes. A
// document that changes has another content hash, so it is embedded again; one that does not is never re-embedded,
// across restarts and instances. Read whole and scored in JS (an exact search): no vector index is needed at the size
// of a conversation's documents.
import type { ChunkVectorsKey, VectorStore } from '../documents/search/vectors';
import type { Ctx } from './context';
import { insert, query } from './query';

const Q = {
  drop: query((d, p) => d.db.deleteFrom('chunk_vectors').where('hash', '=', p('hash'))),
  get: query((d, p) =>
    d.db
      .selectFrom('chunk_vectors')
      .select(['dims', 'count', 'vectors'])
      .where('embedder', '=', p('embedder'))
      .where('hash', '=', p('hash'))
      .where('page_size', '=', p('page_size')),
  ),
  put: insert('chunk_vectors', { upsert: ['embedder', 'hash', 'page_size'] }),
};

/** The vectors as one buffer of little-endian float32s; all must have `dims` numbers. */
function packVectors(vectors: readonly Float32Array[], dims: number): Buffer {
  const out = Buffer.alloc(vectors.length * dims * 4);
  vectors.forEach((v, i) => {
    if (v.length !== dims)
      throw new Error(`Chunk vectors of ${dims} and ${v.length} numbers cannot be stored together.`);
    for (let j = 0; j < dims; j++) out.writeFloatLE(v[j]!, (i * dims + j) * 4);
  });
  return out;
}

function unpackVectors(bytes: Uint8Array, dims: number, count: number): Float32Array[] {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length !== dims * count * 4) throw new Error('Stored chunk vectors are not the size their row says.');
  return Array.from({ length: count }, (_, i) => {
    const v = new Float32Array(dims);
    for (let j = 0; j < dims; j++) v[j] = buf.readFloatLE((i * dims + j) * 4);
    return v;
  });
}

const row = (k: ChunkVectorsKey) => ({ embedder: k.embedder, hash: k.hash, page_size: k.pageSize });

export function chunkVectorStore(ctx: Ctx): VectorStore & { deleteChunkVectors(hash: string): Promise<void> } {
  return {
    async deleteChunkVectors(hash) {
      await Q.drop.run(ctx, ctx.db, { hash });
    },
    async getChunkVectors(key) {
      const found = await Q.get.first(ctx, ctx.db, row(key));
      return found ? unpackVectors(found.vectors, Number(found.dims), Number(found.count)) : undefined;
    },
    async putChunkVectors(key, vectors) {
      const dims = vectors[0]?.length ?? 0;
      await Q.put.run(ctx, ctx.db, {
        ...row(key),
        dims,
        count: vectors.length,
        vectors: packVectors(vectors, dims),
        created_at: ctx.now(),
      });
    },
  };
}
