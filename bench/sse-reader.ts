// bench/sse-reader: a model's streamed answer read by the agent's SSE reader (lib/llm/sse.ts, as the model layer
// decodes and feeds it) and by the `openai` package's own (the reader its Stream iterates), from the same bytes in
// the same network chunks, alternating run by run. Two shapes: a 2,000-token answer (one small event per token, a
// few events per network read, as a local server streams) and one 4 MB event arriving in 1 KB reads (a server that
// sends a long answer or a hostile one, where the package's reader copies all it holds on every read).
// Run: npm run bench:sse [-- --rounds 30]
import { _iterSSEMessages } from 'openai/core/streaming';
import { builtModule } from './support/built-core';
import { flag } from './support/flags';
import { quantile } from './support/stats';

type Sse = typeof import('../lib/llm/sse');

const ROUNDS = Number(flag('rounds', '30'));

function answerChunks(): Uint8Array[] {
  const encoder = new TextEncoder();
  const events = Array.from(
    { length: 2000 },
    (_, i) =>
      `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: ` word${i}` }, finish_reason: null }] })}\n\n`,
  );
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < events.length; i += 4) chunks.push(encoder.encode(events.slice(i, i + 4).join('')));
  return chunks;
}

function longEventChunks(): Uint8Array[] {
  const bytes = new TextEncoder().encode(`data: ${'x'.repeat(4 * 1024 * 1024)}\n\n`);
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += 1024) chunks.push(bytes.subarray(i, i + 1024));
  return chunks;
}

function body(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(c) {
      if (i < chunks.length) c.enqueue(chunks[i++]!);
      else c.close();
    },
  });
}

async function sdk(chunks: Uint8Array[]): Promise<number> {
  let n = 0;
  for await (const sse of _iterSSEMessages(new Response(body(chunks)), new AbortController())) n += sse.data.length;
  return n;
}

async function ours(sse: Sse, chunks: Uint8Array[]): Promise<number> {
  let n = 0;
  const parser = new sse.SseParser((_event, data) => (n += data.length));
  const decoder = new TextDecoder();
  for await (const bytes of body(chunks) as unknown as AsyncIterable<Uint8Array>)
    parser.push(decoder.decode(bytes, { stream: true }));
  parser.push(decoder.decode());
  parser.end();
  return n;
}

async function main() {
  const sse = await builtModule<Sse>('lib/llm/sse.ts', 'sse');
  console.log(`sse-reader: ${ROUNDS} rounds each, alternating; median ms per answer`);
  console.log('shape                               openai package   agent (sse.ts)   agent / package');
  for (const [name, chunks, rounds] of [
    ['2,000-token answer, 500 reads', answerChunks(), ROUNDS],
    ['one 4 MB event, 4,096 reads', longEventChunks(), Math.max(3, Math.round(ROUNDS / 10))],
  ] as const) {
    const expected = await sdk(chunks);
    if ((await ours(sse, chunks)) !== expected) throw new Error(`${name}: the readers disagree`);
    const times = { sdk: [] as number[], ours: [] as number[] };
    for (let r = 0; r < rounds; r++) {
      for (const which of r % 2 ? (['ours', 'sdk'] as const) : (['sdk', 'ours'] as const)) {
        const start = performance.now();
        await (which === 'sdk' ? sdk(chunks) : ours(sse, chunks));
        times[which].push(performance.now() - start);
      }
    }
    const a = quantile(times.sdk, 0.5);
    const b = quantile(times.ours, 0.5);
    console.log(
      `${name.padEnd(36)}${a.toFixed(2).padStart(14)}${b.toFixed(2).padStart(17)}${`${(b / a).toFixed(3)}x`.padStart(18)}`,
    );
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
