// The block sizes the GGUF reader uses to find where tensor data ends, checked against llama.cpp's own (the native
// binding node-llama-cpp ships), so a cut download is never taken for whole because a size was wrong.
import { describe, expect, it } from 'vitest';
import { GGML_TYPES, tensorByteSize } from './ggml-types';

describe('GGML_TYPES', () => {
  it('matches the block size and bytes per block of every type llama.cpp knows', async () => {
    const { getLlama, GgmlType } = await import('node-llama-cpp');
    const llama = await getLlama({ gpu: false, build: 'never' });
    const bindings = (llama as unknown as { _bindings: Record<string, (t: number) => number | undefined> })._bindings;
    const known = Object.values(GgmlType).filter((v): v is number => typeof v === 'number');
    let compared = 0;
    for (const type of known) {
      const blockSize = bindings.getBlockSizeForGgmlType!(type) ?? 0;
      const blockBytes = bindings.getTypeSizeForGgmlType!(type) ?? 0;
      if (blockSize === 0) {
        expect(GGML_TYPES[type], `type ${type} was removed from ggml`).toBeUndefined();
        continue;
      }
      expect(GGML_TYPES[type], `type ${type}`).toMatchObject({ blockSize, blockBytes });
      compared++;
    }
    expect(compared).toBe(Object.keys(GGML_TYPES).length);
  });

  it('sizes a tensor from its dimensions, and refuses a row that is not whole blocks', () => {
    expect(tensorByteSize(0, [4, 3])).toBe(48);
    expect(tensorByteSize(12, [512, 2])).toBe(2 * 2 * 144); // Q4_K: 256 elements a block
    expect(tensorByteSize(12, [100])).toBeUndefined();
    expect(tensorByteSize(999, [4])).toBeUndefined();
  });
});
