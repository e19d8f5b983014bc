// bench/first-token: the time from pressing Enter to the first token shown in the page, against the model server's
// own time to first token, both measured in the same run. The scripted server waits 300 ms before its first chunk
// (ttftMs); its own TTFT is measured by a plain streaming request from this process (request sent to first content
// delta). In the page, Enter is the keydown event as the page receives it, and a MutationObserver installed before
// it notes when the answer's first characters appear.
// Prints the medians and page / server; the goal is at most 1.10. The page draws at most once a frame (16.7 ms at
// 60 Hz), so its times come in steps of about a frame: what the app's own work decides is whether the first token
// makes the frame after the model's first chunk, and the p90 shows how often it misses it.
// --history N first fills the conversation with N long answers (a few hundred stored events each), so that the run
// measured reads and sends a long history, as in a conversation a user has kept going.
// Two paths are measured, run by run in turn: Enter in an existing conversation, and a newcomer's first message
// ("New chat", type, click Send, in a second tab: from the pointer-down as the page receives it to the first answer
// characters on screen; the conversation is created, the address bar moves to ?c=…, the list is fetched meanwhile).
// --path enter|new measures one of them alone.
// Run: npm run bench:first-token [-- --runs 7 --ttft 300 --history 40 --path enter|new --build]
import type { Page } from '@playwright/test';
import { answerDone, machineLoad, openChat, typeMessage, withStack, type ModelServerProcess } from './support/app';
import { flag } from './support/flags';
import { quantile } from './support/stats';

const RUNS = Number(flag('runs', '7'));
const TTFT_MS = Number(flag('ttft', '300'));
const HISTORY = Number(flag('history', '0'));
const PATHS = flag('path', 'both');
const ANSWER = 'Hello from the first-token bench: a short answer after a wait.';
const LONG_ANSWER = 'An earlier answer of the conversation, long enough to be streamed in many pieces. '.repeat(24);

declare global {
  interface Window {
    __firstToken?: number;
    __enter?: number;
    __press?: number;
  }
}

function median(xs: number[]): number {
  return quantile(xs, 0.5);
}

/** The server's own TTFT: a streaming request from here, sent to the first content delta. */
async function serverTtft(baseUrl: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'bench-model', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let at: number | undefined;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (at === undefined && /"content":"[^"]/.test(text)) at = performance.now() - t0;
  }
  if (at === undefined) throw new Error('the model server sent no content');
  return at;
}

/** Enter to the first characters of the answer on screen, and Enter to the model server receiving the run's
 *  request (the app's work before the model is asked). Enter is the keydown event as the page receives it (its
 *  timeStamp): the press as a user makes it. Playwright's own trip to the browser before that (CDP, 1–9 ms here)
 *  is the bench's, not the app's, and is reported apart. Page times are on the page's clock (performance.timeOrigin,
 *  the epoch), the model server's on Date.now() of this machine. */
