// bench/inspector-open: opens the trace inspector on a 100-iteration run (99 tool calls, each with ~400 characters
// of text, then an answer: the request of iteration 100 holds ~200 messages, the run export a few MB) in the real
// page in Chromium, and on a 1-iteration run as the baseline, both measured in the same page. Records long tasks
// (PerformanceObserver, installed before the page loads) and the time from the click on "Inspect run" until the
// dialog shows the selected iteration (MutationObserver, then the next frame). Then selects the last iteration
// (End in the iteration tabs), which renders its whole request.
// Prints each measure, its longest task, and the ratios to the baseline. Target: no long task over 200 ms, and the
// 100-iteration run open within a small multiple of the 1-iteration one.
// Run: npm run bench:inspector [-- --runs 3 --iterations 100 --build]
import type { Page } from '@playwright/test';
import { answerDone, APP_DIR, machineLoad, openChat, typeMessage, withStack } from './support/app';
import { flag } from './support/flags';
import { recordLongTasks } from './support/long-tasks';

const RUNS = Number(flag('runs', '3'));
const ITERATIONS = Number(flag('iterations', '100'));

const FILLER =
  'I will work this out one step at a time, checking each intermediate product with the calculator before I ' +
  'go on, because a single slip early on would carry through to every later step and spoil the final answer. ' +
  'So far the numbers agree with what I expect, and the next multiplication continues the same series.';

interface Measure {
  ms: number;
  longest: number;
  over50: number;
}

/** Runs `act` in the page and waits until `ready` holds (checked on each DOM change), then one more frame. */
async function measure(page: Page, act: string, ready: string): Promise<Measure> {
  // Passed as text: tsx would wrap named inner functions in a helper (__name) the page does not have.
  const { ms, t0 } = (await page.evaluate(`(async () => {
    const isReady = () => (${ready});
    const t0 = performance.now();
    const done = new Promise((resolve) => {
      const obs = new MutationObserver(() => {
        if (!isReady()) return;
        obs.disconnect();
        requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0));
      });
      obs.observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    ${act}
    const t1 = await done;
    return { ms: t1 - t0, t0: performance.timeOrigin + t0 };
  })()`)) as { ms: number; t0: number };
  await page.waitForTimeout(300); // trailing tasks (effects, layout of off-screen parts)
  const tasks = (await page.evaluate(() => window.__bench?.longTasks ?? [])).filter((t) => t.start >= t0 - 1);
  return {
    ms,
    longest: Math.max(0, ...tasks.map((t) => t.duration)),
    over50: tasks.filter((t) => t.duration > 50).length,
  };
}

const clickInspect = (turn: number) =>
  `const b = [...document.querySelectorAll('article[data-role="assistant"]')][${turn}]` +
  `.querySelectorAll('button'); [...b].find((x) => x.textContent.trim() === 'Inspect run').click();`;
const OPENED = `Boolean(document.querySelector('dialog[open] [role=tabpanel] [aria-label="Messages sent"]'))`;
const pressEnd = `document.querySelector('dialog[open] [role=tablist]').dispatchEvent(new KeyboardEvent('keydown', { key: 'End', bubbles: true }));`;
const lastShown = (n: number) =>
  `Boolean(document.querySelector('dialog[open] [role=tabpanel][aria-labelledby="inspector-tab-${n}"] [aria-label="Messages sent"]'))`;

async function close(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.querySelector('dialog[open]'));
}

async function main(): Promise<void> {
  process.env.MAX_LLM_CALL_PER_RUN = String(ITERATIONS + 10);
  process.stdout.write(`inspector-open: a ${ITERATIONS}-iteration run against a 1-iteration run, ${RUNS} runs\n`);
  process.stdout.write(`app: ${APP_DIR}\nbefore: ${machineLoad()}\n`);
  const calls = Array.from({ length: ITERATIONS - 1 }, (_, i) => ({
    content: `Step ${i + 1}. ${FILLER}`,
    toolCalls: [{ name: 'calculator', arguments: JSON.stringify({ expression: `${i + 1}*7` }) }],
  }));
  const results = await withStack(async ({ model, app, browser }) => {
    const page = await browser.newPage();
    await page.addInitScript(recordLongTasks);
    await openChat(page, app.url);
    await model.setScenario({
      rules: [
        { when: { lastUserIncludes: 'bench-one' }, reply: { content: 'A short answer.' } },
        { when: { lastUserIncludes: 'bench-many' }, reply: [...calls, { content: 'Done after many steps.' }] },
      ],
    });
    const started = Date.now();
    await typeMessage(page, 'bench-one: a single model call');
    await page.keyboard.press('Enter');
    await answerDone(page);
    await typeMessage(page, `bench-many: ${ITERATIONS} model calls`);
    await page.keyboard.press('Enter');
    await answerDone(page);
    process.stdout.write(`  both runs recorded in ${Date.now() - started} ms\n`);

    const out: { one: Measure; many: Measure; last: Measure }[] = [];
    for (let run = 0; run < RUNS; run++) {
      const one = await measure(page, clickInspect(0), OPENED);
      await close(page);
      const many = await measure(page, clickInspect(1), OPENED);
      const label = await page.locator('dialog[open]').innerText();
      if (!label.includes(`of ${ITERATIONS}`)) throw new Error(`the inspector does not list ${ITERATIONS} iterations`);
      const last = await measure(page, pressEnd, lastShown(ITERATIONS));
      if (run === 0) {
        const sent = await page
          .locator('dialog[open] [role=tabpanel]')
          .getByText(/messages, \d+ tools/)
          .innerText();
        const drawn = await page.locator('dialog[open] [aria-label="Messages sent"] > li').count();
        process.stdout.write(`  iteration ${ITERATIONS}'s request: ${sent} (${drawn} drawn until "Show all")\n`);
      }
      await close(page);
      out.push({ one, many, last });
    }
    return out;
  });
  process.stdout.write(`after: ${machineLoad()}\n\n`);

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const row = (name: string, m: Measure[], base: number) => {
    const ms = median(m.map((x) => x.ms));
    const longest = Math.max(...m.map((x) => x.longest));
    return (
      `${name.padEnd(44)} median ${ms.toFixed(0).padStart(5)} ms (${(ms / base).toFixed(2)}x baseline), ` +
      `longest task ${longest.toFixed(0)} ms, tasks over 50 ms per open: ${m.map((x) => x.over50).join('/')}`
    );
  };
  const base = median(results.map((r) => r.one.ms));
  process.stdout.write(
    [
      row(
        'open a 1-iteration run (baseline)',
        results.map((r) => r.one),
        base,
      ),
      row(
        `open a ${ITERATIONS}-iteration run`,
        results.map((r) => r.many),
        base,
      ),
      row(
        `then select iteration ${ITERATIONS} (its request)`,
        results.map((r) => r.last),
        base,
      ),
    ].join('\n') + '\n',
  );
  const worst = Math.max(...results.flatMap((r) => [r.many.longest, r.last.longest]));
  process.stdout.write(
    `longest task with the ${ITERATIONS}-iteration run: ${worst.toFixed(0)} ms (target <= 200 ms: ${worst <= 200 ? 'met' : 'missed'})\n`,
  );
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
