// Stop and a paused call's decision when their request gets no answer (the network refuses it, as when the server is
// down for a moment; the answer already streaming goes on): the page says the server could not be reached and the
// run goes on, waiting as before; once requests get through, the same Stop and Run work. At phone width, from the
// keyboard where the page offers a key. The agent editor's Save and an agent's Delete too: said in the editor (or over
// the list), the agent as it was, and they work once requests get through.
import { expect, test, type Page } from '@playwright/test';
import { assistantTurns, lastAnswer, openChat, send, stopButton, userTurns } from './support/chat';
import { setScenario } from './support/model';

const UNREACHABLE = 'Could not reach the server (Failed to fetch). Nothing was done: try again once it is back.';

/** From now on, the page's server action requests fail as a refused connection does (what is under way goes on). */
async function refuseActions(page: Page): Promise<void> {
  await page.route('**/*', (route) =>
    route.request().headers()['next-action'] ? route.abort('connectionrefused') : route.continue(),
  );
}

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
});

test('Stop that does not reach the server says so and the answer goes on; Esc stops it once it does', async ({
  page,
}) => {
  const word = 'unanswered-stop-heron';
  await setScenario({
    rules: [
      { when: { lastUserIncludes: word }, reply: { content: 'Herons wait. '.repeat(300), chunkSize: 2, delayMs: 30 } },
    ],
  });
  await openChat(page);
  await send(page, `Tell me of herons ${word}`);
  const turn = assistantTurns(page).last();
  await expect(turn).toContainText('Herons wait. Herons wait.');

  await refuseActions(page);
  await stopButton(page).click();
  await expect(page.getByRole('alert').filter({ hasText: UNREACHABLE })).toBeVisible();
  await expect(turn).toHaveAttribute('aria-busy', 'true');
  await expect(stopButton(page)).toBeVisible();

  await page.unrouteAll();
  await page.getByRole('textbox', { name: 'Message', exact: true }).press('Escape');
  await expect(turn).toHaveAttribute('aria-busy', 'false');
  await expect(turn.getByText('Stopped by you')).toBeVisible();
});

test('a paused call decided while the server cannot be reached says so on its card; Run works once it can', async ({
  page,
}) => {
  const word = 'unanswered-pause-egret';
  await setScenario({
    rules: [
      {
        when: { lastUserIncludes: word },
        reply: [
          { toolCalls: [{ name: 'calculator', arguments: '{"expression": "6*7"}' }] },
          { content: `Done (${word}).` },
        ],
      },
      { when: { lastUserIncludes: 'egret-hello' }, reply: { content: 'Hello.' } },
    ],
  });
  // Pause is set in a conversation (saved with it), not on the new chat, whose settings the page may set again.
  await openChat(page);
  await send(page, 'egret-hello');
  await expect(await lastAnswer(page)).toContainText('Hello.');
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('checkbox', { name: /Pause before tools/ }).check();
  await page.keyboard.press('Escape');
  await send(page, `What is six times seven? ${word}`);
  const approval = assistantTurns(page).last().getByRole('group', { name: 'Approve calculator' });
  await expect(approval).toBeVisible();
  const run = approval.getByRole('button', { name: 'Run', exact: true });

  await refuseActions(page);
  await run.focus();
  await page.keyboard.press('Enter');
  await expect(approval.getByRole('alert')).toHaveText(UNREACHABLE);
  await expect(run).toBeEnabled();
  await expect(stopButton(page)).toBeVisible();

  await page.unrouteAll();
  await run.focus();
  await page.keyboard.press('Enter');
  await expect(await lastAnswer(page)).toContainText(`Done (${word}).`);
});

