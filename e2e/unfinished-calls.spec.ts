// A tool call running when its run ends otherwise than by Stop: the store failing under the run (another program
// holds the database's write lock past the store's 30 s wait) and the server killed mid-call, then started again.
// The card says the call was interrupted while running, with why, not "Not run"; the run inspector says the same;
// and the next message's request answers the call with a tool message. Each test starts its own server on its own
// DATA_DIR (the lock, the kill), with the fixture MCP server's `slow` tool.
import { expect, test, type Locator, type Page } from '@playwright/test';
import path from 'node:path';
import { holdWriteLock } from '../test/support/sqlite-faults';
import { ownApp } from './support/app-process';
import { assistantTurns, lastAnswer, openChat, panelOf, send } from './support/chat';
import { chatRequests, setScenario } from './support/model';

function appEnv(): Record<string, string> {
  const config = process.env.E2E_MCP_CONFIG;
  if (!config) throw new Error('E2E_MCP_CONFIG is not set: run the browser tests through playwright.config.ts');
  return { MCP_CONFIG: config };
}

/** A conversation with the fixture's `slow` tool on, and a message whose answer calls it for `ms`. */
async function callSlowTool(
  page: Page,
  base: string,
  word: string,
  ms: number,
  opts: { pause?: boolean } = {},
): Promise<Locator> {
  await setScenario({
    rules: [
      {
        when: { lastUserIncludes: word },
        reply: { toolCalls: [{ id: 'call_slow', name: 'fixture-slow', arguments: JSON.stringify({ ms }) }] },
      },
      { when: {}, reply: { content: `Noted (${word}).` } },
    ],
  });
  await openChat(page, base);
  await page.getByRole('button', { name: 'Settings' }).click();
  const server = page.getByRole('listitem', { name: 'MCP server fixture' });
  await expect(server).toContainText('ready with 9 tools', { timeout: 30_000 });
  await server.getByRole('checkbox', { name: /^fixture-slow / }).check();
  if (opts.pause) await page.getByRole('checkbox', { name: /Pause before tools/ }).check();
  await send(page, `Sleep a while, ${word}`);
  const card = assistantTurns(page)
    .last()
    .getByRole('button', { name: /fixture-slow/ });
  if (opts.pause) {
    await expect(card).toContainText('awaiting approval');
    await assistantTurns(page)
      .last()
      .getByRole('group', { name: 'Approve fixture-slow' })
      .getByRole('button', { name: 'Run', exact: true })
      .click();
  }
  await expect(card).toContainText('running');
  return card;
}

/** The card says its call was interrupted while it ran, with `why`, and nowhere that it was not run. */
async function expectInterrupted(card: Locator, why: string): Promise<void> {
  await expect(card).toContainText('interrupted');
  if ((await card.getAttribute('aria-expanded')) !== 'true') await card.click();
  const panel = await panelOf(card);
  await expect(panel).toContainText('Interrupted while running');
  await expect(panel).toContainText(why);
  await expect(panel).not.toContainText('Not run');
}

/** The run inspector's tool step says the same as the card. */
async function expectInspectorSays(page: Page, why: string): Promise<void> {
  await (await lastAnswer(page)).getByRole('button', { name: 'Inspect run' }).click();
  const inspector = page.getByRole('dialog', { name: 'Run inspector' });
  const steps = inspector.getByRole('region', { name: 'Tool calls' });
  await expect(steps).toContainText(/fixture-slow\s*interrupted/);
  await expect(steps).toContainText(why);
  await page.keyboard.press('Escape');
  await expect(inspector).toBeHidden();
  // Closing goes back a step of the history: taken before the page's next step.
  await expect(page).not.toHaveURL(/[?&]run=/);
}

/** The next message's request answers the call with a tool message saying `why`. */
async function expectNextRequestAnswers(page: Page, word: string, why: string): Promise<void> {
  await send(page, 'What happened?');
  await expect(assistantTurns(page)).toHaveCount(2);
  await expect(await lastAnswer(page)).toContainText(`Noted (${word}).`);
  const messages = (await chatRequests()).at(-1)!.body.messages as {
    role: string;
    tool_call_id?: string;
    content: string;
  }[];
  expect(messages.find((m) => m.role === 'tool' && m.tool_call_id === 'call_slow')?.content).toBe(why);
}

