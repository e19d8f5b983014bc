// The server's side of the llama.cpp worker thread: starts it on first use, routes requests and streamed chunks by
// id, keeps the process alive only while a request is pending, and restarts the worker after a crash. One host (and
// so one worker, holding every loaded model) serves the whole process: localModelHost().
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { coreFile } from '../../config/core-files';
import { isMissingPackage, MissingPackageError } from '../../config/optional-package';
import { processWide } from '../../config/process-wide';
import { ModelServiceError } from '../errors';
import type { HostRequest, LoadedModelInfo, LoadOptions, WorkerChatResult, WorkerMessage } from './worker-protocol';

type ChatRequest = Omit<Extract<HostRequest, { op: 'chat' }>, 'op' | 'id'>;
type Chunk = { kind: 'text' | 'reasoning'; text: string };

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  onChunk?: (chunk: Chunk) => void;
}

export interface LocalModelHostOptions {
  /** The worker script (default lib/llm/local/llama-worker.mjs under the working directory, like the app's). */
  workerScript?: string;
}

function defaultWorkerScript(): string {
  return coreFile('lib', 'llm', 'local', 'llama-worker.mjs');
}

export class LocalModelHost {
  private worker?: Worker;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly loads = new Map<string, Promise<LoadedModelInfo>>();
  private readonly script: string;

  constructor(opts: LocalModelHostOptions = {}) {
    this.script = opts.workerScript ?? defaultWorkerScript();
  }

  /** Loads the model at `file` (once; later calls get the same answer) and says how it runs. */
  load(file: string, load: LoadOptions): Promise<LoadedModelInfo> {
    const key = JSON.stringify([file, load]);
    let info = this.loads.get(key);
    if (!info) {
      info = this.request<LoadedModelInfo>({ op: 'load', path: file, load }).catch((e: Error) => {
        this.loads.delete(key);
        const model = path.basename(file);
        throw new ModelServiceError(`The local model ${model} could not be loaded: ${e.message}`, {
          code: 'local-model-load-failed',
          values: { model, detail: e.message },
          cause: e,
        });
      });
      this.loads.set(key, info);
    }
    return info;
  }

  /** One generation; chunks stream to `onChunk`; aborting `signal` stops it at the next token. */
  chat(req: ChatRequest, onChunk: (chunk: Chunk) => void, signal?: AbortSignal): Promise<WorkerChatResult> {
    return this.request<WorkerChatResult>({ op: 'chat', ...req }, onChunk, signal);
  }

  /** One embedding per text, made by the model at `file` (loaded once, as for chat). */
  embed(file: string, load: LoadOptions, texts: string[]): Promise<Float32Array[]> {
    return this.request<Float32Array[]>({ op: 'embed', path: file, load, texts });
  }

  /** Tokens of `text` in the model's own tokenizer (special-token markup counted as plain text). */
  countTokens(file: string, load: LoadOptions, text: string): Promise<number> {
    return this.request<number>({ op: 'count', path: file, load, text });
  }

  /** Tokens of the prompt the model's chat template renders from `history` (and the functions it lists). */
  countPromptTokens(
    file: string,
    load: LoadOptions,
    history: Extract<HostRequest, { op: 'count-prompt' }>['history'],
    functions?: Extract<HostRequest, { op: 'count-prompt' }>['functions'],
  ): Promise<number> {
    return this.request<number>({ op: 'count-prompt', path: file, load, history, functions });
  }

  /** Frees the model's memory; the next request loads it again. */
  async unload(file: string): Promise<void> {
    for (const key of [...this.loads.keys()]) if (JSON.parse(key)[0] === file) this.loads.delete(key);
    if (this.worker) await this.request({ op: 'unload', path: file });
  }

  /** Stops the worker and every model in it; requests still pending fail. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.loads.clear();
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.reject(new ModelServiceError('The local model worker was stopped.'));
    }
    if (worker) await worker.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.script);
    worker.unref();
    const fail = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.loads.clear();
      for (const [id, p] of this.pending) {
        this.pending.delete(id);
        p.reject(error);
      }
    };
    worker.on('message', (msg: WorkerMessage) => {
      const p = this.pending.get(msg.id);
      if (!p) return;
      if (msg.type === 'chunk') return p.onChunk?.({ kind: msg.kind, text: msg.text });
      this.pending.delete(msg.id);
      if (!this.pending.size) worker.unref();
      if (msg.type === 'done') p.resolve(msg.value);
      else p.reject(Object.assign(new Error(msg.error.message), { name: msg.error.name }));
    });
    worker.on('error', (e) =>
      fail(
        isMissingPackage(e, 'node-llama-cpp')
          ? new MissingPackageError('node-llama-cpp', 'Running a local GGUF model', { cause: e })
          : new ModelServiceError(`The local model worker failed: ${e.message}`, { cause: e }),
      ),
    );
    worker.on('exit', (code) => fail(new ModelServiceError(`The local model worker stopped (exit code ${code}).`)));
    this.worker = worker;
    return worker;
  }

  private request<T>(body: DistributiveOmit<HostRequest, 'id'>, onChunk?: (c: Chunk) => void, signal?: AbortSignal) {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => worker.postMessage({ op: 'abort', id } satisfies HostRequest);
      this.pending.set(id, {
        resolve: (v) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(v as T);
        },
        reject: (e) => {
          signal?.removeEventListener('abort', onAbort);
          reject(e);
        },
        onChunk,
      });
      if (this.pending.size === 1) worker.ref();
      worker.postMessage({ ...body, id } as HostRequest);
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** The process's host (one worker for all local models), kept across module reloads in development. */
export function localModelHost(): LocalModelHost {
  return processWide('local-model-host', () => new LocalModelHost());
}
