// bench/stream-bytes: bytes the browser receives for a streamed answer, against the answer's own bytes.
// Answers of 2k, 8k, 32k and 128k characters are scripted at chunkSize 4 / 2 ms and sent through the real page;
// the server-action response of that send is measured twice: its decoded body (Playwright response.body()) and
// what crossed the wire (CDP Network.loadingFinished encodedDataLength: headers, chunking and compression included).
// For contrast it prints what Qwen-Agent-style cumulative snapshots of the same stream would have sent.
// Run: npm run bench:stream-bytes [-- --sizes 2000,8000 --chunk 4 --delay 2 --build]
import type { Page, Request } from '@playwright/test';
import { cumulativeSnapshotBytes, markdownAnswer } from './support/answer';
import { answerDone, machineLoad, openChat, typeMessage, withStack } from './support/app';

function flag(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

const SIZES = flag('sizes', '2000,8000,32000,128000').split(',').map(Number);
const CHUNK = Number(flag('chunk', '4'));
const DELAY_MS = Number(flag('delay', '2'));

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

/** Sends `marker` through the UI and measures the server-action response whose request carried it. */
async function measureSend(page: Page, marker: string): Promise<SendMeasure> {
  // CDP hands over the body as it streams; Chromium does not keep a body the page read as a stream, so
  // response.body() is not an option here.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  let cdpId: string | undefined;
  const parts: Buffer[] = [];
  cdp.on('Network.requestWillBeSent', (e) => {
    const action = Object.keys(e.request.headers).some((h) => h.toLowerCase() === 'next-action');
    if (e.request.method === 'POST' && action && (e.request.postData ?? '').includes(marker)) cdpId = e.requestId;
  });
  cdp.on('Network.responseReceived', (e) => {
    if (e.requestId !== cdpId) return;
    void cdp.send('Network.streamResourceContent', { requestId: e.requestId }).then((r) => {
      if (r.bufferedData) parts.unshift(Buffer.from(r.bufferedData, 'base64'));
    });
  });
  cdp.on('Network.dataReceived', (e) => {
    if (e.requestId === cdpId && e.data) parts.push(Buffer.from(e.data, 'base64'));
  });

  const isSend = (r: Request) =>
    r.method() === 'POST' && r.headers()['next-action'] !== undefined && (r.postData() ?? '').includes(marker);
  const responseSeen = page.waitForResponse((r) => isSend(r.request()), { timeout: 60_000 });
  const started = Date.now();
  await page.keyboard.press('Enter');
  const response = await responseSeen;
  await answerDone(page);
  const seconds = (Date.now() - started) / 1000;
  await response.finished();
  const sizes = await response.request().sizes();
  const headers = await response.allHeaders();
  await cdp.detach();

  const body = Buffer.concat(parts).toString('utf8');
  let deltaRows = 0;
  let deltaChars = 0;
  for (const line of body.split('\n')) {
    const json = line.slice(line.indexOf(':') + 1);
    if (!json.startsWith('{"type":"text-delta"')) continue;
    deltaRows++;
    deltaChars += (JSON.parse(json) as { text: string }).text.length;
  }
  return {
    bodyBytes: Buffer.byteLength(body, 'utf8'),
    wireBytes: sizes.responseHeadersSize + sizes.responseBodySize,
    encoding: headers['content-encoding'] ?? 'identity',
    deltaRows,
    deltaChars,
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
      await openChat(page, app.url);
      const marker = `bench-stream-bytes-${size}-${Date.now()}`;
      await typeMessage(page, marker);
      const m = await measureSend(page, marker);
      const shown = await page
        .locator('article[data-role="assistant"]')
        .last()
        .evaluate((el) => el.textContent ?? '');
      // The last words of the answer must be on the page, or the bytes measured are not those of this answer.
      const tail = answer.replace(/[`*_#|]/g, '').trim().split(/\s+/).slice(-3).join(' ');
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
    ['chars', 'answer B', 'body B', 'body/ans', 'wire B', 'wire/ans', 'snapshots B', 'snap/ans', 'deltas', 'chars/delta', 'B/delta', 's', 'shown'],
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

  const ratios = results.map((r) => r.bodyBytes / r.answerBytes);
  const spread = Math.max(...ratios) / Math.min(...ratios);
  const first = results[0];
  const marginal = results
    .slice(1)
    .map((r) => ((r.bodyBytes - (first?.bodyBytes ?? 0)) / (r.answerBytes - (first?.answerBytes ?? 0))).toFixed(2));
  process.stdout.write(
    `body/answer: min ${Math.min(...ratios).toFixed(2)}x, max ${Math.max(...ratios).toFixed(2)}x, max/min ` +
      `${spread.toFixed(2)} (${spread < 1.25 ? 'roughly constant: bytes grow linearly' : 'NOT constant'}); ` +
      `target <= 1.5x ${Math.max(...ratios) <= 1.5 ? 'met' : 'missed'}\n` +
      `marginal body bytes per answer byte above the smallest size: ${marginal.join(', ')}\n`,
  );
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
