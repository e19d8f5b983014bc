// The short list of small Qwen instruct GGUFs offered for download, as data. Every file comes from the Qwen team's
// own repositories on huggingface.co. Sizes are as the publisher lists them (rounded); they were not downloaded or
// checked from this project's CI, which has no internet: the download itself goes by what the server sends, and the
// file is checked by its GGUF header before it is kept.

export interface CatalogModel {
  /** Stable id (also the file name, without .gguf, it is saved under). */
  id: string;
  /** What the page shows. */
  name: string;
  /** Parameters, as the model card says them. */
  parameters: string;
  /** llama.cpp's name of the quantisation. */
  quantization: string;
  /** Size as the publisher lists it (approximate: not measured here). */
  sizeBytes: number;
  url: string;
  /** SPDX id, or the name of the model's own licence. */
  license: string;
  licenseUrl: string;
  /** Context the model was trained for, in tokens. */
  contextLength: number;
}

const HF = 'https://huggingface.co';

export const LOCAL_MODEL_CATALOG: readonly CatalogModel[] = [
  {
    id: 'qwen2.5-0.5b-instruct-q4_k_m',
    name: 'Qwen2.5 0.5B Instruct',
    parameters: '0.5B',
    quantization: 'Q4_K_M',
    sizeBytes: 491_000_000,
    url: `${HF}/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/qwen2.5-0.5b-instruct-q4_k_m.gguf`,
    license: 'Apache-2.0',
    licenseUrl: `${HF}/Qwen/Qwen2.5-0.5B-Instruct/blob/main/LICENSE`,
    contextLength: 32_768,
  },
  {
    id: 'qwen2.5-1.5b-instruct-q4_k_m',
    name: 'Qwen2.5 1.5B Instruct',
    parameters: '1.5B',
    quantization: 'Q4_K_M',
    sizeBytes: 1_120_000_000,
    url: `${HF}/Qwen/Qwen2.5-1.5B-Instruct-GGUF/resolve/main/qwen2.5-1.5b-instruct-q4_k_m.gguf`,
    license: 'Apache-2.0',
    licenseUrl: `${HF}/Qwen/Qwen2.5-1.5B-Instruct/blob/main/LICENSE`,
    contextLength: 32_768,
  },
  {
    id: 'qwen2.5-3b-instruct-q4_k_m',
    name: 'Qwen2.5 3B Instruct',
    parameters: '3B',
    quantization: 'Q4_K_M',
    sizeBytes: 2_100_000_000,
    url: `${HF}/Qwen/Qwen2.5-3B-Instruct-GGUF/resolve/main/qwen2.5-3b-instruct-q4_k_m.gguf`,
    license: 'Qwen Research License',
    licenseUrl: `${HF}/Qwen/Qwen2.5-3B-Instruct/blob/main/LICENSE`,
    contextLength: 32_768,
  },
  {
    id: 'Qwen3-0.6B-Q8_0',
    name: 'Qwen3 0.6B',
    parameters: '0.6B',
    quantization: 'Q8_0',
    sizeBytes: 639_000_000,
    url: `${HF}/Qwen/Qwen3-0.6B-GGUF/resolve/main/Qwen3-0.6B-Q8_0.gguf`,
    license: 'Apache-2.0',
    licenseUrl: `${HF}/Qwen/Qwen3-0.6B/blob/main/LICENSE`,
    contextLength: 32_768,
  },
  {
    id: 'Qwen3-1.7B-Q8_0',
    name: 'Qwen3 1.7B',
    parameters: '1.7B',
    quantization: 'Q8_0',
    sizeBytes: 1_830_000_000,
    url: `${HF}/Qwen/Qwen3-1.7B-GGUF/resolve/main/Qwen3-1.7B-Q8_0.gguf`,
    license: 'Apache-2.0',
    licenseUrl: `${HF}/Qwen/Qwen3-1.7B/blob/main/LICENSE`,
    contextLength: 32_768,
  },
  {
    id: 'Qwen3-4B-Q4_K_M',
    name: 'Qwen3 4B',
    parameters: '4B',
    quantization: 'Q4_K_M',
    sizeBytes: 2_500_000_000,
    url: `${HF}/Qwen/Qwen3-4B-GGUF/resolve/main/Qwen3-4B-Q4_K_M.gguf`,
    license: 'Apache-2.0',
    licenseUrl: `${HF}/Qwen/Qwen3-4B/blob/main/LICENSE`,
    contextLength: 32_768,
  },
];

export function catalogModel(id: string): CatalogModel | undefined {
  return LOCAL_MODEL_CATALOG.find((m) => m.id === id);
}