test('the store failing while a tool runs: its card says the run failed while it ran, not that it did not run', async ({
  page,
}, testInfo) => {
  // The store waits 30 s for the lock before it gives up on the write.
  testInfo.setTimeout(150_000);
  const dataDir = testInfo.outputPath('data');
  const server = await ownApp(dataDir, appEnv());
  try {
    const card = await callSlowTool(page, server.base, 'unfinished-godwit', 1500);
    await expect(page).toHaveURL(/\?c=[\w-]+/);
    const url = page.url();
    // Another program takes the database's write lock while the call runs: its result cannot be stored.
    const lock = await holdWriteLock(path.join(dataDir, 'agent-studio.db'));
    const turn = assistantTurns(page).last();
    await expect(turn).toHaveAttribute('aria-busy', 'false', { timeout: 60_000 });
    await expect(turn.getByRole('alert')).toContainText('locked by another program');
    const why = 'The run failed while this call was running; it has no result.';
    await expectInterrupted(card, why);
    await lock.release();

    // Once the store takes writes again the run is closed with its error: a reload reads the same.
    await expect
      .poll(async () => {
        await openChat(page, url);
        return (await lastAnswer(page)).getByRole('alert').filter({ hasText: 'locked by another program' }).count();
      })
      .toBe(1);
    await expectInterrupted(
      assistantTurns(page)
        .last()
        .getByRole('button', { name: /fixture-slow/ }),
      why,
    );
    await expectInspectorSays(page, why);
    await expectNextRequestAnswers(page, 'unfinished-godwit', why);
  } finally {
    await server.down();
  }
});

test('the server killed while a tool runs: after a restart its card says the server stopped while it ran', async ({
  page,
}, testInfo) => {
  testInfo.setTimeout(150_000);
  const server = await ownApp(testInfo.outputPath('data'), appEnv());
  try {
    const card = await callSlowTool(page, server.base, 'unfinished-curlew', 30_000);
    await expect(page).toHaveURL(/\?c=[\w-]+/);
    const url = page.url();
    await page.waitForTimeout(500); // the call is under way

    await server.down();
    const why = 'The server stopped while this call was running; it has no result.';
    // The page notices the lost connection and says so of the call it was showing running.
    await expect(page.getByRole('alert').filter({ hasText: 'Lost the connection' })).toBeVisible();
    await expectInterrupted(card, why);

    await server.up();
    await openChat(page, url);
    const reloaded = assistantTurns(page).last();
    await expect(reloaded.getByText(/^Interrupted/)).toBeVisible();
    await expectInterrupted(reloaded.getByRole('button', { name: /fixture-slow/ }), why);
    await expectInspectorSays(page, why);
    await expectNextRequestAnswers(page, 'unfinished-curlew', why);
  } finally {
    await server.down();
  }
});

test('an approved call: its form goes once approved, a reload shows it running, and the server killed while it runs leaves it interrupted', async ({
  page,
}, testInfo) => {
  testInfo.setTimeout(150_000);
  const server = await ownApp(testInfo.outputPath('data'), appEnv());
  try {
    const card = await callSlowTool(page, server.base, 'unfinished-godwit', 30_000, { pause: true });
    const turn = assistantTurns(page).last();
    await expect(turn.getByRole('group', { name: 'Approve fixture-slow' })).toHaveCount(0);
    await expect(turn).toContainText('Run after your approval');
    await expect(card).not.toContainText('awaiting approval');

    // What the run's log says, read again: the call runs, approved; nothing asks for a decision again.
    await page.reload();
    const reloaded = assistantTurns(page).last();
    await expect(reloaded.getByRole('button', { name: /fixture-slow/ })).toContainText('running');
    await expect(reloaded.getByRole('group', { name: 'Approve fixture-slow' })).toHaveCount(0);
    const url = page.url();

    await server.down();
    const why = 'The server stopped while this call was running; it has no result.';
    await server.up();
    await openChat(page, url);
    await expectInterrupted(
      assistantTurns(page)
        .last()
        .getByRole('button', { name: /fixture-slow/ }),
      why,
    );
    await expectInspectorSays(page, why);
  } finally {
    await server.down();
  }
});
