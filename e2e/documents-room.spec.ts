// Many documents leave the thread its room: at 1280×800 with ten documents the list folds to a few lines of chips
// ("Show all (10)" opens the rest), a document that failed stays in sight, and the composer and the last turn stay
// visible. The header names the conversation as soon as it has a title.
import { expect, test } from '@playwright/test';
import { seriousViolations } from './support/axe';
import { composer, conversations, lastAnswer, openChat, send } from './support/chat';
import { setScenario } from './support/model';

const names = Array.from(
  { length: 9 },
  (_, i) => `quarterly-shipping-report-2026-part-${String(i + 1).padStart(2, '0')}.txt`,
);

test('ten documents fold into a few lines of chips; the composer and the last turn stay visible', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
  await setScenario({
    rules: [{ when: { lastUserIncludes: 'room-heron' }, reply: { content: 'Ten documents read (room-heron).' } }],
  });
  await openChat(page);
  await page.getByLabel('Upload files').setInputFiles([
    ...names.map((name, i) => ({
      name,
      mimeType: 'text/plain',
      buffer: Buffer.from(`Part ${i + 1}: cargo tonnage.`),
    })),
    { name: 'broken.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.7 this is not a PDF at all') },
  ]);
  const list = page.getByRole('list', { name: 'Documents' });
  const showAll = page.getByRole('button', { name: 'Show all (10)' });
  await expect(showAll).toBeVisible();
  await expect(showAll).toHaveAttribute('aria-expanded', 'false');
  // The failed document comes first and stays in sight, with its reason.
  const broken = list.getByRole('listitem').filter({ hasText: 'broken.pdf' });
  // A parse worker that loads pdf.js for the first time can take more than the default 5 s on a loaded machine.
  await expect(broken).toContainText('error: broken.pdf is a corrupt PDF', { timeout: 20_000 });
  await expect(broken).toBeInViewport();
  // Folded: at most three lines, the chips below them out of sight and out of reach (not in the accessibility tree).
  const box = (await list.boundingBox())!;
  expect(box.height).toBeLessThanOrEqual(3 * 32);
  const shown = await list.getByRole('listitem').count();
  expect(shown).toBeGreaterThan(1);
  expect(shown).toBeLessThan(10);

  // Everything once opened; then folded again.
  await showAll.click();
  await expect(page.getByRole('button', { name: 'Show fewer' })).toHaveAttribute('aria-expanded', 'true');
  await expect(list.getByRole('listitem')).toHaveCount(10);
  for (const name of names)
    await expect(list.getByRole('listitem').filter({ hasText: name })).toContainText('ready, 1 page');
  const open = await seriousViolations(page);
  expect(open, open.join('\n')).toEqual([]);
  await page.getByRole('button', { name: 'Show fewer' }).click();
  await expect(list.getByRole('listitem')).toHaveCount(shown);
  const folded = await seriousViolations(page);
  expect(folded, folded.join('\n')).toEqual([]);

  // The upload started the conversation as "New chat"; its first message names it, in the header as in the list.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('New chat');
  await send(page, 'What do these say? room-heron');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('What do these say? room-heron');
  await expect(
    conversations(page).getByRole('button', { name: 'What do these say? room-heron', exact: true }),
  ).toBeVisible();
  const answer = await lastAnswer(page);
  await expect(answer).toContainText('Ten documents read (room-heron).');
  await expect(answer).toBeInViewport();
  await expect(composer(page)).toBeInViewport();
  // The sent documents left the composer for the message that carried them; the refused one, read before sending,
  // is gone too, without going with it (e2e/failed-uploads.spec.ts).
  await expect(page.getByRole('list', { name: 'Attached files' }).getByRole('listitem')).toHaveCount(9);
  await expect(showAll).toHaveCount(0);
  await expect(list).toHaveCount(0);
});
