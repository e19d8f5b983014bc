// bench/stream-bytes: bytes the browser receives for a streamed answer, against the answer's own bytes.
// Answers of 2k, 8k, 32k and 128k characters are scripted at about 2,000 tokens/s (40 characters every 5 ms: timers
// cannot tick per token at that rate, and the feed merges deltas over 50 ms anyway, so only the rate matters) and
// sent through the real page;
// the server-action response of that send is measured twice: its decoded body (CDP Network.dataReceived, plus a
// copy the page reads alongside Next, to count its rows) and what crossed the wire (CDP loadingFinished
// encodedDataLength: headers, chunking and compression included). For contrast it prints what Qwen-Agent-style
// cumulative snapshots of the same stream would have sent.
// Run: npm run bench:stream-bytes [-- --sizes 2000,8000 --chunk 40 --delay 5 --build --dump /tmp/bodies]
import type { Page } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cumulativeSnapshotBytes, markdownAnswer } from './support/answer';
import { answerDone, machineLoad, openChat, typeMessage, withStack } from './support/app';
import { flag } from './support/flags';

const SIZES = flag('sizes', '2000,8000,32000,128000').split(',').map(Number);
const CHUNK = Number(flag('chunk', '40'));
const DELAY_MS = Number(flag('delay', '5'));
/** A directory to write each decoded response body to, to see where the bytes go. */
const DUMP_DIR = flag('dump', '');

interface Measured {
  size: number;
  answerBytes: number;
  /** Decoded response body (what the page's RSC reader parses). */
  bodyBytes: number;
  /** Response headers plus encoded body, as Chromium counted them. */
  wireBytes: number;
  encoding: string;
  /** text-delta rows in the body, and the answer characters they carried. */
  deltaRows: number;
  deltaChars: number;
  seconds: number;
  snapshotBytes: number;
  rendered: boolean;
}

type SendMeasure = Pick<Measured, 'bodyBytes' | 'wireBytes' | 'encoding' | 'deltaRows' | 'deltaChars' | 'seconds'>;

declare global {
  interface Window {
    __actionBodies?: Record<string, string>;
  }
}

/**
 * Runs in the page before its scripts: keeps the text of every server-action response, keyed by its request body,
 * from a clone read next to the original (Next gets the untouched Response). Chromium keeps no body of a response
 * read as a stream, and CDP's streamResourceContent made short responses fail (net::ERR_ABORTED).
 */
function captureActionBodies(): void {
  const bodies: Record<string, string> = {};
  window.__actionBodies = bodies;
  const original = window.fetch;
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await original(input, init);
    const key = typeof init?.body === 'string' ? init.body : '';
    if (key && new Headers(init?.headers).has('next-action')) {
      void response
        .clone()
        .text()
        .then((text) => (bodies[key] = text));
    }
    return response;
  };
}

function countDeltas(body: string): { rows: number; chars: number } {
  let rows = 0;
  let chars = 0;
  for (const line of body.split('\n')) {
    const json = line.slice(line.indexOf(':') + 1);
    if (!json.startsWith('{"type":"text-delta"')) continue;
    rows++;
    chars += (JSON.parse(json) as { text: string }).text.length;
  }
  return { rows, chars };
}

/** Sends `marker` through the UI and measures the server-action response whose request carried it. */
async function measureSend(page: Page, marker: string): Promise<SendMeasure> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  let id: string | undefined;
  let decoded = 0;
  let encoding = '?';
  let settled: (outcome: { wire: number } | { failed: string }) => void = () => undefined;
  const finished = new Promise<{ wire: number } | { failed: string }>((resolve) => (settled = resolve));
  cdp.on('Network.requestWillBeSent', (e) => {
    const action = Object.keys(e.request.headers).some((h) => h.toLowerCase() === 'next-action');
    if (e.request.method === 'POST' && action && (e.request.postData ?? '').includes(marker)) id = e.requestId;
  });
  cdp.on('Network.responseReceived', (e) => {
    if (e.requestId !== id) return;
    const h = Object.entries(e.response.headers).find(([k]) => k.toLowerCase() === 'content-encoding');
    encoding = h ? String(h[1]) : 'identity';
  });
  cdp.on('Network.dataReceived', (e) => {
    if (e.requestId === id) decoded += e.dataLength;
  });
  cdp.on('Network.loadingFinished', (e) => {
    if (e.requestId === id) settled({ wire: e.encodedDataLength });
  });
  cdp.on('Network.loadingFailed', (e) => {
    if (e.requestId === id) settled({ failed: e.errorText });
  });

  const started = Date.now();
  await page.keyboard.press('Enter');
  await answerDone(page);
  const seconds = (Date.now() - started) / 1000;
  const outcome = await Promise.race([
    finished,
    new Promise<{ failed: string }>((r) => setTimeout(() => r({ failed: 'no loadingFinished in 15 s' }), 15_000)),
  ]);
  await cdp.detach();
  if ('failed' in outcome) throw new Error(`the send's response did not finish: ${outcome.failed}`);

  let body: string | undefined;
  for (let i = 0; i < 50 && body === undefined; i++) {
    body = await page.evaluate(
      (m) => Object.entries(window.__actionBodies ?? {}).find(([k]) => k.includes(m))?.[1],
      marker,
    );
    if (body === undefined) await page.waitForTimeout(100);
  }
  const deltas = body === undefined ? { rows: NaN, chars: NaN } : countDeltas(body);
  if (DUMP_DIR && body !== undefined) {
    mkdirSync(DUMP_DIR, { recursive: true });
    writeFileSync(path.join(DUMP_DIR, `${marker}.txt`), body);
  }
  // Both views of the decoded body must agree, or one of them measured something else.
  if (body !== undefined && Buffer.byteLength(body, 'utf8') !== decoded) {
    process.stderr.write(`  note: CDP counted ${decoded} decoded bytes, the page read ${Buffer.byteLength(body)}\n`);
  }
  return {
    bodyBytes: decoded,
    wireBytes: outcome.wire,
    encoding,
    deltaRows: deltas.rows,
    deltaChars: deltas.chars,
    seconds,
  };
}

