// Embeddings: texts to vectors, for vector search over document chunks. A model connection makes them through its
// server's OpenAI-compatible POST {baseURL}/embeddings (the same client as its chat calls, so the same address policy,
// key and timeouts); the built-in local model through node-llama-cpp (local/local-embedder.ts).
import { ModelServiceError } from './errors';
import { abortError, retryDelayMs, sleep } from './retry';

export interface Embedder {
  /** What makes the vectors (the server and model, or the GGUF file): stored vectors are reused only under the same
   *  id, so vectors of two models are never compared. */
  readonly id: string;
  /** One vector per text, in order. */
  embed(texts: readonly string[], opts?: { signal?: AbortSignal }): Promise<Float32Array[]>;
}

/** Texts per request: well under the servers' limits (OpenAI takes 2048 inputs), few requests per document. */
export const EMBED_BATCH = 64;

/** The id of vectors a server's model makes: its URL (no credentials, no query) and the model's name. */
export function serverEmbedderId(baseURL: string, model: string): string {
  let where = baseURL;
  try {
    const u = new URL(baseURL);
    where = `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    // not a URL: kept as given
  }
  return `${where}#${model}`;
}

export interface ServerEmbedderOptions {
  /** Any failure of a request as a ModelServiceError (the chat model's own reading of the SDK's errors). */
  toError: (e: unknown) => ModelServiceError;
  maxRetries?: number;
  retryBaseDelayMs?: number;
  timeoutMs?: number;
}

/** What the embedder uses of the connection's OpenAI client. Said here rather than as the SDK's class, so that the
 *  core's bundled declarations (packages/core) need none of the SDK's internal fetch types. */
export interface EmbeddingsClient {
  readonly baseURL: string;
  embeddings: {
    create(
      body: { model: string; input: string[]; encoding_format: 'float' },
      options: { signal?: AbortSignal; timeout?: number },
    ): PromiseLike<{ data: { index: number; embedding: unknown }[] }>;
  };
}

/** POST {baseURL}/embeddings through the connection's own OpenAI client, EMBED_BATCH texts per request. */
export class ServerEmbedder implements Embedder {
  readonly id: string;

  constructor(
    private readonly client: EmbeddingsClient,
    readonly model: string,
    private readonly opts: ServerEmbedderOptions,
  ) {
    this.id = serverEmbedderId(client.baseURL, model);
  }

  async embed(texts: readonly string[], opts: { signal?: AbortSignal } = {}): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += EMBED_BATCH) {
      out.push(...(await this.batch(texts.slice(i, i + EMBED_BATCH), opts.signal)));
    }
    return out;
  }

  private async batch(input: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const maxRetries = this.opts.maxRetries ?? 2;
    for (let attempt = 0; ; attempt++) {
      try {
        // 'float': every OpenAI-compatible server answers it (the SDK's default, base64, is not universal).
        const res = await this.client.embeddings.create(
          { model: this.model, input, encoding_format: 'float' },
          { signal, ...(this.opts.timeoutMs ? { timeout: this.opts.timeoutMs } : {}) },
        );
        return vectorsOf(res.data, input.length);
      } catch (e) {
        if (signal?.aborted) throw abortError();
        const err = embeddingError(this.opts.toError(e), this.model);
        if (!err.retryable || attempt >= maxRetries) throw err;
        await sleep(retryDelayMs(attempt + 1, err, this.opts.retryBaseDelayMs ?? 1000), signal);
      }
    }
  }
}

/** The answer's vectors in input order; a malformed answer (missing vectors, mixed lengths, not numbers) throws. */
export function vectorsOf(data: readonly { index: number; embedding: unknown }[], expected: number): Float32Array[] {
  const bad = (why: string) =>
    new ModelServiceError(`The embeddings endpoint gave an unusable answer: ${why}.`, {
      code: 'embeddings-malformed',
      values: { detail: why },
    });
  if (!Array.isArray(data) || data.length !== expected)
    throw bad(`${Array.isArray(data) ? data.length : 'no'} vectors for ${expected} texts`);
  const out: Float32Array[] = new Array(expected);
  let dims = -1;
  for (const item of data) {
    const v = item?.embedding;
    if (!Number.isInteger(item?.index) || item.index < 0 || item.index >= expected || out[item.index])
      throw bad('the vectors are not numbered 0 to n-1');
    if (!Array.isArray(v) || !v.length || !v.every((x) => typeof x === 'number' && Number.isFinite(x)))
      throw bad('a vector is not a list of numbers');
    if (dims >= 0 && v.length !== dims) throw bad(`vectors of ${dims} and ${v.length} numbers`);
    dims = v.length;
    out[item.index] = Float32Array.from(v as number[]);
  }
  return out;
}

function embeddingError(err: ModelServiceError, model: string): ModelServiceError {
  if (err.code === 'embeddings-malformed' || err.code === 'address-refused') return err;
  const hint =
    err.status === 404 || err.status === 400
      ? ` (does the server make embeddings with the model "${model}"? Name another with embedding_model or RAG_EMBEDDING_MODEL.)`
      : '';
  return new ModelServiceError(`Embeddings failed: ${err.message}${hint}`, {
    status: err.status,
    code: err.code,
    values: err.values,
    retryable: err.retryable,
    retryAfterMs: err.retryAfterMs,
    cause: err,
  });
}
