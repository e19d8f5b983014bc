// ggml's tensor types (ggml_type) and file types (llama_ftype, GGUF's general.file_type): names, and how many bytes
// a block of elements takes, which is what locating tensor data in a GGUF needs. The sizes match llama.cpp's own
// (ggml-types.test.ts checks them against the native binding).

export interface GgmlTypeInfo {
  name: string;
  /** Elements per block (1 for plain types). */
  blockSize: number;
  /** Bytes per block. */
  blockBytes: number;
}

// Codes missing here were removed from ggml (Q4_2, Q4_3, the Q4_0_x_y and IQ4_NL_x_y repackings).
export const GGML_TYPES: Readonly<Record<number, GgmlTypeInfo>> = {
  0: { name: 'F32', blockSize: 1, blockBytes: 4 },
  1: { name: 'F16', blockSize: 1, blockBytes: 2 },
  2: { name: 'Q4_0', blockSize: 32, blockBytes: 18 },
  3: { name: 'Q4_1', blockSize: 32, blockBytes: 20 },
  6: { name: 'Q5_0', blockSize: 32, blockBytes: 22 },
  7: { name: 'Q5_1', blockSize: 32, blockBytes: 24 },
  8: { name: 'Q8_0', blockSize: 32, blockBytes: 34 },
  9: { name: 'Q8_1', blockSize: 32, blockBytes: 36 },
  10: { name: 'Q2_K', blockSize: 256, blockBytes: 84 },
  11: { name: 'Q3_K', blockSize: 256, blockBytes: 110 },
  12: { name: 'Q4_K', blockSize: 256, blockBytes: 144 },
  13: { name: 'Q5_K', blockSize: 256, blockBytes: 176 },
  14: { name: 'Q6_K', blockSize: 256, blockBytes: 210 },
  15: { name: 'Q8_K', blockSize: 256, blockBytes: 292 },
  16: { name: 'IQ2_XXS', blockSize: 256, blockBytes: 66 },
  17: { name: 'IQ2_XS', blockSize: 256, blockBytes: 74 },
  18: { name: 'IQ3_XXS', blockSize: 256, blockBytes: 98 },
  19: { name: 'IQ1_S', blockSize: 256, blockBytes: 50 },
  20: { name: 'IQ4_NL', blockSize: 32, blockBytes: 18 },
  21: { name: 'IQ3_S', blockSize: 256, blockBytes: 110 },
  22: { name: 'IQ2_S', blockSize: 256, blockBytes: 82 },
  23: { name: 'IQ4_XS', blockSize: 256, blockBytes: 136 },
  24: { name: 'I8', blockSize: 1, blockBytes: 1 },
  25: { name: 'I16', blockSize: 1, blockBytes: 2 },
  26: { name: 'I32', blockSize: 1, blockBytes: 4 },
  27: { name: 'I64', blockSize: 1, blockBytes: 8 },
  28: { name: 'F64', blockSize: 1, blockBytes: 8 },
  29: { name: 'IQ1_M', blockSize: 256, blockBytes: 56 },
  30: { name: 'BF16', blockSize: 1, blockBytes: 2 },
  34: { name: 'TQ1_0', blockSize: 256, blockBytes: 54 },
  35: { name: 'TQ2_0', blockSize: 256, blockBytes: 66 },
  39: { name: 'MXFP4', blockSize: 32, blockBytes: 17 },
  40: { name: 'NVFP4', blockSize: 64, blockBytes: 36 },
  41: { name: 'Q1_0', blockSize: 128, blockBytes: 18 },
  42: { name: 'Q2_0', blockSize: 64, blockBytes: 18 },
};

/** general.file_type: the quantisation most of the file's tensors use, as llama.cpp's quantize tool names it. */
export const GGUF_FILE_TYPES: Readonly<Record<number, string>> = {
  0: 'F32',
  1: 'F16',
  2: 'Q4_0',
  3: 'Q4_1',
  4: 'Q4_1_SOME_F16',
  7: 'Q8_0',
  8: 'Q5_0',
  9: 'Q5_1',
  10: 'Q2_K',
  11: 'Q3_K_S',
  12: 'Q3_K_M',
  13: 'Q3_K_L',
  14: 'Q4_K_S',
  15: 'Q4_K_M',
  16: 'Q5_K_S',
  17: 'Q5_K_M',
  18: 'Q6_K',
  19: 'IQ2_XXS',
  20: 'IQ2_XS',
  21: 'Q2_K_S',
  22: 'IQ3_XS',
  23: 'IQ3_XXS',
  24: 'IQ1_S',
  25: 'IQ4_NL',
  26: 'IQ3_S',
  27: 'IQ3_M',
  28: 'IQ2_S',
  29: 'IQ2_M',
  30: 'IQ4_XS',
  31: 'IQ1_M',
  32: 'BF16',
  36: 'TQ1_0',
  37: 'TQ2_0',
  38: 'MXFP4_MOE',
  39: 'NVFP4',
  40: 'Q1_0',
  41: 'Q2_0',
};

/** Bytes of a tensor of `type` with dimensions `dims` (ggml order), or undefined for an unknown type or a first
 *  dimension that is not a whole number of blocks. */
export function tensorByteSize(type: number, dims: readonly number[]): number | undefined {
  const info = GGML_TYPES[type];
  if (!info) return undefined;
  const [first = 1, ...rest] = dims;
  if (first % info.blockSize !== 0) return undefined;
  return rest.reduce((bytes, d) => bytes * d, (first / info.blockSize) * info.blockBytes);
}
