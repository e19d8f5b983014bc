import { readFileSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { lastAnswer, openChat, send } from './support/chat';
import { seriousViolations } from './support/axe';
import { focusProblem } from './support/focus';
import { setScenario } from './support/model';

/** A native tool call (calculator 6*7), then an answer; `word` keeps the rule to this test's messages. */
async function toolRun(page: Page, word: string): Promise<void> {
  await setScenario({
    rules: [
      {
        when: { lastUserIncludes: word },
        reply: [
          { toolCalls: [{ name: 'calculator', arguments: '{"expression": "6*7"}' }] },
          { content: `The product is 42 (${word}).` },
        ],
      },
    ],
  });
  await openChat(page);
  await send(page, `What is six times seven? ${word}`);
  await expect(await lastAnswer(page)).toContainText(`The product is 42 (${word}).`);
}

function inspector(page: Page): Locator {
  return page.getByRole('dialog', { name: 'Run inspector' });
}

/** Checks the inspector shows the two-iteration calculator run: the tool result of iteration 1 (42) is in the
 *  request of iteration 2, and iteration 2's response is the answer. */
async function expectCalculatorRun(page: Page, word: string): Promise<void> {
  const dialog = inspector(page);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('tab', { name: /^Iteration \d+$/ })).toHaveCount(2);
  await expect(dialog).toContainText('Outcome');
  await expect(dialog).toContainText('Answered: the model’s last reply called no tool.');

  const first = dialog.getByRole('tab', { name: 'Iteration 1', exact: true });
  await expect(first).toHaveAttribute('aria-selected', 'true');
  const panel = dialog.getByRole('tabpanel');
  const tools = panel.getByRole('region', { name: 'Tool calls' });
  await expect(tools).toContainText('"expression": "6*7"');
  await expect(tools).toContainText('42');

  await dialog.getByRole('tab', { name: 'Iteration 2', exact: true }).click();
  await expect(dialog.getByRole('tab', { name: 'Iteration 2', exact: true })).toHaveAttribute('aria-selected', 'true');
  const messages = panel.getByRole('list', { name: 'Messages sent' }).getByRole('listitem');
  await expect(messages.filter({ hasText: `What is six times seven? ${word}` })).toHaveCount(1);
  const toolMessage = messages.filter({ hasText: /^tool/ });
  await expect(toolMessage).toHaveCount(1);
  await expect(toolMessage).toContainText('42');
  await expect(panel.getByRole('region', { name: 'Response' })).toContainText(`The product is 42 (${word}).`);
}

test('the inspector shows the tool result of iteration 1 inside the request of iteration 2', async ({ page }) => {
  await toolRun(page, 'inspect-wren');
  await (await lastAnswer(page)).getByRole('button', { name: 'Inspect run' }).click();
  await expectCalculatorRun(page, 'inspect-wren');

  // The raw JSON view holds the exact body, tool schemas included; Esc closes and focus goes back to the opener.
  const panel = inspector(page).getByRole('tabpanel');
  await panel.getByRole('button', { name: 'Raw JSON' }).click();
  await expect(panel.getByLabel('Request as JSON')).toContainText('"name": "calculator"');
  await page.keyboard.press('Escape');
  await expect(inspector(page)).toBeHidden();
  await expect((await lastAnswer(page)).getByRole('button', { name: 'Inspect run' })).toBeFocused();
});

test('the focus stays on screen when a stored run’s request arrives above it', async ({ page }) => {
  await toolRun(page, 'focus-kite');
  // Each iteration's request is loaded on demand (a server action given the run id and the iteration): held here
  // until the response below it has the focus.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/*', async (route) => {
    const req = route.request();
    if (req.method() === 'POST' && req.headers()['next-action'] && /^\["[^"]+",\d/.test(req.postData() ?? ''))
      await held;
    await route.continue();
  });
  await (await lastAnswer(page)).getByRole('button', { name: 'Inspect run' }).click();
  const dialog = inspector(page);
  await dialog.getByRole('tab', { name: 'Iteration 2', exact: true }).click();
  await expect(dialog.getByText('Loading the request…')).toBeVisible();
  const raw = dialog.getByRole('tabpanel').getByLabel('Raw content');
  await raw.focus();
  // Scrolled so that the focused answer is at the bottom of what shows, as a person reading down leaves it.
  await raw.evaluate((el) => el.scrollIntoView({ block: 'end' }));
  expect(await focusProblem(page)).toBeUndefined();
  release();
  await expect(dialog.getByRole('list', { name: 'Messages sent' })).toBeVisible();
  await expect.poll(() => focusProblem(page)).toBeUndefined();
  await expect(raw).toBeFocused();
});

