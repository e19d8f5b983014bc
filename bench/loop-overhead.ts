// bench/loop-overhead: the same workload through FnCallAgent and through a minimal hand-written loop on the raw
// openai SDK, alternating conversation by conversation in one process. Workload: a user message, three sequential
// calls of a trivial tool, a final answer; zero-latency scripted model over real HTTP (in a child process).
// Prints median and p95 per conversation for both, the median of the per-pair ratios, where the difference lies
// between the model requests (the phases), and RSS.
// The agent reads a streamed answer with its own SSE reader (lib/llm/sse.ts), which costs less than the SDK's
// Stream: a third loop, the raw one reading the stream with that reader, shows what the agent's own steps add
// apart from it.
// Both loops first run --warmup conversations each (default 2,000), so that what is measured is the steady state of
// a long-running server rather than V8 still compiling the SDK and the agent: with 20 the raw loop alone is ~1.5x
// slower than warm, and the ratio mostly measures which code the JIT has reached yet.
// The agent side is the core as built (bench/support/built-core.ts), as a program or the app's server build runs it.
// Run: npm run bench:loop [-- --conversations 200 --warmup 2000]
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type OpenAI from 'openai';
import { builtCore, builtModule } from './support/built-core';
import { flag } from './support/flags';
import { quantile } from './support/stats';

type Core = Awaited<ReturnType<typeof builtCore>>;
type Sse = typeof import('../lib/llm/sse');
/** The bench's tool, which the raw loop calls with the arguments alone. */
type Tool = InstanceType<Core['BaseTool']> & { call(params: string): Promise<string> };

function noopTool(core: Core): Tool {
  return new (class Noop extends core.BaseTool {
    name = 'noop';
    description = 'Does nothing, quickly.';
    parameters = { type: 'object', properties: { step: { type: 'integer' } }, required: ['step'] };
    async call(params: string) {
      return `step ${this.parseArgs<{ step: number }>(params).step} done`;
    }
  })();
}

const N = Number(flag('conversations', '200'));
const WARMUP = Number(flag('warmup', '2000'));
const question = [{ role: 'user' as const, content: 'Run the three steps, then tell me.' }];

async function startServer(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/loop-server.ts'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`model server exited (${code})`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

type Messages = OpenAI.Chat.ChatCompletionMessageParam[];
type Tools = OpenAI.Chat.ChatCompletionTool[];
/** One streamed answer, its deltas assembled. */
interface Answer {
  content: string;
  calls: { id: string; name: string; arguments: string }[];
}
/** Sends one request and reads its streamed answer. */
type Ask = (messages: Messages, tools: Tools) => Promise<Answer>;

function addDelta(answer: Answer, delta: OpenAI.Chat.ChatCompletionChunk.Choice.Delta | undefined): void {
  if (!delta) return;
  if (delta.content) answer.content += delta.content;
  for (const tc of delta.tool_calls ?? []) {
    const call = (answer.calls[tc.index] ??= { id: '', name: '', arguments: '' });
    if (tc.id) call.id = tc.id;
    if (tc.function?.name) call.name += tc.function.name;
    if (tc.function?.arguments) call.arguments += tc.function.arguments;
  }
}

/** The request both raw loops send, as a literal (what a hand-written loop builds per call). */
function params(messages: Messages, tools: Tools) {
  return { model: 'bench', messages, tools, stream: true, stream_options: { include_usage: true } } as const;
}

/** The baseline's reading: the SDK's Stream, as anyone would write it by hand. */
function sdkStream(client: OpenAI): Ask {
  return async (messages, tools) => {
    const answer: Answer = { content: '', calls: [] };
    for await (const chunk of await client.chat.completions.create(params(messages, tools)))
      addDelta(answer, chunk.choices[0]?.delta);
    return answer;
  };
}

/** The agent's SSE reader over the raw Response instead of the SDK's Stream. */
function sameReader(client: OpenAI, sse: Sse): Ask {
  return async (messages, tools) => {
    const res = await client.chat.completions.create(params(messages, tools)).asResponse();
    const answer: Answer = { content: '', calls: [] };
    const parser = new sse.SseParser((_event, data) => {
      if (!data.startsWith('[DONE]'))
        addDelta(answer, (JSON.parse(data) as OpenAI.Chat.ChatCompletionChunk).choices[0]?.delta);
    });
    const decoder = new TextDecoder();
    for await (const bytes of res.body as unknown as AsyncIterable<Uint8Array>)
      parser.push(decoder.decode(bytes, { stream: true }));
    parser.push(decoder.decode());
    parser.end();
    return answer;
  };
}

/** The baseline loop: what anyone would write by hand with the SDK (streaming, usage requested, deltas assembled). */
async function rawLoop(ask: Ask, tool: Tool): Promise<string> {
  const messages: Messages = [...question];
  const tools: Tools = [{ type: 'function', function: tool.function as OpenAI.FunctionDefinition }];
  for (let i = 0; i < 20; i++) {
    const { content, calls } = await ask(messages, tools);
    if (!calls.length) return content;
    messages.push({
      role: 'assistant',
      content: content || null,
      tool_calls: calls.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: c.arguments },
      })),
    });
    for (const c of calls)
      messages.push({ role: 'tool', tool_call_id: c.id, content: String(await tool.call(c.arguments)) });
  }
  return '';
}

async function agentLoop(agent: InstanceType<Core['FnCallAgent']>): Promise<string> {
  let answer = '';
  for await (const e of agent.runEvents(question)) {
    if (e.type === 'text-delta') answer += e.text;
    if (e.type === 'run-end' && e.reason !== 'answered')
      throw new Error(`run ended: ${e.reason} ${e.error?.message ?? ''}`);
  }
  return answer;
}

