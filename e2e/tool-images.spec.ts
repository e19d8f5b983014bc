import { expect, test, type Page } from '@playwright/test';
import { PYTHON_WRITES_PNG } from '../test/support/images';
import { freePort, kill, startApp } from './support/app-process';
import { lastAnswer, openChat, send } from './support/chat';
import { chatRequests, setScenario } from './support/model';

// The Settings switch "Show tool images to the model", in the page: off by default; ticked, the image code_interpreter
// writes in a step goes to a vision model in the next request (the scripted model server's log shows the image
// part, the inspector names it), and a model that cannot see gets none while the turn says so.
test.setTimeout(120_000);

const TOOL_IMAGES = 'Show tool images to the model';

async function scriptPlot(word: string): Promise<void> {
  await setScenario({
    rules: [
      // After the step: a vision model's last user message is the one carrying the image, so match the tool output.
      { when: { anyIncludes: 'saved' }, reply: { content: `A red square (${word}).` } },
      {
        when: { lastUserIncludes: word },
        reply: { toolCalls: [{ name: 'code_interpreter', arguments: JSON.stringify({ code: PYTHON_WRITES_PNG }) }] },
      },
    ],
  });
}

/** Ticks code_interpreter and the tool images switch in Settings (it starts off). */
async function turnOn(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('region', { name: 'Settings' });
  await settings.getByRole('checkbox', { name: /code_interpreter/ }).check();
  const toolImages = settings.getByRole('checkbox', { name: TOOL_IMAGES });
  await expect(toolImages).not.toBeChecked();
  await toolImages.check();
  await expect(toolImages).toBeChecked();
}

test('on, a vision model is sent the image code_interpreter wrote, in the next request; the inspector names it', async ({
  page,
}, testInfo) => {
  const port = await freePort();
  const app = await startApp(port, testInfo.outputPath('data'), { OPENAI_MODEL: 'qwen2.5-vl-7b-instruct' });
  try {
    const word = 'ti-heron';
    await scriptPlot(word);
    await openChat(page, `http://127.0.0.1:${port}/`);
    await turnOn(page);
    await send(page, `Draw a red square. ${word}`);
    const answer = await lastAnswer(page);
    await expect(answer).toContainText(`A red square (${word}).`);
    // Shown once on the card, although the file is also an image item of the result.
    await expect(answer.getByRole('img', { name: 'figure-1.png' })).toHaveCount(1);
    await expect(answer.getByText(/cannot see images/)).toHaveCount(0);

    const [first, second] = await chatRequests();
    expect(JSON.stringify(first!.body)).not.toContain('image_url');
    const last = second!.body.messages.at(-1);
    expect(last.role).toBe('user');
    expect(last.content[1].image_url.url).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);

    await answer.getByRole('button', { name: 'Inspect run' }).click();
    const dialog = page.getByRole('dialog', { name: 'Run inspector' });
    await dialog.getByRole('tab', { name: 'Iteration 2', exact: true }).click();
    const messages = dialog.getByRole('tabpanel').getByRole('list', { name: 'Messages sent' }).getByRole('listitem');
    await expect(messages.last()).toContainText('[image: figure-1.png]');
    // Closed, the run leaves the address (a reload would open it again).
    await page.keyboard.press('Escape');
    await expect(page).not.toHaveURL(/[?&]run=/);

    // The switch is the conversation's: still on after a reload.
    await page.reload();
    await page.getByRole('button', { name: 'Settings' }).click();
    await expect(
      page.getByRole('region', { name: 'Settings' }).getByRole('checkbox', { name: TOOL_IMAGES }),
    ).toBeChecked();
  } finally {
    await kill(app);
  }
});

test('on, a model that cannot see gets no image, and the turn says so', async ({ page }) => {
  const word = 'ti-stilt';
  await scriptPlot(word);
  await openChat(page);
  await turnOn(page);
  await send(page, `Draw a red square. ${word}`);
  const answer = await lastAnswer(page);
  await expect(answer).toContainText(`A red square (${word}).`);
  await expect(answer.getByRole('note')).toContainText(
    'This model cannot see images, so 1 image the tools produced was not sent to it',
  );
  const requests = await chatRequests();
  expect(requests).toHaveLength(2);
  expect(JSON.stringify(requests.map((r) => r.body))).not.toContain('image_url');
});
