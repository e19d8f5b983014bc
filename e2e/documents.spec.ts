// Documents end to end: a markdown file in a message to the Assistant, a question, the retrieval card with the query
// and scored chunks, and a citation naming the file and page. Until the composer's upload lands, the file is put
// where uploads are stored (DATA_DIR/files/) and the message is sent with POST /api/chat {files: [...]}; the page
// then opens the conversation.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { lastAnswer, openChat, panelOf } from './support/chat';
import { chatRequests, setScenario } from './support/model';

const PASSAGE = 'Parental leave: new parents receive sixteen weeks of paid parental leave.';

async function uploadHandbook(folder: string): Promise<string> {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: run the browser tests through playwright.config.ts');
  const sections = Array.from(
    { length: 60 },
    (_, i) => `Section ${i}: office routines, building access, meeting rooms and general administration.`,
  );
  sections.splice(41, 0, PASSAGE);
  await mkdir(path.join(dataDir, 'files', folder), { recursive: true });
  await writeFile(path.join(dataDir, 'files', folder, 'handbook.md'), sections.join('\n\n'));
  return `${folder}/handbook.md`;
}

test('the Assistant answers from an attached document: a retrieval card and a citation by file and page', async ({
  page,
  request,
}) => {
  const file = await uploadHandbook('docs-kestrel');
  // The scripted model answers only if the knowledge block with the passage reached it.
  await setScenario({
    rules: [
      { when: { lastUserIncludes: 'kestrel', anyIncludes: PASSAGE }, reply: { content: 'Sixteen weeks (kestrel).' } },
      { when: { lastUserIncludes: 'kestrel' }, reply: { content: 'No knowledge reached me.' } },
    ],
  });
  const res = await request.post('/api/chat', {
    data: { message: 'How long is parental leave? kestrel', agent: 'assistant', files: [file] },
  });
  expect(res.status()).toBe(200);
  const body = await res.text();
  const { conversationId } = JSON.parse(/event: turn\ndata: (.*)\n/.exec(body)![1]!) as { conversationId: string };
  const [sent] = await chatRequests();
  const system = JSON.stringify(sent!.body.messages[0]);
  expect(system).toContain('# Knowledge Base');
  expect(system).toContain('[file](handbook.md)');

  await openChat(page, `/?c=${conversationId}`);
  const answer = await lastAnswer(page);
  await expect(answer).toContainText('Sixteen weeks (kestrel).');

  const card = answer.getByRole('button', { name: /Retrieval/ });
  await expect(card).toHaveAttribute('aria-expanded', 'false');
  await expect(card).toContainText('How long is parental leave? kestrel');
  await card.click();
  await expect(card).toHaveAttribute('aria-expanded', 'true');
  const panel = await panelOf(card);
  await expect(panel).toContainText('Search terms: long, parent, leav, kestrel');
  await expect(panel.getByRole('listitem').filter({ hasText: PASSAGE }).first()).toContainText(
    /score (?!0\.000)\d+\.\d{3}/,
  );
  await expect(panel.getByRole('listitem').filter({ hasText: PASSAGE }).first()).toContainText('in the prompt');

  const sources = answer.getByRole('region', { name: 'Sources' });
  const citation = sources.getByRole('button', { name: /^handbook\.md, page 1/ });
  await expect(citation).toHaveAttribute('aria-expanded', 'false');
  await citation.click();
  await expect(citation).toHaveAttribute('aria-expanded', 'true');
  const passages = await panelOf(citation);
  await expect(passages).toContainText('[page: 1]');
  await expect(passages).toContainText(PASSAGE);
});

test('POST /api/chat refuses files outside the uploads folder', async ({ request }) => {
  for (const files of [['../agent-studio.db'], ['/etc/passwd'], ['never-uploaded.md'], 'handbook.md']) {
    const res = await request.post('/api/chat', { data: { message: 'hi', agent: 'assistant', files } });
    expect(res.status()).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
      /uploads folder|uploaded|"files"/,
    );
  }
});
