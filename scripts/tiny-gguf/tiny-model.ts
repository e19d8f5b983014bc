// A llama-architecture GGUF with random weights, a small byte-level BPE vocabulary (Qwen's special tokens included)
// and a ChatML chat template with tools: loadable by llama.cpp (node-llama-cpp), fast, and a few hundred KB at the
// default size. It writes nonsense, but real nonsense: every token goes through the real tokenizer, template,
// sampler and grammar.
//
// One deliberate tweak: the model never ends an answer by itself. Random weights would otherwise pick <|im_end|> at
// a random step (often the first), and the tests need an answer that runs until max_tokens or until it is stopped.
// Embedding dimension 0 holds a constant that no layer writes to, and the output rows of the special tokens weigh
// that dimension strongly negative, so their logits stay far below every ordinary token's.
import { writeFileSync } from 'node:fs';
import { learnBpe } from './bpe';
import { CHATML_TOOLS_TEMPLATE } from './chat-template';
import { encodeGguf, type GgufTensor, type GgufValue } from './gguf-writer';

export interface TinyModelOptions {
  /** Hidden size (default 64). */
  embedding?: number;
  /** Transformer blocks (default 2). */
  layers?: number;
  /** Feed-forward size (default 2 × embedding). */
  feedForward?: number;
  /** Attention heads (default 4) and key/value heads (default half of them: grouped-query attention). */
  heads?: number;
  kvHeads?: number;
  /** BPE merges learnt for the vocabulary (default 160). */
  merges?: number;
  contextLength?: number;
  /** Weight matrices as F16 (default) or F32. */
  matrixType?: 'F16' | 'F32';
  seed?: number;
  name?: string;
  chatTemplate?: string;
  /** Special tokens the model writes at every step instead of never (e.g. ['<think>']: a model that only thinks). */
  favour?: string[];
}

/** Control tokens (ChatML) and the user-defined tokens Qwen adds; all are suppressed (see the top of the file). */
export const TINY_SPECIAL_TOKENS = {
  control: ['<|endoftext|>', '<|im_start|>', '<|im_end|>'],
  userDefined: ['<tool_call>', '</tool_call>', '<tool_response>', '</tool_response>', '<think>', '</think>'],
} as const;

// What the vocabulary is learnt from: the words the tests' prompts and tool calls use.
const CORPUS = `You are a helpful assistant. The user asks; the assistant answers.
What is the weather in Paris today? It is sunny in Paris, 21 degrees. What about Tokyo and London?
Call the function get_weather with the city as its argument. The result of the function is given back.
{"name": "get_weather", "arguments": {"city": "Paris"}} {"name": "calculator", "arguments": {"expression": "17 * 3"}}
# Tools
You can call one or more of the functions below to help answer the user. The signatures of the functions are given
inside <tools></tools> as JSON objects with a type, a name, a description and the parameters: properties, required.
Write the answer in plain words, one sentence after another, and stop when the answer is complete.
the the the and and and of of to to in in is is it it for for on on with with as as this this that that
`;

