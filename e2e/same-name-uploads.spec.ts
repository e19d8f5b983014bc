// Two uploads of one name in one conversation (two folders' notes.txt): the second shows numbered in the page
// ("notes (2).txt", with a note saying why), the model is told both names, its retrieval call searches both, and the
// Sources cite each apart. On a 390 px phone in Chinese, the note is said in Chinese and fits the screen.
import { expect, test, type Page } from '@playwright/test';
import { lastAnswer, openChat, send } from './support/chat';
import { chatRequests, setScenario } from './support/model';
import { outsideScreen } from './support/viewport';

const NINE = 'The ferry leaves at nine from the north pier.';
const TEN = 'The ferry leaves at ten from the south pier.';

const WORDS = {
  en: { upload: 'Upload files', list: 'Documents', ready: 'ready, 1 page' },
  zh: { upload: '上传文件', list: '文档', ready: '已就绪，共 1 页' },
} as const;

async function uploadBoth(page: Page, words: (typeof WORDS)['en' | 'zh']): Promise<void> {
  const list = page.getByRole('list', { name: words.list });
  for (const text of [NINE, TEN]) {
    await page
      .getByLabel(words.upload, { exact: true })
      .setInputFiles([{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from(text) }]);
    await expect(list.getByRole('listitem').last()).toContainText(words.ready, { timeout: 20_000 });
  }
}

function scenario(question: string) {
  return setScenario({
    rules: [
      // Answers only once the retrieval result carrying both files' passages is in the conversation.
      {
        when: { anyIncludes: TEN },
        reply: { content: 'It leaves at nine (notes.txt, page 1) or at ten (notes (2).txt, page 1).' },
      },
      {
        when: { lastUserIncludes: question },
        reply: [
          { toolCalls: [{ name: 'retrieval', arguments: JSON.stringify({ query: 'ferry leaves', files: [] }) }] },
          { content: 'Only one file reached me.' },
        ],
      },
    ],
  });
}

test('two uploads named notes.txt: the second is numbered, and both are searched and cited', async ({ page }) => {
  test.setTimeout(60_000);
  const question = 'When does the ferry leave?';
  await scenario(question);
  await openChat(page);
  await uploadBoth(page, WORDS.en);
  const chips = page.getByRole('list', { name: 'Documents' }).getByRole('listitem');
  await expect(chips).toHaveCount(2);
  await expect(chips.first()).toContainText('notes.txt');
  await expect(chips.last()).toContainText('notes (2).txt');
  await expect(chips.last()).toContainText('This conversation already has a file named "notes.txt"');

  await send(page, question);
  const answer = await lastAnswer(page);
  await expect(answer).toContainText('It leaves at nine (notes.txt, page 1) or at ten (notes (2).txt, page 1).');
  const sources = answer.getByRole('region', { name: 'Sources' });
  await expect(sources.getByRole('button', { name: /, page/ })).toHaveText([
    'notes.txt, page 1',
    'notes (2).txt, page 1',
  ]);
  // From the keyboard: each source opens on its own file's page.
  await sources.getByRole('button', { name: 'notes (2).txt, page 1' }).focus();
  await page.keyboard.press('Enter');
  const opened = sources.getByRole('button', { name: 'notes (2).txt, page 1' });
  await expect(page.locator(`[id="${await opened.getAttribute('aria-controls')}"]`)).toContainText(TEN);

  const [first] = await chatRequests();
  expect(JSON.stringify(first!.body.messages.at(-1))).toContain('(Uploaded [file](notes.txt) [file](<notes (2).txt>))');
});

test.describe('中文，390 px', () => {
  test.use({ locale: 'zh-CN', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the numbered upload is explained in Chinese and fits the phone', async ({ page }) => {
    test.setTimeout(60_000);
    await page.goto('/');
    await expect(page.getByRole('button', { name: /^切换到(深色|浅色)主题$/ })).toBeVisible(); // hydrated
    await uploadBoth(page, WORDS.zh);
    const chips = page.getByRole('list', { name: '文档' }).getByRole('listitem');
    await expect(chips.last()).toContainText('notes (2).txt');
    await expect(chips.last()).toContainText('本对话已有名为 notes.txt 的文件，此文件已加上编号');
    expect(await outsideScreen(page, { width: 390, height: 844 })).toEqual([]);
  });
});
