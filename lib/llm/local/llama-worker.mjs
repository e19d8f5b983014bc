// The thread that runs llama.cpp (node-llama-cpp) for LocalModelHost, so that evaluating a model never blocks the
// server's event loop. Plain ESM JavaScript because it is started with `new Worker(file)` directly (no TypeScript
// loader in production); lib/llm/local/worker-protocol.ts describes its messages.
//
// One model is loaded once per file and kept; its single context sequence serves one generation at a time (the
// rest wait in order). The model's own chat template renders every prompt (node-llama-cpp's Jinja chat wrapper).
import { parentPort } from 'node:worker_threads';
import {
  getLlama,
  JinjaTemplateChatWrapper,
  LlamaChat,
  LlamaLogLevel,
  LlamaText,
  resolveChatWrapper,
} from 'node-llama-cpp';

/** @type {Map<string, Promise<import('node-llama-cpp').Llama>>} */
const llamas = new Map();
/** @type {Map<string, {key: string, ready: Promise<any>}>} by model path */
const models = new Map();
/** @type {Map<number, AbortController>} */
const controllers = new Map();

const post = (msg) => parentPort.postMessage(msg);

/** Chunks to the server's thread: the first at once, then merged over STREAM_INTERVAL_MS, so a fast model costs
 *  the server one message (and one stored event) per interval rather than per token. */
const STREAM_INTERVAL_MS = 16;
function streamer(id) {
  let kind;
  let text = '';
  let timer;
  let first = true;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (text) post({ id, type: 'chunk', kind, text });
    text = '';
  };
  const emit = (k, t) => {
    if (k !== kind && text) flush();
    kind = k;
    text += t;
    if (first) {
      first = false;
      flush();
    } else timer ??= setTimeout(flush, STREAM_INTERVAL_MS);
  };
  return { emit, flush };
}

function llamaFor(gpu) {
  const key = gpu === false ? 'cpu' : 'auto';
  let llama = llamas.get(key);
  if (!llama) {
    // build: 'never': only the prebuilt binaries that came with the package; nothing is compiled or downloaded.
    llama = getLlama({ gpu: gpu === false ? false : 'auto', build: 'never', logLevel: LlamaLogLevel.warn });
    llamas.set(key, llama);
  }
  return llama;
}

function chatWrapperFor(model) {
  const template = model.fileInfo.metadata?.tokenizer?.chat_template;
  if (typeof template === 'string' && template.trim()) {
    try {
      return new JinjaTemplateChatWrapper({ template, tokenizer: model.tokenizer });
    } catch {
      // A template the Jinja engine cannot run: node-llama-cpp's own choice for this model instead.
    }
  }
  return resolveChatWrapper(model);
}