test('opening, renaming, deleting and searching conversations while the server cannot be reached say so and change nothing', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const word = 'unanswered-list-plover';
  await setScenario({ fallback: { content: `Noted (${word}).` } });
  await openChat(page);
  await send(page, `First ${word}`);
  await expect(await lastAnswer(page)).toContainText('Noted');
  const nav = page.getByRole('navigation', { name: 'Conversations' });
  await nav.getByRole('button', { name: '+ New chat' }).click();
  await send(page, `Second ${word}`);
  await expect(await lastAnswer(page)).toContainText('Noted');
  const notice = page.getByRole('alert').filter({ hasText: UNREACHABLE });
  const dismiss = () => notice.getByRole('button', { name: 'Dismiss' }).click();

  await refuseActions(page);
  // Opening the other: the notice, and the one shown stays.
  await nav.getByRole('button', { name: `First ${word}`, exact: true }).click();
  await expect(notice).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Second ${word}`);
  await dismiss();

  // Renaming: the notice, and the title stays.
  await nav.getByRole('button', { name: `Rename Second ${word}` }).click();
  await nav.getByRole('textbox', { name: 'New title' }).fill('Renamed meanwhile');
  await nav.getByRole('textbox', { name: 'New title' }).press('Enter');
  await expect(notice).toBeVisible();
  await expect(nav.getByRole('button', { name: 'Renamed meanwhile', exact: true })).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Second ${word}`);
  await dismiss();

  // Deleting: the notice, and the conversation is still there, still open.
  await nav.getByRole('button', { name: `Delete Second ${word}` }).click();
  await page
    .getByRole('dialog', { name: new RegExp(`^Delete “Second ${word}”`) })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(notice).toBeVisible();
  await expect(nav.getByRole('button', { name: `Second ${word}`, exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Second ${word}`);
  await dismiss();

  // Searching: the notice, and the list as it was.
  await nav.getByRole('searchbox').fill('nothing matches this');
  await expect(notice).toBeVisible();
  await expect(nav.getByRole('button', { name: `First ${word}`, exact: true })).toBeVisible();

  // Back: the same clicks work.
  await page.unrouteAll();
  await nav.getByRole('searchbox').fill('');
  await nav.getByRole('button', { name: `First ${word}`, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`First ${word}`);
});

test('saving and deleting an agent while the server cannot be reached say so and change nothing', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openChat(page);
  const name = 'Unanswered sandpiper';
  await page.getByRole('button', { name: 'New agent', exact: true }).click();
  const editor = page.getByRole('dialog', { name: 'Agent', exact: true });
  await editor.getByRole('textbox', { name: 'Name', exact: true }).fill(name);

  await refuseActions(page);
  const save = editor.getByRole('button', { name: 'Save', exact: true });
  await save.click();
  // Said in the editor, which stays open with what was typed, ready to save again.
  await expect(editor.getByRole('alert')).toHaveText(`Not saved: ${UNREACHABLE}`);
  await expect(editor.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue(name);
  await expect(save).toBeEnabled();

  await page.unrouteAll();
  await save.click();
  await expect(editor).toBeHidden();
  const deleteButton = page.getByRole('button', { name: `Delete ${name}`, exact: true });
  await expect(deleteButton).toBeVisible();

  await refuseActions(page);
  await deleteButton.click();
  await page
    .getByRole('dialog', { name: /^Delete the agent/ })
    .getByRole('button', { name: 'Delete', exact: true })
    .click();
  await expect(page.getByRole('alert').filter({ hasText: UNREACHABLE })).toBeVisible();
  await expect(deleteButton).toBeVisible();

  await page.unrouteAll();
  await deleteButton.click();
  await page
    .getByRole('dialog', { name: /^Delete the agent/ })
    .getByRole('button', { name: 'Delete', exact: true })
    .click();
  await expect(deleteButton).toHaveCount(0);
});

test('a simulated user started while the server cannot be reached ends at once and says why; it starts once it can', async ({
  page,
}) => {
  const word = 'unanswered-sim-dunlin';
  await setScenario({
    rules: [
      // Only HumanSimulator's system message asks for this: its next line, as a JSON list.
      { when: { anyIncludes: 'JSON list of four questions' }, reply: { content: JSON.stringify(['And dunlins?']) } },
    ],
    fallback: { content: `Noted (${word}).` },
  });
  await openChat(page);
  await send(page, `Hello ${word}`);
  await expect(await lastAnswer(page)).toContainText('Noted');
  const simulate = page.getByRole('button', { name: 'Simulate a user' });
  const dialog = page.getByRole('dialog', { name: 'Simulate a user' });
  const stopSimulating = page.getByRole('button', { name: 'Stop simulating' });

  await refuseActions(page);
  await simulate.click();
  await dialog.getByRole('spinbutton', { name: /^Messages to send/ }).fill('1');
  await dialog.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The simulated user could not go on' })).toHaveText(
    `The simulated user could not go on: ${UNREACHABLE}`,
  );
  await expect(stopSimulating).toHaveCount(0);
  await expect(userTurns(page)).toHaveCount(1);

  await page.unrouteAll();
  await simulate.click();
  await dialog.getByRole('spinbutton', { name: /^Messages to send/ }).fill('1');
  await dialog.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The simulated user sent 1 message.' })).toBeVisible();
  await expect(userTurns(page)).toHaveCount(2);
  await expect(userTurns(page).last()).toContainText('And dunlins?');
});
