// bench/local-model: tokens per second of local generation through the agent loop (FnCallAgent → LocalChatModel →
// the llama.cpp worker thread, every delta streamed back as an event) against node-llama-cpp's own generation loop
// (LlamaChat.generateResponse in this thread), on the same GGUF, prompt, chat template and sampling, alternating
// conversation by conversation in one run. Goal: ours ≥ 0.95 of node-llama-cpp's tokens/s.
// The GGUF is a random-weights llama model written by scripts/tiny-gguf to a temp dir (about 50 MB at the default
// size, so that evaluating the model, not the code around it, is what a token costs). It never ends an answer by
// itself, so every conversation generates exactly --tokens tokens.
// Run: npm run bench:local [-- --rounds 16 --tokens 128 --embedding 512 --layers 8 --threads 1]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FnCallAgent } from '../lib/agent';
import { loadConfig } from '../lib/config';
import { LocalChatModel } from '../lib/llm/local/local-model';
import { LocalModelHost } from '../lib/llm/local/worker-host';
import { writeTinyModel } from '../scripts/tiny-gguf/tiny-model';
import { flag } from './support/flags';
import { quantile } from './support/stats';

const ROUNDS = Number(flag('rounds', '16'));
const TOKENS = Number(flag('tokens', '128'));
const EMBEDDING = Number(flag('embedding', '512'));
const LAYERS = Number(flag('layers', '8'));
const THREADS = Number(flag('threads', String(loadConfig().localModels.threads)));
const CONTEXT = 2048;
const SYSTEM = 'You are a helpful assistant.';
const QUESTION = 'Tell me about the weather in Paris and what to wear there today.';
// The sampling both sides use (LocalChatModel fills top_p / top_k with Qwen's defaults; the baseline gets them too).
const SAMPLING = { temperature: 0, topP: 0.8, topK: 20 };

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-local-'));
  const file = path.join(dir, 'bench.gguf');
  const written = writeTinyModel(file, {
    embedding: EMBEDDING,
    layers: LAYERS,
    feedForward: EMBEDDING * 3,
    heads: 8,
    kvHeads: 4,
  });
  const host = new LocalModelHost();
  const { getLlama, JinjaTemplateChatWrapper, LlamaChat, LlamaLogLevel } = await import('node-llama-cpp');
  try {
    // Ours: the agent loop on the worker.
    const llm = new LocalChatModel({
      file,
      host,
      load: { gpu: false, threads: THREADS, contextSize: CONTEXT },
      generateCfg: { temperature: SAMPLING.temperature, max_tokens: TOKENS },
    });
    const agent = new FnCallAgent({ llm, systemMessage: SYSTEM });
    const ours = async (): Promise<number> => {
      let tokens = 0;
      for await (const e of agent.runEvents([{ role: 'user', content: QUESTION }]))
        if (e.type === 'llm-end') tokens += e.usage?.completionTokens ?? 0;
        else if (e.type === 'run-end' && e.error) throw new Error(e.error.message);
      return tokens;
    };

    // Baseline: node-llama-cpp's own loop, same file, template, context and sampling, in this thread.
    const llama = await getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.warn });
    const model = await llama.loadModel({ modelPath: file });
    const context = await model.createContext({ contextSize: CONTEXT, threads: THREADS, sequences: 1 });
    const sequence = context.getSequence();
    const chatWrapper = new JinjaTemplateChatWrapper({
      template: model.fileInfo.metadata.tokenizer.chat_template!,
      tokenizer: model.tokenizer,
    });
    const chat = new LlamaChat({ contextSequence: sequence, chatWrapper });
    const baseline = async (): Promise<number> => {
      const before = sequence.tokenMeter.getState().usedOutputTokens;
      await chat.generateResponse(
        [
          { type: 'system', text: SYSTEM },
          { type: 'user', text: QUESTION },
          { type: 'model', response: [] },
        ],
        { maxTokens: TOKENS, ...SAMPLING, onTextChunk: () => {} },
      );
      return sequence.tokenMeter.getState().usedOutputTokens - before;
    };

    // tokens/s, and the process's CPU time (all its threads) per answer: on a busy machine the wall clock is noisy,
    // the CPU time less so.
    const cpu = { ours: [] as number[], baseline: [] as number[] };
    const timed = async (run: () => Promise<number>, cpuInto?: number[]) => {
      const cpu0 = process.cpuUsage();
      const start = performance.now();
      const tokens = await run();
      const seconds = (performance.now() - start) / 1000;
      const used = process.cpuUsage(cpu0);
      cpuInto?.push((used.user + used.system) / 1000);
      if (tokens !== TOKENS) throw new Error(`expected ${TOKENS} tokens, got ${tokens}`);
      return tokens / seconds;
    };
    await timed(ours); // warm-up: loads the model in the worker, first prompt evaluation
    await timed(baseline);

    const oursRates: number[] = [];
    const baseRates: number[] = [];
    const ratios: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      // Alternate which goes first so drift on a shared machine hits both alike.
      const first = i % 2 === 0 ? 'ours' : 'baseline';
      const a = await timed(first === 'ours' ? ours : baseline, first === 'ours' ? cpu.ours : cpu.baseline);
      const b = await timed(first === 'ours' ? baseline : ours, first === 'ours' ? cpu.baseline : cpu.ours);
      const [o, n] = first === 'ours' ? [a, b] : [b, a];
      oursRates.push(o);
      baseRates.push(n);
      ratios.push(o / n);
    }
    const fmt = (x: number) => x.toFixed(1).padStart(7);
    console.log(
      `local-model: ${ROUNDS} conversations each, ${TOKENS} tokens per answer, ` +
        `random llama GGUF ${(written.bytes.length / 1e6).toFixed(1)} MB (${(written.parameterCount / 1e6).toFixed(1)}M ` +
        `params, ${LAYERS} layers × ${EMBEDDING}), CPU, ${THREADS} thread(s), prompt through the model's chat template`,
    );
    console.log('                                        median tok/s   min tok/s   CPU ms/answer (median)');
    console.log(
      `node-llama-cpp LlamaChat (this thread)      ${fmt(quantile(baseRates, 0.5))}     ${fmt(Math.min(...baseRates))}` +
        `     ${fmt(quantile(cpu.baseline, 0.5))}`,
    );
    console.log(
      `FnCallAgent + LocalChatModel (worker)       ${fmt(quantile(oursRates, 0.5))}     ${fmt(Math.min(...oursRates))}` +
        `     ${fmt(quantile(cpu.ours, 0.5))}`,
    );
    const cpuRatio = quantile(cpu.baseline, 0.5) / quantile(cpu.ours, 0.5);
    console.log(
      `CPU per answer, node-llama-cpp / ours: ${cpuRatio.toFixed(3)}x (what the ratio tends to on a busy machine)`,
    );
    const ratio = quantile(ratios, 0.5);
    console.log(
      `median per-pair ratio ours / node-llama-cpp: ${ratio.toFixed(3)}x (goal >= 0.95x) ${ratio >= 0.95 ? 'MET' : 'NOT MET'}`,
    );
    await context.dispose();
    await model.dispose();
  } finally {
    await host.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