async function load(path, opts) {
  const started = performance.now();
  const llama = await llamaFor(opts.gpu);
  const model = await llama.loadModel({ modelPath: path });
  const contextSize = Math.max(256, Math.min(opts.contextSize, model.trainContextSize || opts.contextSize));
  const context = await model.createContext({ contextSize, threads: opts.threads, sequences: 1 });
  const sequence = context.getSequence();
  const inner = chatWrapperFor(model);
  const entry = {
    llama,
    model,
    context,
    sequence,
    inner,
    /** Functions the template renders although function calling is off (a grammar-forced native call). */
    renderFunctions: undefined,
    queue: Promise.resolve(),
    info: {
      path,
      contextSize: context.contextSize,
      trainContextSize: model.trainContextSize,
      gpu: llama.gpu,
      templateTools: inner instanceof JinjaTemplateChatWrapper && inner.usingJinjaFunctionCallTemplate,
      chatWrapper: inner.wrapperName,
      loadMs: Math.round(performance.now() - started),
    },
  };
  // node-llama-cpp refuses a grammar together with functions; the forced native call needs the tools in the prompt
  // all the same, so the wrapper it is given adds them when asked to render without any.
  entry.wrapper = new Proxy(inner, {
    get(target, prop) {
      if (prop === 'generateContextState')
        return (o) =>
          target.generateContextState({ ...o, availableFunctions: o.availableFunctions ?? entry.renderFunctions });
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  entry.chat = new LlamaChat({ contextSequence: sequence, chatWrapper: entry.wrapper });
  return entry;
}

function loaded(path, opts) {
  const key = JSON.stringify([opts.gpu, opts.contextSize, opts.threads]);
  const current = models.get(path);
  if (current && current.key === key) return current.ready;
  if (current)
    current.ready.then(
      (e) => dispose(e),
      () => {},
    );
  const ready = load(path, opts);
  models.set(path, { key, ready });
  ready.catch(() => {
    if (models.get(path)?.ready === ready) models.delete(path);
  });
  return ready;
}

async function dispose(entry) {
  await entry.queue;
  if (entry.embedding) await (await entry.embedding.catch(() => undefined))?.dispose();
  entry.chat.dispose?.();
  await entry.context.dispose();
  await entry.model.dispose();
}

/** Runs `job` after the model's earlier generations: one context sequence, one generation at a time. */
function serial(entry, job) {
  const run = entry.queue.then(job);
  entry.queue = run.catch(() => {});
  return run;
}

const textOf = (v) => (v == null ? '' : LlamaText(v).toString());

function withPrefill(history, text) {
  const copy = history.slice();
  const last = copy[copy.length - 1];
  const response = last?.type === 'model' ? last.response.slice() : [];
  const tail = response[response.length - 1];
  if (typeof tail === 'string') response[response.length - 1] = tail + text;
  else response.push(text);
  if (last?.type === 'model') copy[copy.length - 1] = { ...last, response };
  else copy.push({ type: 'model', response });
  return copy;
}

function promptTokens(entry, history, functions) {
  const state = entry.wrapper.generateContextState({ chatHistory: history, availableFunctions: functions });
  return state.contextText.tokenize(entry.model.tokenizer).length;
}

/** One generateResponse call; streams through `emit`, returns node-llama-cpp's result and its token counts. */
async function generate(entry, history, { functions, grammar, sampling, signal, emit, timing }) {
  const before = entry.sequence.tokenMeter.getState().usedOutputTokens;
  const result = await entry.chat.generateResponse(history, {
    ...(functions ? { functions } : {}),
    ...(grammar ? { grammar } : {}),
    maxTokens: sampling.maxTokens,
    temperature: sampling.temperature,
    topP: sampling.topP,
    topK: sampling.topK,
    seed: sampling.seed,
    customStopTriggers: sampling.stop.length ? sampling.stop : undefined,
    signal,
    stopOnAbortSignal: true,
    onResponseChunk(chunk) {
      if (!chunk.text) return;
      timing.firstToken ??= performance.now();
      emit(chunk.type === 'segment' ? 'reasoning' : 'text', chunk.text);
    },
  });
  return { result, completionTokens: entry.sequence.tokenMeter.getState().usedOutputTokens - before };
}

function gbnfLiteral(s) {
  return JSON.stringify(s); // a GBNF string literal takes the same escapes as JSON for these characters
}

async function chat(msg, signal) {
  const entry = await loaded(msg.path, msg.load);
  return serial(entry, async () => {
    const started = performance.now();
    const timing = { firstToken: undefined };
    const stream = streamer(msg.id);
    const emit = stream.emit;
    const base = { sampling: msg.sampling, signal, emit, timing };
    const forced = msg.forced;
    let text = '';
    let reasoning = '';
    const functionCalls = [];
    let stopReason;
    let completionTokens = 0;
    let prompt;
    try {
      if (signal.aborted) stopReason = 'abort';
      else if (!forced) {
        prompt = promptTokens(entry, msg.history, msg.functions);
        const r = await generate(entry, msg.history, { ...base, functions: msg.functions });
        completionTokens = r.completionTokens;
        stopReason = r.result.metadata.stopReason;
        for (const item of r.result.fullResponse) {
          if (typeof item === 'string') text += item;
          else if (item.type === 'segment') reasoning += item.text;
        }
        for (const call of r.result.functionCalls ?? [])
          functionCalls.push({ name: call.functionName, params: call.params, raw: textOf(call.raw) });
      } else if (forced.kind === 'text') {
        prompt = promptTokens(entry, msg.history);
        const grammar = await entry.llama.createGrammarForJsonSchema(forced.schema);
        emit('text', forced.prefix);
        const r = await generate(entry, withPrefill(msg.history, forced.prefix), { ...base, grammar });
        completionTokens = r.completionTokens;
        stopReason = r.result.metadata.stopReason;
        if (stopReason !== 'abort' && stopReason !== 'maxTokens') emit('text', forced.suffix);
        text = forced.prefix + r.result.response + (stopReason === 'maxTokens' ? '' : forced.suffix);
      } else {
        // Native: the call in the template's own syntax, its name chosen (or picked under a grammar), its
        // arguments under the JSON-schema grammar of that function's parameters. Like any native call, it is not
        // streamed as text.
        const syntax = entry.inner.settings.functions;
        const names = Object.keys(msg.functions ?? {});
        entry.renderFunctions = msg.functions;
        try {
          prompt = promptTokens(entry, msg.history);
          let prefill = textOf(syntax.call.prefix);
          let name = forced.name ?? (names.length === 1 ? names[0] : undefined);
          if (!name) {
            const grammar = await entry.llama.createGrammar({
              grammar: `root ::= ${names.map(gbnfLiteral).join(' | ')}`,
            });
            const r = await generate(entry, withPrefill(msg.history, prefill), { ...base, grammar, emit: () => {} });
            completionTokens += r.completionTokens;
            name = r.result.response.trim();
            stopReason = r.result.metadata.stopReason;
          }
          if (stopReason !== 'abort' && names.includes(name)) {
            prefill += name + textOf(syntax.call.paramsPrefix).replaceAll('{{functionName}}', name);
            const grammar = await entry.llama.createGrammarForJsonSchema(msg.functions[name].params);
            const r = await generate(entry, withPrefill(msg.history, prefill), { ...base, grammar, emit: () => {} });
            completionTokens += r.completionTokens;
            stopReason = r.result.metadata.stopReason;
            if (stopReason !== 'abort' && stopReason !== 'maxTokens') {
              const args = r.result.response;
              functionCalls.push({
                name,
                params: JSON.parse(args),
                raw: prefill + args + textOf(syntax.call.suffix).replaceAll('{{functionName}}', name),
              });
              stopReason = 'functionCalls';
            }
          }
        } finally {
          entry.renderFunctions = undefined;
        }
      }
    } finally {
      stream.flush(); // every chunk goes before the answer
    }
    return {
      text,
      reasoning,
      functionCalls,
      stopReason,
      promptTokens: prompt ?? 0,
      completionTokens,
      ttftMs: timing.firstToken === undefined ? undefined : timing.firstToken - started,
      durationMs: performance.now() - started,
    };
  });
}

/** One vector per text (an embedding context beside the chat's, made on first use); a text longer than that
 *  context is cut to its first tokens, as embedding servers truncate. Serial with the model's generations. */
async function embed(msg) {
  const entry = await loaded(msg.path, msg.load);
  entry.embedding ??= entry.model.createEmbeddingContext({
    contextSize: entry.context.contextSize,
    threads: msg.load.threads,
  });
  const context = await entry.embedding;
  return serial(entry, async () => {
    const vectors = [];
    for (const text of msg.texts) {
      const tokens = entry.model.tokenize(text);
      const { vector } = await context.getEmbeddingFor(tokens.slice(0, context.contextSize ?? tokens.length));
      vectors.push(Float32Array.from(vector));
    }
    return vectors;
  });
}

async function handle(msg) {
  switch (msg.op) {
    case 'load':
      return (await loaded(msg.path, msg.load)).info;
    case 'chat': {
      const controller = controllers.get(msg.id);
      return chat(msg, controller.signal);
    }
    case 'embed':
      return embed(msg);
    case 'count': {
      const entry = await loaded(msg.path, msg.load);
      return entry.model.tokenize(msg.text, false).length;
    }
    case 'count-prompt': {
      const entry = await loaded(msg.path, msg.load);
      return promptTokens(entry, msg.history, msg.functions);
    }
    case 'unload': {
      const current = models.get(msg.path);
      models.delete(msg.path);
      if (current) await dispose(await current.ready);
      return true;
    }
    default:
      throw new Error(`unknown request ${String(msg.op)}`);
  }
}

parentPort.on('message', (msg) => {
  if (msg.op === 'abort') {
    controllers.get(msg.id)?.abort();
    return;
  }
  if (msg.op === 'chat') controllers.set(msg.id, new AbortController());
  handle(msg)
    .then(
      (value) => post({ id: msg.id, type: 'done', value }),
      (e) => post({ id: msg.id, type: 'error', error: { name: e?.name ?? 'Error', message: e?.message ?? String(e) } }),
    )
    .finally(() => controllers.delete(msg.id));
});