/** Deterministic normal samples (mulberry32 + Box-Muller). */
function gaussian(seed: number): () => number {
  let a = seed >>> 0;
  const uniform = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => {
    const u = Math.max(uniform(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * uniform());
  };
}

export interface TinyModel {
  bytes: Buffer;
  vocabularySize: number;
  /** Parameters in all tensors. */
  parameterCount: number;
}

export function buildTinyModel(opts: TinyModelOptions = {}): TinyModel {
  const nEmbd = opts.embedding ?? 64;
  const nLayer = opts.layers ?? 2;
  const nFf = opts.feedForward ?? nEmbd * 2;
  const nHead = opts.heads ?? 4;
  const nHeadKv = opts.kvHeads ?? Math.max(1, nHead / 2);
  const headDim = nEmbd / nHead;
  if (!Number.isInteger(headDim) || headDim % 2) throw new Error('embedding / heads must be an even integer');
  const matrixType = opts.matrixType ?? 'F16';
  const random = gaussian(opts.seed ?? 1234);

  const bpe = learnBpe(CORPUS, opts.merges ?? 160);
  const specials = [...TINY_SPECIAL_TOKENS.control, ...TINY_SPECIAL_TOKENS.userDefined];
  const tokens = [...bpe.tokens, ...specials];
  const tokenTypes = [
    ...bpe.tokens.map(() => 1), // normal
    ...TINY_SPECIAL_TOKENS.control.map(() => 3),
    ...TINY_SPECIAL_TOKENS.userDefined.map(() => 4),
  ];
  const nVocab = tokens.length;
  const idOf = (t: string) => tokens.indexOf(t);
  const suppressed = new Set(specials.map(idOf));

  const matrix = (nIn: number, nOut: number, scale = 1 / Math.sqrt(nIn)) => {
    const data = new Float32Array(nIn * nOut);
    for (let i = 0; i < data.length; i++) data[i] = random() * scale;
    return data;
  };
  const ones = (n: number) => new Float32Array(n).fill(1);
  /** Rows are outputs: zero the row that would write the constant dimension. */
  const sparingDim0 = (data: Float32Array, nIn: number) => {
    data.fill(0, 0, nIn);
    return data;
  };
  const tensor = (name: string, dims: number[], data: Float32Array, type: 'F16' | 'F32' = matrixType): GgufTensor => ({
    name,
    dims,
    type,
    data,
  });

  const embeddings = matrix(nEmbd, nVocab, 0.5);
  for (let t = 0; t < nVocab; t++) embeddings[t * nEmbd] = 4; // the constant dimension
  const output = matrix(nEmbd, nVocab);
  const favoured = new Set((opts.favour ?? []).map(idOf));
  for (let t = 0; t < nVocab; t++) output[t * nEmbd] = favoured.has(t) ? 50 : suppressed.has(t) ? -50 : 0;

  const tensors: GgufTensor[] = [tensor('token_embd.weight', [nEmbd, nVocab], embeddings)];
  for (let i = 0; i < nLayer; i++) {
    const blk = `blk.${i}`;
    tensors.push(
      tensor(`${blk}.attn_norm.weight`, [nEmbd], ones(nEmbd), 'F32'),
      tensor(`${blk}.attn_q.weight`, [nEmbd, nHead * headDim], matrix(nEmbd, nHead * headDim)),
      tensor(`${blk}.attn_k.weight`, [nEmbd, nHeadKv * headDim], matrix(nEmbd, nHeadKv * headDim)),
      tensor(`${blk}.attn_v.weight`, [nEmbd, nHeadKv * headDim], matrix(nEmbd, nHeadKv * headDim)),
      tensor(
        `${blk}.attn_output.weight`,
        [nHead * headDim, nEmbd],
        sparingDim0(matrix(nHead * headDim, nEmbd), nHead * headDim),
      ),
      tensor(`${blk}.ffn_norm.weight`, [nEmbd], ones(nEmbd), 'F32'),
      tensor(`${blk}.ffn_gate.weight`, [nEmbd, nFf], matrix(nEmbd, nFf)),
      tensor(`${blk}.ffn_up.weight`, [nEmbd, nFf], matrix(nEmbd, nFf)),
      tensor(`${blk}.ffn_down.weight`, [nFf, nEmbd], sparingDim0(matrix(nFf, nEmbd), nFf)),
    );
  }
  tensors.push(
    tensor('output_norm.weight', [nEmbd], ones(nEmbd), 'F32'),
    tensor('output.weight', [nEmbd, nVocab], output),
  );

  const u32 = (value: number): GgufValue => ({ type: 'u32', value });
  const f32 = (value: number): GgufValue => ({ type: 'f32', value });
  const str = (value: string): GgufValue => ({ type: 'string', value });
  const metadata: Record<string, GgufValue> = {
    'general.architecture': str('llama'),
    'general.name': str(opts.name ?? 'Agent Studio tiny test model'),
    'general.file_type': u32(matrixType === 'F16' ? 1 : 0),
    'general.alignment': u32(32),
    'llama.context_length': u32(opts.contextLength ?? 4096),
    'llama.embedding_length': u32(nEmbd),
    'llama.block_count': u32(nLayer),
    'llama.feed_forward_length': u32(nFf),
    'llama.rope.dimension_count': u32(headDim),
    'llama.rope.freq_base': f32(10000),
    'llama.attention.head_count': u32(nHead),
    'llama.attention.head_count_kv': u32(nHeadKv),
    'llama.attention.layer_norm_rms_epsilon': f32(1e-5),
    'llama.vocab_size': u32(nVocab),
    'tokenizer.ggml.model': str('gpt2'),
    'tokenizer.ggml.pre': str('qwen2'),
    'tokenizer.ggml.tokens': { type: 'array', itemType: 'string', values: tokens },
    'tokenizer.ggml.token_type': { type: 'array', itemType: 'i32', values: tokenTypes },
    'tokenizer.ggml.merges': { type: 'array', itemType: 'string', values: bpe.merges },
    'tokenizer.ggml.eos_token_id': u32(idOf('<|im_end|>')),
    'tokenizer.ggml.padding_token_id': u32(idOf('<|endoftext|>')),
    'tokenizer.ggml.bos_token_id': u32(idOf('<|endoftext|>')),
    'tokenizer.ggml.add_bos_token': { type: 'bool', value: false },
    'tokenizer.chat_template': str(opts.chatTemplate ?? CHATML_TOOLS_TEMPLATE),
  };

  const parameterCount = tensors.reduce((sum, t) => sum + t.data.length, 0);
  return { bytes: encodeGguf({ metadata, tensors }), vocabularySize: nVocab, parameterCount };
}

/** Writes a tiny model to `file`; returns what was written. */
export function writeTinyModel(file: string, opts: TinyModelOptions = {}): TinyModel {
  const model = buildTinyModel(opts);
  writeFileSync(file, model.bytes);
  return model;
}
