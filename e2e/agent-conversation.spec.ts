// A conversation with a saved agent: the header's picker shows the agent's model and keeps it after the first
// message and a reload (the agent's model answers); the conversation settings show what the agent defines (kind,
// system message, tools) read-only, and a generation parameter set there overrides the agent's for this conversation.
import { expect, test } from '@playwright/test';
import { lastAnswer, openChat, send } from './support/chat';
import { slowActions } from './support/actions';
import { chatRequests, setScenario } from './support/model';

test('a saved agent’s conversation keeps the agent’s model in the header and shows the agent’s settings', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await setScenario({
    rules: [{ when: { lastUserIncludes: 'heron-scribe' }, reply: { content: 'Noted by the scribe.' } }],
  });
  await openChat(page);
  await page.getByRole('button', { name: 'New agent' }).click();
  const editor = page.getByRole('dialog', { name: 'Agent' });
  await editor.getByRole('textbox', { name: 'Name' }).fill('Heron scribe');
  await editor.getByRole('textbox', { name: 'System message' }).fill('You are the heron scribe.');
  await editor.getByRole('combobox', { name: 'Model' }).selectOption('env/scripted-agent');
  await editor.getByRole('spinbutton', { name: /Temperature/ }).fill('0.3');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editor).toBeHidden();

  await page.getByRole('button', { name: 'Chat with Heron scribe' }).click();
  const picker = page.getByRole('combobox', { name: 'Model', exact: true });
  await expect(picker).toContainText('scripted-agent');
  await send(page, 'First note, heron-scribe');
  await expect(await lastAnswer(page)).toContainText('Noted by the scribe.');
  // The agent's model answered, and the header still says so (it did not switch to the server's first model).
  expect((await chatRequests()).at(-1)!.body.model).toBe('scripted-agent');
  await expect(picker).toContainText('scripted-agent');
  await expect(picker).not.toContainText('scripted-e2e');

  // The settings show the agent's: its system message and tools, not editable here.
  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('region', { name: 'Settings' });
  const system = settings.getByRole('textbox', { name: 'System message' });
  await expect(system).toHaveValue('You are the heron scribe.');
  await expect(system).not.toBeEditable();
  const calculator = settings.getByRole('checkbox', { name: /calculator/ });
  await expect(calculator).not.toBeChecked();
  await expect(calculator).toBeDisabled();
  // The agent's kind, under Advanced, is the agent's too.
  await settings.getByText('Advanced', { exact: true }).click();
  await expect(settings.getByRole('combobox', { name: 'Agent', exact: true })).toBeDisabled();
  // A temperature set here is this conversation's override of the agent's 0.3, and the model gets it.
  const temperature = settings.getByRole('spinbutton', { name: 'Temperature' });
  await expect(temperature).toHaveAttribute('placeholder', '0.3');
  // One no model server takes is not saved: it stays as typed, marked invalid, with the reason under it in plain
  // words (before: saved, and sent as 99; then refused by the server in its developer's words).
  await expect(temperature).toHaveAttribute('max', '2');
  await temperature.fill('99');
  const reason = settings
    .getByRole('alert')
    .filter({ hasText: 'Temperature must be between 0 and 2 (you entered 99).' });
  await expect(reason).toBeVisible();
  await expect(temperature).toHaveAttribute('aria-invalid', 'true');
  await expect(temperature).toHaveAccessibleDescription('Temperature must be between 0 and 2 (you entered 99).');
  // The save held back, as on a slow connection: the message sent meanwhile waits for it, and goes with 1.5.
  const release = await slowActions(page, 800);
  await temperature.fill('1.5');
  await expect(reason).toBeHidden();
  await send(page, 'Second note, heron-scribe');
  await expect(await lastAnswer(page)).toContainText('Noted by the scribe.');
  await release();
  const sent = (await chatRequests()).at(-1)!;
  expect(sent.body.temperature).toBe(1.5);
  expect(sent.body.model).toBe('scripted-agent');
  expect(sent.body.messages[0]).toMatchObject({ role: 'system' });
  expect(String(sent.body.messages[0].content)).toContain('You are the heron scribe.');

  // After a reload the conversation still shows the agent's model.
  await page.reload();
  await expect(picker).toContainText('scripted-agent');

  await page.getByRole('button', { name: 'Delete Heron scribe' }).click();
  await page
    .getByRole('dialog', { name: /^Delete the agent/ })
    .getByRole('button', { name: 'Delete', exact: true })
    .click();
  await expect(page.getByRole('button', { name: 'Chat with Heron scribe' })).toBeHidden();
});
