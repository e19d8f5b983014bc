// Documents end to end: a markdown file uploaded from the composer, the Assistant asked about it, the retrieval card
// with the query and the chunks that went in, and a citation naming the file and page that opens it there. The same over HTTP: POST /api/files,
// then POST /api/chat with the upload's reference.
import { expect, test, type Page } from '@playwright/test';
import { lastAnswer, openChat, panelOf, send } from './support/chat';
import { chatRequests, setScenario } from './support/model';

const PASSAGE = 'Parental leave: new parents receive sixteen weeks of paid parental leave.';

function handbook(): Buffer {
  const sections = Array.from(
    { length: 60 },
    (_, i) => `Section ${i}: office routines, building access, meeting rooms and general administration.`,
  );
  sections.splice(41, 0, PASSAGE);
  return Buffer.from(sections.join('\n\n'));
}

async function answersOnlyWithThePassage(): Promise<void> {
  // The scripted model answers only if the knowledge block with the passage reached it.
  await setScenario({
    rules: [
      { when: { lastUserIncludes: 'kestrel', anyIncludes: PASSAGE }, reply: { content: 'Sixteen weeks (kestrel).' } },
      { when: { lastUserIncludes: 'kestrel' }, reply: { content: 'No knowledge reached me.' } },
    ],
  });
}

async function expectRetrievalAndCitation(page: Page): Promise<void> {
  const answer = await lastAnswer(page);
  await expect(answer).toContainText('Sixteen weeks (kestrel).');

  const card = answer.getByRole('button', { name: /Retrieval/ });
  await expect(card).toHaveAttribute('aria-expanded', 'false');
  await expect(card).toContainText('How long is parental leave? kestrel');
  await card.click();
  await expect(card).toHaveAttribute('aria-expanded', 'true');
  const panel = await panelOf(card);
  // What was asked and what went in; BM25's scores and stemmed terms are the inspector's.
  await expect(panel).toContainText('How long is parental leave? kestrel');
  await expect(panel).not.toContainText(/Search terms|score|leav,/);
  await expect(panel.getByRole('listitem').filter({ hasText: PASSAGE }).first()).toContainText('in the prompt');

  const sources = answer.getByRole('region', { name: 'Sources' });
  const citation = sources.getByRole('button', { name: /^handbook\.md, page 1/ });
  await expect(citation).toHaveAttribute('aria-expanded', 'false');
  await citation.click();
  await expect(citation).toHaveAttribute('aria-expanded', 'true');
  const passages = await panelOf(citation);
  await expect(passages).toContainText('[page: 1]');
  await expect(passages).toContainText(PASSAGE);

  // The citation opens the document at the cited page, the passage marked.
  await sources.getByRole('button', { name: 'Open handbook.md at page 1' }).click();
  const viewer = page.getByRole('dialog', { name: 'handbook.md, page 1 of 1' });
  await expect(viewer.locator('mark').filter({ hasText: PASSAGE })).toHaveCount(1);
  await viewer.getByRole('button', { name: 'Close' }).click();
  await expect(viewer).toHaveCount(0);
}

test('upload a document, ask the Assistant: a retrieval card and a citation by file and page', async ({ page }) => {
  await answersOnlyWithThePassage();
  await openChat(page);
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByText('Advanced', { exact: true }).click();
  await page.getByRole('combobox', { name: 'Agent' }).selectOption('assistant');
  await page
    .getByLabel('Upload files')
    .setInputFiles([{ name: 'handbook.md', mimeType: 'text/markdown', buffer: handbook() }]);
  await expect(
    page.getByRole('list', { name: 'Documents' }).getByRole('listitem').filter({ hasText: 'handbook.md' }),
  ).toContainText('ready, 1 page');
  await send(page, 'How long is parental leave? kestrel');
  await expectRetrievalAndCitation(page);

  const [sent] = await chatRequests();
  const system = JSON.stringify(sent!.body.messages[0]);
  expect(system).toContain('# Knowledge Base');
  expect(system).toContain('[file](handbook.md)');
});

test('over HTTP: POST /api/files, then POST /api/chat with the reference, answers from the document', async ({
  page,
  request,
}) => {
  await answersOnlyWithThePassage();
  const upload = await request.post('/api/files?name=handbook.md', { data: handbook() });
  expect(upload.status()).toBe(201);
  const { document } = (await upload.json()) as { document: { ref: string } };
  const res = await request.post('/api/chat', {
    data: { message: 'How long is parental leave? kestrel', agent: 'assistant', files: [document.ref] },
  });
  expect(res.status()).toBe(200);
  const body = await res.text();
  const { conversationId } = JSON.parse(/event: turn\ndata: (.*)\n/.exec(body)![1]!) as { conversationId: string };
  await openChat(page, `/?c=${conversationId}`);
  await expectRetrievalAndCitation(page);
});

test('POST /api/chat refuses files that are not uploads', async ({ request }) => {
  for (const files of [['../agent-studio.db'], ['/etc/passwd'], ['handbook.md'], 'handbook.md']) {
    const res = await request.post('/api/chat', { data: { message: 'hi', agent: 'assistant', files } });
    expect(res.status()).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/upload reference|"files"/);
  }
  // A well-formed reference to bytes that are not one of the caller's uploads: 404, as for another user's (no oracle).
  const missing = `files/${'0'.repeat(64)}/never-uploaded.md`;
  const res = await request.post('/api/chat', { data: { message: 'hi', agent: 'assistant', files: [missing] } });
  expect(res.status()).toBe(404);
  expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
    `"${missing}" is not one of your uploads.`,
  );
});
