// bench/health-under-parse: how long GET /api/health takes on the built app while 20 large PDFs parse (uploaded at
// once through POST /api/files), against the same requests with nothing parsing, in the same run on the same
// server. Parsing runs in worker threads (lib/documents/parse-pool.ts); on the main thread it stalled /api/health
// for seconds. Target: p99 under 100 ms while parsing. Prints p50/p95/p99/max and the p99 ratio.
// Run: npm run bench:health-under-parse [-- --pdfs 20 --pages 400 --baseline 300]
import { ensureBuild, machineLoad, startApp, startModelServer, type Stoppable } from './support/app';
import { quantile } from './support/stats';
import { makePdf, textPage, type PdfPage } from '../test/support/pdf-writer';

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) || fallback : fallback;
};
const PDFS = arg('pdfs', 20);
const PAGES = arg('pages', 400);
const BASELINE = arg('baseline', 300);
const GAP_MS = 20;

const WORDS = 'ledger invoice freight tariff customs manifest pallet carrier docket bond excise duty clearance'.split(
  ' ',
);

/** A PDF of `pages` pages of text, different for every `n` (so no two uploads share a content hash). */
function book(n: number, pages: number): Buffer {
  const out: PdfPage[] = [];
  for (let p = 0; p < pages; p++) {
    const paragraphs = Array.from(
      { length: 6 },
      (_, i) =>
        Array.from({ length: 14 }, (_, j) => WORDS[(n * 31 + p * 7 + i * 5 + j) % WORDS.length]).join(' ') +
        ` ${n}.${p}.${i}`,
    );
    out.push(textPage(`Document ${n}, page ${p + 1}`, paragraphs));
  }
  return makePdf(out, { title: `Book ${n}` });
}

async function healthMs(url: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${url}/api/health`);
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`/api/health answered ${res.status}`);
  return performance.now() - t0;
}

function summary(xs: number[]): string {
  const f = (q: number) => quantile(xs, q).toFixed(1);
  return `n=${xs.length} p50 ${f(0.5)} ms, p95 ${f(0.95)} ms, p99 ${f(0.99)} ms, max ${f(1)} ms`;
}

async function main(): Promise<void> {
  ensureBuild();
  const started: Stoppable[] = [];
  try {
    const model = await startModelServer();
    started.push(model);
    const app = await startApp(model.url);
    started.push(app);
    const own = { origin: app.url };
    process.stdout.write(`making ${PDFS} PDFs of ${PAGES} pages…\n`);
    const pdfs = Array.from({ length: PDFS }, (_, n) => book(n, PAGES));
    process.stdout.write(`${(pdfs.reduce((s, b) => s + b.length, 0) / 1024 / 1024).toFixed(1)} MB in all\n`);

    for (let i = 0; i < 20; i++) await healthMs(app.url); // warm the route
    const idle: number[] = [];
    for (let i = 0; i < BASELINE; i++) {
      idle.push(await healthMs(app.url));
      await new Promise((r) => setTimeout(r, GAP_MS));
    }

    // One conversation, then every PDF at once; parsing starts as each upload lands.
    const first = await fetch(`${app.url}/api/files?name=book-0.pdf`, {
      method: 'POST',
      headers: own,
      body: new Uint8Array(pdfs[0]!),
    });
    const conversationId = ((await first.json()) as { conversationId: string }).conversationId;
    const uploads = pdfs.slice(1).map((bytes, i) =>
      fetch(`${app.url}/api/files?name=book-${i + 1}.pdf&conversationId=${conversationId}`, {
        method: 'POST',
        headers: own,
        body: new Uint8Array(bytes),
      }).then((r) => {
        if (r.status !== 201) throw new Error(`upload answered ${r.status}`);
      }),
    );
    const busy: number[] = [];
    const t0 = performance.now();
    let done = false;
    const watch = (async () => {
      while (!done) {
        busy.push(await healthMs(app.url));
        await new Promise((r) => setTimeout(r, GAP_MS));
      }
    })();
    await Promise.all(uploads);
    for (;;) {
      const list = (await (await fetch(`${app.url}/api/files?conversationId=${conversationId}`)).json()) as {
        documents: { state: string; error?: string }[];
      };
      if (list.documents.length === PDFS && list.documents.every((d) => d.state !== 'parsing')) {
        const failed = list.documents.filter((d) => d.state !== 'ready');
        if (failed.length) throw new Error(`${failed.length} documents failed: ${failed[0]!.error}`);
        break;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    done = true;
    await watch;
    const parseS = (performance.now() - t0) / 1000;

    const p99Idle = quantile(idle, 0.99);
    const p99Busy = quantile(busy, 0.99);
    console.log(`\n${machineLoad()}`);
    console.log(`nothing parsing:        ${summary(idle)}`);
    console.log(`${PDFS} PDFs parsing (${parseS.toFixed(1)} s): ${summary(busy)}`);
    console.log(
      `p99 ratio busy/idle: ${(p99Busy / p99Idle).toFixed(2)}x; target p99 < 100 ms while parsing: ${p99Busy < 100 ? 'met' : 'NOT met'}`,
    );
  } finally {
    for (const s of started.reverse()) await s.stop().catch(() => undefined);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
