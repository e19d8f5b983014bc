// The generation settings' number fields carry their ranges (lib/protocol/generation-settings.ts), and a value out
// of range is said in plain words, every one at once, in the page's language: the replay form on a phone from the
// keyboard, and the agent editor (whose Model list offers the environment's model, as the header's picker does).
import { expect, test } from '@playwright/test';
import { lastAnswer, openChat, send } from './support/chat';
import { chatRequests, setScenario } from './support/model';

test.use({ viewport: { width: 390, height: 844 } });

test('the replay form refuses every out-of-range setting at once, in plain words, from the keyboard', async ({
  page,
}) => {
  await setScenario({ rules: [{ when: { lastUserIncludes: 'range-wren' }, reply: { content: 'Wren noted.' } }] });
  await openChat(page);
  await send(page, 'Hello range-wren');
  await expect(await lastAnswer(page)).toContainText('Wren noted.');
  const before = (await chatRequests()).length;

  await (await lastAnswer(page)).getByRole('button', { name: 'Replay run' }).click();
  const form = page.getByRole('dialog', { name: 'Replay run' }).getByRole('form', { name: 'Replay from here' });
  const temperature = form.getByRole('spinbutton', { name: 'Temperature' });
  const maxTokens = form.getByRole('spinbutton', { name: 'Max tokens' });
  await expect(temperature).toHaveAttribute('min', '0');
  await expect(temperature).toHaveAttribute('max', '2');
  await expect(temperature).toHaveAttribute('step', '0.1');
  await expect(form.getByRole('spinbutton', { name: 'Top p' })).toHaveAttribute('max', '1');
  await expect(maxTokens).toHaveAttribute('min', '1');
  await expect(maxTokens).toHaveAttribute('step', '1');

  await temperature.fill('99');
  await maxTokens.fill('-5');
  await maxTokens.press('Enter');
  const said =
    'Temperature must be between 0 and 2 (you entered 99). Max tokens must be a whole number of at least 1 (you entered -5).';
  await expect(form.getByRole('alert')).toHaveText(said);
  await expect(temperature).toBeFocused();
  await expect(temperature).toHaveAttribute('aria-invalid', 'true');
  await expect(maxTokens).toHaveAttribute('aria-invalid', 'true');
  await expect(maxTokens).toHaveAccessibleDescription(said);
  // It fits the phone's screen, and nothing was sent.
  const box = await form.getByRole('alert').boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  expect((await chatRequests()).length).toBe(before);
});

test('the agent editor says an out-of-range temperature in plain words and offers the environment’s model', async ({
  page,
}) => {
  await openChat(page);
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: 'New agent' }).click();
  const editor = page.getByRole('dialog', { name: 'Agent' });
  // The environment's OPENAI_MODEL, which the header's picker shows, can be picked.
  const model = editor.getByRole('combobox', { name: 'Model' });
  await expect(model.locator('option[value="env/scripted-e2e"]')).toHaveText('scripted-e2e');
  await model.selectOption('env/scripted-e2e');
  await editor.getByRole('textbox', { name: 'Name' }).fill('Range wren');
  const temperature = editor.getByRole('spinbutton', { name: /Temperature/ });
  await expect(temperature).toHaveAttribute('max', '2');
  await temperature.fill('99');
  await temperature.press('Enter');
  await expect(editor.getByRole('alert')).toHaveText('Temperature must be between 0 and 2 (you entered 99).');
  await expect(temperature).toBeFocused();
  await expect(temperature).toHaveAttribute('aria-invalid', 'true');
});