async function pageTtft(
  page: Page,
  n: number,
  model: ModelServerProcess,
): Promise<{ shown: number; asked: number; dispatch: number }> {
  await typeMessage(page, `first token ${n}`);
  await page.evaluate((before) => {
    window.__firstToken = undefined;
    window.__enter = undefined;
    document.addEventListener(
      'keydown',
      (e) => {
        if (e.key === 'Enter') window.__enter = performance.timeOrigin + e.timeStamp;
      },
      { capture: true, once: true },
    );
    const observer = new MutationObserver(() => {
      const answers = document.querySelectorAll('article[data-role="assistant"]');
      if (answers.length > before && answers[before]?.textContent?.includes('Hello')) {
        window.__firstToken = performance.timeOrigin + performance.now();
        observer.disconnect();
      }
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  }, n);
  const sent = Date.now();
  await page.keyboard.press('Enter');
  const handle = await page.waitForFunction(
    () => window.__firstToken && window.__enter && { shown: window.__firstToken, enter: window.__enter },
    undefined,
    { timeout: 30_000 },
  );
  const { shown, enter } = (await handle.jsonValue()) as { shown: number; enter: number };
  const asked = (await model.requestTimes('/v1/chat/completions')).filter((t) => t >= sent)[0];
  if (asked === undefined) throw new Error('the model server received no request for this message');
  // Let the answer finish before the next message.
  await page.waitForFunction(
    (count) => {
      const answers = document.querySelectorAll('article[data-role="assistant"]');
      return answers.length >= count && answers[count - 1]?.getAttribute('aria-busy') === 'false';
    },
    n + 1,
    { timeout: 30_000 },
  );
  return { shown: shown - enter, asked: asked - enter, dispatch: enter - sent };
}

/** A newcomer's first message: "New chat", type, click Send; from the pointer-down on Send as the page receives it
 *  to the first characters of the answer on screen, and to the model server receiving the run's request. */
async function newChatTtft(
  page: Page,
  n: number,
  model: ModelServerProcess,
): Promise<{ shown: number; asked: number; dispatch: number }> {
  await page.getByRole('button', { name: '+ New chat', exact: true }).click();
  await page.waitForFunction(() => document.querySelectorAll('article[data-role="assistant"]').length === 0);
  await typeMessage(page, `a new conversation ${n}`);
  await page.evaluate(() => {
    window.__firstToken = undefined;
    window.__press = undefined;
    document.addEventListener('pointerdown', (e) => (window.__press = performance.timeOrigin + e.timeStamp), {
      capture: true,
      once: true,
    });
    const observer = new MutationObserver(() => {
      const answer = document.querySelector('article[data-role="assistant"]');
      if (answer?.textContent?.includes('Hello')) {
        window.__firstToken = performance.timeOrigin + performance.now();
        observer.disconnect();
      }
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  const send = page.getByRole('button', { name: 'Send', exact: true });
  const box = await send.boundingBox();
  if (!box) throw new Error('no Send button');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const sent = Date.now();
  await page.mouse.down();
  await page.mouse.up();
  const handle = await page.waitForFunction(
    () => window.__firstToken && window.__press && { shown: window.__firstToken, press: window.__press },
    undefined,
    { timeout: 30_000 },
  );
  const { shown, press } = (await handle.jsonValue()) as { shown: number; press: number };
  const asked = (await model.requestTimes('/v1/chat/completions')).filter((t) => t >= sent)[0];
  if (asked === undefined) throw new Error('the model server received no request for this message');
  await answerDone(page);
  return { shown: shown - press, asked: asked - press, dispatch: press - sent };
}

/** N earlier turns, each with a long answer streamed in 8-character pieces, sent through the page. */
async function fillHistory(page: Page, model: ModelServerProcess, n: number): Promise<void> {
  await model.setScenario({ fallback: { content: LONG_ANSWER, chunkSize: 8 } });
  for (let i = 0; i < n; i++) {
    await typeMessage(page, `earlier question ${i}`);
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      (count) => document.querySelectorAll('article[data-role="assistant"]').length >= count,
      i + 1,
    );
    await answerDone(page);
  }
}

interface Path {
  name: string;
  shown: number[];
  asked: number[];
  dispatch: number[];
  run: (i: number) => Promise<{ shown: number; asked: number; dispatch: number }>;
}

async function main() {
  const history = HISTORY ? `, after ${HISTORY} long turns` : '';
  console.log(`first-token: ${RUNS} runs, model server TTFT ${TTFT_MS} ms${history}; ${machineLoad()}`);
  await withStack(
    async ({ model, app, browser }) => {
      const page = await browser.newPage();
      await openChat(page, app.url);
      if (HISTORY) await fillHistory(page, model, HISTORY);
      await model.setScenario({ fallback: { content: ANSWER, ttftMs: TTFT_MS, chunkSize: 8 } });
      const fresh = await browser.newPage();
      await openChat(fresh, app.url);
      const paths: Path[] = [];
      if (PATHS !== 'new')
        paths.push({
          name: 'Enter in the conversation',
          shown: [],
          asked: [],
          dispatch: [],
          run: (i) => pageTtft(page, HISTORY + i, model),
        });
      if (PATHS !== 'enter')
        paths.push({
          name: 'New chat, click Send',
          shown: [],
          asked: [],
          dispatch: [],
          run: (i) => newChatTtft(fresh, i, model),
        });
      // Warm-up: the first run of each path compiles and connects.
      for (const path of paths) await path.run(0);
      await serverTtft(model.url);
      const server: number[] = [];
      for (let i = 1; i <= RUNS; i++) {
        server.push(await serverTtft(model.url));
        for (const path of paths) {
          const r = await path.run(i);
          path.shown.push(r.shown);
          path.asked.push(r.asked);
          path.dispatch.push(r.dispatch);
        }
      }
      const s = median(server);
      const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
      console.log(`model server's own TTFT: median ${s.toFixed(0)} ms (${list(server)})`);
      for (const path of paths) {
        const p = median(path.shown);
        const a = median(path.asked);
        console.log(`${path.name}: to the first token in the page median ${p.toFixed(0)} ms (${list(path.shown)})`);
        console.log(`  of which to the model's request: median ${a.toFixed(0)} ms (${list(path.asked)})`);
        console.log(`  and the model's first chunk to the screen: about ${(p - a - s).toFixed(0)} ms`);
        console.log(
          `  (Playwright's input reached the page ${median(path.dispatch).toFixed(1)} ms after it was sent: not counted)`,
        );
        console.log(
          `  page / server: ${(p / s).toFixed(3)} (goal <= 1.10); p90 ${(quantile(path.shown, 0.9) / s).toFixed(3)}`,
        );
      }
    },
    // The history is sent faster than a person types: the per-minute run limit would refuse it.
    { env: { MAX_RUNS_PER_MINUTE: String(HISTORY + 2 * RUNS + 30) } },
  );
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
