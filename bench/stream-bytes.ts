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
  bodyBytes: number;
  wireBytes: number;
  encoding: string;
  seconds: number;
  snapshotBytes: number;
  rendered: boolean;
}

/** Sends `marker` through the UI and measures the server-action response whose request carried it. */
async function measureSend(page: Page, marker: string): Promise<Omit<Measured, 'size' | 'answerBytes' | 'snapshotBytes'>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const wire = new Map<string, number>();
  const encodings = new Map<string, string>();
  const finished = new Set<string>();
  cdp.on('Network.responseReceived', (e) => {
    encodings.set(e.requestId, String(e.response.headers['content-encoding'] ?? e.response.headers['Content-Encoding'] ?? 'identity'));
  });
  cdp.on('Network.loadingFinished', (e) => {
    wire.set(e.requestId, e.encodedDataLength);
    finished.add(e.requestId);
  });
  let cdpId: string | undefined;
  cdp.on('Network.requestWillBeSent', (e) => {
    const action = Object.keys(e.request.headers).some((h) => h.toLowerCase() === 'next-action');
    if (e.request.method === 'POST' && action && (e.request.postData ?? '').includes(marker)) cdpId = e.requestId;
  });

  const isSend = (r: Request) =>
    r.method() === 'POST' && r.headers()['next-action'] !== undefined && (r.postData() ?? '').includes(marker);
  const responseSeen = page.waitForResponse((r) => isSend(r.request()), { timeout: 60_000 });
  const started = Date.now();
  await page.keyboard.press('Enter');
  const response = await responseSeen;
  await answerDone(page);
  const body = await response.body();
  const seconds = (Date.now() - started) / 1000;
  for (let i = 0; i < 100 && !(cdpId && finished.has(cdpId)); i++) await page.waitForTimeout(50);
  await cdp.detach();
  return {
    bodyBytes: body.length,
    wireBytes: cdpId ? (wire.get(cdpId) ?? NaN) : NaN,
    encoding: cdpId ? (encodings.get(cdpId) ?? '?') : '?',
    seconds,
    rendered: false,
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
      m.rendered = shown.replace(/\s+/g, ' ').includes(tail.replace(/\s+/g, ' '));
      await page.close();
      results.push({
        size,
        answerBytes: Buffer.byteLength(answer, 'utf8'),
        snapshotBytes: cumulativeSnapshotBytes(answer, CHUNK),
        ...m,
      });
      process.stdout.write(`  measured ${size} chars in ${m.seconds.toFixed(1)} s\n`);
    }
  });
  process.stdout.write(`after: ${machineLoad()}\n\n`);

  const pad = (s: string | number, n: number) => String(s).padStart(n);
  process.stdout.write(
    `${pad('chars', 7)} ${pad('answer B', 9)} ${pad('body B', 9)} ${pad('body/ans', 8)} ${pad('wire B', 9)} ${pad('wire/ans', 8)} ${pad('enc', 8)} ${pad('snapshots B', 13)} ${pad('snap/ans', 9)} ${pad('s', 5)} ok\n`,
  );
  for (const r of results) {
    process.stdout.write(
      `${pad(r.size, 7)} ${pad(r.answerBytes, 9)} ${pad(r.bodyBytes, 9)} ${pad((r.bodyBytes / r.answerBytes).toFixed(2) + 'x', 8)} ${pad(r.wireBytes, 9)} ${pad((r.wireBytes / r.answerBytes).toFixed(2) + 'x', 8)} ${pad(r.encoding, 8)} ${pad(r.snapshotBytes, 13)} ${pad((r.snapshotBytes / r.answerBytes).toFixed(0) + 'x', 9)} ${pad(r.seconds.toFixed(1), 5)} ${r.rendered ? 'yes' : 'NO'}\n`,
    );
  }
  const ratios = results.map((r) => r.bodyBytes / r.answerBytes);
  const spread = Math.max(...ratios) / Math.min(...ratios);
  const per = results.map((r) => ((r.bodyBytes - (results[0]?.bodyBytes ?? 0)) / (r.answerBytes - (results[0]?.answerBytes ?? 0))));
  process.stdout.write(
    `\nbody/answer ratio: min ${Math.min(...ratios).toFixed(2)}x, max ${Math.max(...ratios).toFixed(2)}x ` +
      `(max/min ${spread.toFixed(2)}: ${spread < 1.25 ? 'roughly constant, so linear' : 'NOT constant'}); ` +
      `target <= 1.5x: ${Math.max(...ratios) <= 1.5 ? 'met' : 'missed'}\n` +
      `marginal body bytes per answer byte from the smallest size: ${per.slice(1).map((p) => p.toFixed(2)).join(', ')}\n`,
  );
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