test('an exported run imports again as the same run; a bad file is refused with a reason', async ({ page }) => {
  await toolRun(page, 'export-finch');
  await (await lastAnswer(page)).getByRole('button', { name: 'Inspect run' }).click();
  await expect(inspector(page).getByRole('tab', { name: 'Iteration 2', exact: true })).toBeVisible();

  const downloading = page.waitForEvent('download');
  await inspector(page).getByRole('button', { name: 'Export run' }).click();
  const download = await downloading;
  const file = await download.path();
  const exported = JSON.parse(readFileSync(file, 'utf8'));
  expect(exported.schema).toBe('agent-studio.run/2');
  await inspector(page).getByRole('button', { name: 'Close' }).click();
  await expect(inspector(page)).toBeHidden();
  // Closing goes back a step of the history: taken before the next page is opened, which it would abort.
  await expect(page).not.toHaveURL(/[?&]run=/);

  // A fresh page: the import does not depend on anything this page still holds.
  await openChat(page);
  const choosing = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import run' }).click();
  await (await choosing).setFiles(file);
  await expect(inspector(page)).toContainText('viewed only, not stored');
  await expectCalculatorRun(page, 'export-finch');
  await inspector(page).getByRole('button', { name: 'Close' }).click();

  const bad = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import run' }).click();
  await (
    await bad
  ).setFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"replies": []}') });
  await expect(
    page.getByText(/Could not import notes\.json: This file is not an Agent Studio run export/),
  ).toBeVisible();
  await expect(inspector(page)).toBeHidden();
});

test('"Save as fixture" downloads the model replies as a scenario for the scripted model server', async ({ page }) => {
  await toolRun(page, 'fixture-robin');
  await (await lastAnswer(page)).getByRole('button', { name: 'Inspect run' }).click();
  const downloading = page.waitForEvent('download');
  await inspector(page).getByRole('button', { name: 'Save as fixture' }).click();
  const fixture = JSON.parse(readFileSync(await (await downloading).path(), 'utf8'));
  expect(fixture.fixture).toBe('agent-studio.fixture/1');
  expect(fixture.userMessages).toEqual(['What is six times seven? fixture-robin']);
  expect(fixture.replies).toHaveLength(2);
  expect(fixture.replies[0].toolCalls).toEqual([
    expect.objectContaining({ name: 'calculator', arguments: '{"expression": "6*7"}' }),
  ]);
  expect(fixture.replies[1].content).toBe('The product is 42 (fixture-robin).');
});

test('the inspector fits a phone screen, works from the keyboard and has no serious accessibility violations', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'light' });
  await toolRun(page, 'phone-tern');
  const opener = (await lastAnswer(page)).getByRole('button', { name: 'Inspect run' });
  await opener.focus();
  await page.keyboard.press('Enter');
  const dialog = inspector(page);
  await expect(dialog.getByRole('tab', { name: 'Iteration 1', exact: true })).toBeVisible();
  const overflow = await dialog.evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(overflow, 'the inspector scrolls sideways at phone width').toBeLessThanOrEqual(0);

  // Arrow keys move between iterations (roving focus, as in a tab list).
  await dialog.getByRole('tab', { name: 'Iteration 1', exact: true }).focus();
  await page.keyboard.press('ArrowRight');
  const second = dialog.getByRole('tab', { name: 'Iteration 2', exact: true });
  await expect(second).toBeFocused();
  await expect(second).toHaveAttribute('aria-selected', 'true');

  const light = await seriousViolations(page);
  expect(light, `light theme:\n${light.join('\n')}`).toEqual([]);
  await page.keyboard.press('Escape');
  // Closed, and its step of the history left: a run opened before that step is taken would be closed by it.
  await expect(dialog).toBeHidden();
  await expect(page).not.toHaveURL(/[?&]run=/);
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await opener.click();
  await expect(second).toBeVisible();
  const dark = await seriousViolations(page);
  expect(dark, `dark theme:\n${dark.join('\n')}`).toEqual([]);
});

test('arguments that fail validation are shown beside the validation error', async ({ page }) => {
  await setScenario({
    rules: [
      {
        when: { lastUserIncludes: 'invalid-ibis' },
        reply: [
          { toolCalls: [{ name: 'calculator', arguments: '{"expr": "6*7"}' }] },
          { toolCalls: [{ name: 'calculator', arguments: '{"expression": "6*7"}' }] },
          { content: 'It is 42 (invalid-ibis).' },
        ],
      },
    ],
  });
  await openChat(page);
  await send(page, 'Multiply six by seven invalid-ibis');
  await expect(await lastAnswer(page)).toContainText('It is 42 (invalid-ibis).');
  await (await lastAnswer(page)).getByRole('button', { name: 'Inspect run' }).click();
  const dialog = inspector(page);
  await expect(dialog.getByRole('tab', { name: /^Iteration \d+$/ })).toHaveCount(3);
  const tools = dialog.getByRole('tabpanel').getByRole('region', { name: 'Tool calls' });
  await expect(tools).toContainText('failed (arguments refused)');
  await expect(tools).toContainText('"expr": "6*7"');
  await expect(tools.getByText('Validation error')).toBeVisible();
  await expect(tools).toContainText('expression');
  // The model's raw native tool call is listed in the response as the server sent it.
  await expect(dialog.getByRole('region', { name: 'Response' })).toContainText('{"expr": "6*7"}');
});
