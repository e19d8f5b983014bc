// A deterministic markdown answer of a chosen length, shaped like what a model writes: headings, paragraphs with
// inline code and emphasis, bullet and numbered lists, fenced code in a few languages, one table.

const WORDS = (
  'the agent calls a tool with arguments parsed from the model output and returns its result to the next ' +
  'turn so that streaming stays smooth while every delta is merged into one message per frame before the ' +
  'browser paints it again with markdown tables lists and highlighted code blocks that settle as they arrive'
).split(' ');

/** A small linear congruential generator: the same answer every run, without Math.random. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function sentence(next: () => number): string {
  const n = 8 + Math.floor(next() * 12);
  const words: string[] = [];
  for (let i = 0; i < n; i++) {
    let w = WORDS[Math.floor(next() * WORDS.length)] ?? 'word';
    const r = next();
    if (r < 0.04) w = `\`${w}()\``;
    else if (r < 0.07) w = `**${w}**`;
    else if (r < 0.09) w = `_${w}_`;
    words.push(w);
  }
  const text = words.join(' ');
  return `${text[0]?.toUpperCase() ?? ''}${text.slice(1)}.`;
}

function paragraph(next: () => number): string {
  const n = 3 + Math.floor(next() * 4);
  return Array.from({ length: n }, () => sentence(next)).join(' ');
}

const CODE = [
  [
    'ts',
    [
      'export async function* follow(run: LiveRun): AsyncGenerator<AgentEvent> {',
      '  for await (const event of run.follow({ coalesceMs: 33 })) {',
      "    if (event.type === 'text-delta') yield { ...event, text: event.text.trimEnd() };",
      '    else yield event;',
      '  }',
      '}',
    ],
  ],
  [
    'python',
    [
      'def merge(deltas: list[str], window_ms: int = 33) -> list[str]:',
      '    out: list[str] = []',
      '    for d in deltas:',
      '        if out and len(out[-1]) < window_ms * 8:',
      '            out[-1] += d',
      '        else:',
      '            out.append(d)',
      '    return out',
    ],
  ],
  ['bash', ['npm run bench:render', 'npm run bench:stream-bytes -- --sizes 2000,8000', 'echo "done: $?"']],
] as const;

function codeBlock(index: number): string {
  const [lang, lines] = CODE[index % CODE.length] ?? CODE[0];
  return ['```' + lang, ...lines, '```'].join('\n');
}

function table(next: () => number): string {
  const rows = ['| Size | Chunks | Bytes | Ratio |', '|---:|---:|---:|---:|'];
  for (let i = 0; i < 8; i++) {
    const size = 2 ** (i + 10);
    rows.push(
      `| ${size} | ${size / 4} | ${Math.round(size * (1.1 + next() * 0.2))} | ${(1.1 + next() * 0.2).toFixed(2)} |`,
    );
  }
  return rows.join('\n');
}

function bullets(next: () => number, ordered: boolean): string {
  const n = 3 + Math.floor(next() * 4);
  return Array.from({ length: n }, (_, i) => `${ordered ? `${i + 1}.` : '-'} ${sentence(next)}`).join('\n');
}

/** At least `chars` characters of markdown, cut at a block boundary right after the target (so fences close). */
export function markdownAnswer(chars: number, seed = 7): string {
  const next = rng(seed);
  const blocks: string[] = [];
  let length = 0;
  let section = 0;
  let tableDone = false;
  while (length < chars) {
    const parts: string[] = [`## Part ${++section}: ${sentence(next).slice(0, -1)}`, paragraph(next)];
    if (section % 2 === 1) parts.push(bullets(next, section % 4 === 1));
    parts.push(paragraph(next));
    if (section % 3 === 0) parts.push(codeBlock(section / 3));
    if (!tableDone && length > chars / 2) {
      parts.push(table(next));
      tableDone = true;
    }
    for (const p of parts) {
      blocks.push(p);
      length += p.length + 2;
      if (length >= chars) break;
    }
  }
  return blocks.join('\n\n');
}

/** What Qwen-Agent-style streaming would send: every cumulative snapshot of the answer, at this chunking. */
export function cumulativeSnapshotBytes(answer: string, chunkSize: number): number {
  const chars = Array.from(answer);
  let prefix = 0;
  let total = 0;
  for (let i = 0; i < chars.length; i += chunkSize) {
    prefix += Buffer.byteLength(chars.slice(i, i + chunkSize).join(''), 'utf8');
    total += prefix;
  }
  return total;
}
