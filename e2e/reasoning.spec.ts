import { expect, test } from '@playwright/test';
import { assistantTurns, lastAnswer, openChat, panelOf, send, stopButton } from './support/chat';
import { setScenario } from './support/model';

const REASONING =
  'The user wants the capital of France. Paris has been the capital for centuries, so I will say Paris.';
// Long enough to still be streaming when the test looks at the folded block; the test stops it there.
const ANSWER = 'The capital of France is Paris. ' + 'It sits on the Seine. '.repeat(80);

test('model reasoning streams open, folds once the answer starts, and can be reopened', async ({ page }) => {
  await setScenario({
    rules: [
      {
        when: { lastUserIncludes: 'think-walrus' },
        reply: { reasoning: REASONING, content: ANSWER, chunkSize: 2, delayMs: 50 },
      },
    ],
  });
  await openChat(page);
  await send(page, 'Capital of France? think-walrus');

  const turn = assistantTurns(page).last();
  const toggle = turn.getByRole('button', { name: /Thinking|Thought/ });
  // Open while the model is still thinking...
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(toggle).toHaveAccessibleName(/Thinking/);
  await expect(await panelOf(toggle)).toContainText('The user wants');
  // ...folded as soon as the answer streams, while the run is still going.
  await expect(turn).toContainText('The capital of France is Paris.');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(toggle).toHaveAccessibleName(/Thought/);
  await expect(turn).toHaveAttribute('aria-busy', 'true');
  await stopButton(page).click();

  const answer = await lastAnswer(page);
  const panel = await panelOf(toggle);
  await expect(panel).toBeHidden();
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(panel).toHaveText(REASONING);
  await expect(answer).toContainText('The capital of France is Paris.');
});

test('<think> in the content is shown as a folded Thought block, not as answer text', async ({ page }) => {
  await setScenario({
    rules: [
      {
        when: { lastUserIncludes: 'think-tags-okapi' },
        reply: { content: '<think>Short inner monologue about okapis.</think>Okapis live in the Congo.' },
      },
    ],
  });
  await openChat(page);
  await send(page, 'Where do okapis live? think-tags-okapi');

  const answer = await lastAnswer(page);
  await expect(answer).toContainText('Okapis live in the Congo.');
  await expect(answer).not.toContainText('<think>');
  await expect(answer).not.toContainText('inner monologue');
  const toggle = answer.getByRole('button', { name: /Thinking|Thought/ });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(await panelOf(toggle)).toHaveText('Short inner monologue about okapis.');
});