async function main(): Promise<void> {
  process.stdout.write(`stream-bytes: sizes ${SIZES.join(', ')} chars, chunkSize ${CHUNK}, delay ${DELAY_MS} ms\n`);
  process.stdout.write(`before: ${machineLoad()}\n`);
  const results: Measured[] = [];
  await withStack(async ({ model, app, browser }) => {
    // Warm-up: the first action call pays for compiling and loading the route.
    const warm = await browser.newPage();
    await model.setScenario({ fallback: { content: 'warm', chunkSize: CHUNK, delayMs: DELAY_MS } });
    await openChat(warm, app.url);
    await typeMessage(warm, 'warm-up');
    await warm.keyboard.press('Enter');
    await answerDone(warm);
    await warm.close();

    for (const size of SIZES) {
      const answer = markdownAnswer(size, size);
      await model.setScenario({
        replies: [{ content: answer, chunkSize: CHUNK, delayMs: DELAY_MS }],
        fallback: { content: 'unexpected extra model call' },
      });
      const page = await browser.newPage();
      await page.addInitScript(captureActionBodies);
      await openChat(page, app.url);
      const marker = `bench-stream-bytes-${size}-${Date.now()}`;
      await typeMessage(page, marker);
      const m = await measureSend(page, marker);
      const shown = await page
        .locator('article[data-role="assistant"]')
        .last()
        .evaluate((el) => el.textContent ?? '');
      // The last words of the answer must be on the page, or the bytes measured are not those of this answer.
      const tail = answer
        .replace(/[`*_#|]/g, '')
        .trim()
        .split(/\s+/)
        .slice(-3)
        .join(' ');
      const rendered = shown.replace(/\s+/g, ' ').includes(tail.replace(/\s+/g, ' '));
      await page.close();
      results.push({
        size,
        answerBytes: Buffer.byteLength(answer, 'utf8'),
        snapshotBytes: cumulativeSnapshotBytes(answer, CHUNK),
        ...m,
        rendered,
      });
      process.stdout.write(`  measured ${size} chars in ${m.seconds.toFixed(1)} s\n`);
    }
  });
  process.stdout.write(`after: ${machineLoad()}\n\n`);

  const pad = (s: string | number, n: number) => String(s).padStart(n);
  const x = (a: number, b: number, digits = 2) => `${(a / b).toFixed(digits)}x`;
  const table = [
    [
      'chars',
      'answer B',
      'body B',
      'body/ans',
      'wire B',
      'wire/ans',
      'snapshots B',
      'snap/ans',
      'deltas',
      'chars/delta',
      'B/delta',
      's',
      'shown',
    ],
    ...results.map((r) => [
      r.size,
      r.answerBytes,
      r.bodyBytes,
      x(r.bodyBytes, r.answerBytes),
      r.wireBytes,
      x(r.wireBytes, r.answerBytes),
      r.snapshotBytes,
      x(r.snapshotBytes, r.answerBytes, 0),
      r.deltaRows,
      (r.deltaChars / r.deltaRows).toFixed(0),
      ((r.bodyBytes - r.answerBytes) / r.deltaRows).toFixed(0),
      r.seconds.toFixed(1),
      r.rendered ? 'yes' : 'NO',
    ]),
  ];
  const widths = table[0]!.map((_, c) => Math.max(...table.map((row) => String(row[c]).length)));
  for (const row of table) process.stdout.write(`${row.map((v, c) => pad(v, widths[c]!)).join('  ')}\n`);
  const encodings = [...new Set(results.map((r) => r.encoding))].join(', ');
  process.stdout.write(
    `(body = decoded server-action response; wire = its headers + ${encodings} body; snapshots = Qwen-Agent-style ` +
      `cumulative answer at chunkSize ${CHUNK}; B/delta = body bytes beyond the answer, per text-delta row)\n`,
  );

  // Fixed per-run bytes (run-start, llm-start, run-end...) weigh on small answers; growth is judged at the margin.
  const ratios = results.map((r) => r.bodyBytes / r.answerBytes);
  const first = results[0];
  const marginal = results
    .slice(1)
    .map((r) => (r.bodyBytes - (first?.bodyBytes ?? 0)) / (r.answerBytes - (first?.answerBytes ?? 0)));
  const spread = marginal.length ? Math.max(...marginal) / Math.min(...marginal) : 1;
  process.stdout.write(
    `body/answer: ${ratios.map((r) => r.toFixed(2) + 'x').join(', ')}; target <= 1.5x ` +
      `${Math.max(...ratios) <= 1.5 ? 'met' : 'missed'}\n` +
      `marginal body bytes per answer byte above the smallest size: ${marginal.map((m) => m.toFixed(2)).join(', ')} ` +
      `(${spread < 1.1 ? 'constant: bytes grow linearly with the answer' : 'NOT constant: growth is not linear'})\n` +
      `answer rate: ${results.map((r) => Math.round(r.size / 4 / r.seconds)).join(', ')} tokens/s ` +
      `(4 chars a token, Enter to done)\n`,
  );
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
