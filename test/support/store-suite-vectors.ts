// The store suite's part for vector search's chunk vectors (called from describeChatStore in store-suite.ts, so it
// runs against every store): kept per embedding model, document content and page size, exactly, across a restart.
import { describe, expect, it } from 'vitest';
import type { ChatStore } from '../../lib/store/types';

const KEY = { embedder: 'http://127.0.0.1:1/v1#embed-model', hash: 'c'.repeat(64), pageSize: 500 };

function vectors(count: number, dims: number, seed: number): Float32Array[] {
  return Array.from({ length: count }, (_, i) =>
    Float32Array.from({ length: dims }, (_, j) => Math.sin(seed + i * dims + j)),
  );
}

export function describeChunkVectors(open: () => Promise<ChatStore>, reopen: () => Promise<ChatStore>): void {
  describe('chunk vectors', () => {
    it('keeps every float32 of every chunk exactly, in chunk order, across a restart', async () => {
      const store = await open();
      expect(await store.getChunkVectors(KEY)).toBeUndefined();
      const made = vectors(3, 384, 1);
      await store.putChunkVectors(KEY, made);
      expect(await store.getChunkVectors(KEY)).toEqual(made);
      const again = await reopen();
      expect(await again.getChunkVectors(KEY)).toEqual(made);
    });

    it('finds vectors only under the same embedding model, document content and page size', async () => {
      const store = await open();
      await store.putChunkVectors(KEY, vectors(2, 8, 2));
      expect(await store.getChunkVectors({ ...KEY, embedder: 'local:other.gguf' })).toBeUndefined();
      expect(await store.getChunkVectors({ ...KEY, hash: 'd'.repeat(64) })).toBeUndefined();
      expect(await store.getChunkVectors({ ...KEY, pageSize: 300 })).toBeUndefined();
    });

    it('replaces a document’s vectors when they are stored again, leaving the other page size’s', async () => {
      const store = await open();
      await store.putChunkVectors(KEY, vectors(2, 8, 3));
      await store.putChunkVectors({ ...KEY, pageSize: 300 }, vectors(4, 8, 4));
      const replacement = vectors(5, 16, 5);
      await store.putChunkVectors(KEY, replacement);
      expect(await store.getChunkVectors(KEY)).toEqual(replacement);
      expect(await store.getChunkVectors({ ...KEY, pageSize: 300 })).toEqual(vectors(4, 8, 4));
    });

    it('drops every model’s vectors of a document’s bytes, and only those', async () => {
      const store = await open();
      const other = { ...KEY, hash: 'e'.repeat(64) };
      await store.putChunkVectors(KEY, vectors(2, 8, 7));
      await store.putChunkVectors({ ...KEY, embedder: 'local:tiny.gguf' }, vectors(2, 4, 8));
      await store.putChunkVectors(other, vectors(1, 8, 9));
      await store.deleteChunkVectors(KEY.hash);
      expect(await store.getChunkVectors(KEY)).toBeUndefined();
      expect(await store.getChunkVectors({ ...KEY, embedder: 'local:tiny.gguf' })).toBeUndefined();
      expect(await store.getChunkVectors(other)).toEqual(vectors(1, 8, 9));
    });

    it('refuses vectors of different lengths for one document, and keeps what was there', async () => {
      const store = await open();
      await store.putChunkVectors(KEY, vectors(1, 8, 6));
      await expect(store.putChunkVectors(KEY, [new Float32Array(8), new Float32Array(4)])).rejects.toThrow(
        /8 and 4 numbers/,
      );
      expect(await store.getChunkVectors(KEY)).toEqual(vectors(1, 8, 6));
    });
  });
}