/** When each model request of the conversation running now left (fetch called), for the phases. Both loops' SDK
 *  clients are made after the wrapper is in place, so both pay for it alike. */
let requestTimes: number[] = [];
function markRequests(): void {
  const fetch = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    requestTimes.push(performance.now());
    return fetch(input, init);
  };
}

/** A conversation's time split at its model requests: start → 1st request, between requests, last request → end. */
function phasesOf(start: number, end: number): number[] {
  const marks = [start, ...requestTimes, end];
  return marks.slice(1).map((t, i) => t - marks[i]!);
}

function printPhases(raw: number[][], ours: number[][]): void {
  const names = raw[0]!.map((_, i, all) =>
    i === 0 ? 'start -> request 1' : i === all.length - 1 ? `request ${i} -> end` : `request ${i} -> ${i + 1}`,
  );
  const us = (xs: number[][], i: number) =>
    quantile(
      xs.filter((p) => p.length === names.length).map((p) => p[i]!),
      0.5,
    ) * 1000;
  console.log('phases (median µs)        raw   FnCallAgent   difference');
  names.forEach((name, i) => {
    const r = us(raw, i);
    const o = us(ours, i);
    console.log(
      `${name.padEnd(22)} ${r.toFixed(1).padStart(8)} ${o.toFixed(1).padStart(13)} ${(o - r).toFixed(1).padStart(12)}`,
    );
  });
}

async function main() {
  markRequests();
  const core = await builtCore();
  const server = await startServer();
  try {
    const tool = noopTool(core);
    // The SDK's ESM build, the copy the bundled core imports: both loops run the same SDK code.
    const { default: OpenAISdk } = await import('openai');
    const client = new OpenAISdk({ baseURL: server.url, apiKey: 'bench', maxRetries: 0 });
    const agent = new core.FnCallAgent({
      llm: core.createChatModel({ model: 'bench', baseURL: server.url, apiKey: 'bench', fncallMode: 'native' }),
      functionList: [tool],
    });
    const sse = await builtModule<Sse>('lib/llm/sse.ts', 'sse');
    const expected = 'All three steps are done; the answer is ready.';
    const [bySdk, bySameReader] = [sdkStream(client), sameReader(client, sse)];
    const loops = {
      raw: () => rawLoop(bySdk, tool),
      sameReader: () => rawLoop(bySameReader, tool),
      ours: () => agentLoop(agent),
    };
    for (let i = 0; i < WARMUP; i++)
      for (const run of Object.values(loops))
        if ((await run()) !== expected) throw new Error('the workload did not complete');
    const times = { raw: [] as number[], sameReader: [] as number[], ours: [] as number[] };
    const ratios: number[] = [];
    const sameReaderRatios: number[] = [];
    /** The ratio to the raw loop by where FnCallAgent ran in its round (first, second, third). */
    const byPosition: number[][] = [[], [], []];
    const rawPhases: number[][] = [];
    const ourPhases: number[][] = [];
    let peakRss = process.memoryUsage().rss;
    const names = ['raw', 'sameReader', 'ours'] as const;
    for (let i = 0; i < N; i++) {
      // Rotate which goes first so drift on a shared machine hits all alike.
      const order = [0, 1, 2].map((k) => names[(k + i) % 3]!);
      const t = { raw: 0, sameReader: 0, ours: 0 };
      for (const which of order) {
        requestTimes = [];
        const start = performance.now();
        await loops[which]();
        const end = performance.now();
        t[which] = end - start;
        if (which !== 'sameReader') (which === 'raw' ? rawPhases : ourPhases).push(phasesOf(start, end));
      }
      for (const which of names) times[which].push(t[which]);
      ratios.push(t.ours / t.raw);
      sameReaderRatios.push(t.ours / t.sameReader);
      byPosition[order.indexOf('ours')]!.push(t.ours / t.raw);
      peakRss = Math.max(peakRss, process.memoryUsage.rss());
    }
    const fmt = (x: number) => x.toFixed(2).padStart(7);
    console.log(
      `loop-overhead: ${N} conversations (4 model calls + 3 tool calls each) after ${WARMUP} of warm-up each, ` +
        'zero-latency scripted model over HTTP',
    );
    console.log(`                                    median ms   p95 ms`);
    const row = (name: string, xs: number[]) =>
      console.log(`${name.padEnd(36)}${fmt(quantile(xs, 0.5))}  ${fmt(quantile(xs, 0.95))}`);
    row('raw openai SDK loop', times.raw);
    row("raw loop, the agent's SSE reader", times.sameReader);
    row('FnCallAgent', times.ours);
    const ratio = quantile(ratios, 0.5);
    // Where a loop runs in its round matters (the first pays for what ran between rounds): each position is shown.
    console.log(
      `per-round ratio to the raw loop with FnCallAgent first, second, third: ${byPosition
        .map((xs) => `${quantile(xs, 0.5).toFixed(3)}x`)
        .join(', ')}`,
    );
    console.log(
      `median per-round ratio FnCallAgent / raw: ${ratio.toFixed(3)}x (target <= 1.05x) ${ratio <= 1.05 ? 'MET' : 'NOT MET'}`,
    );
    console.log(
      `median per-round ratio FnCallAgent / raw loop on the same SSE reader (the agent's own steps): ` +
        `${quantile(sameReaderRatios, 0.5).toFixed(3)}x`,
    );
    printPhases(rawPhases, ourPhases);
    console.log(
      `RSS: ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB now, ${(peakRss / 2 ** 20).toFixed(0)} MB peak`,
    );
  } finally {
    server.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
