// The app server gone under an open page (killed with SIGKILL, then started again on the same port and data): a
// message sent meanwhile is not lost (back in the composer, a notice in the page's language, no answer left waiting
// for the model), nor a regenerated answer or an edited message; an upload says it did not go up; and once the server
// is back the same tab sends and uploads again, without a reload. Each test starts (and kills) its own server. At
// phone width, from the keyboard, in English and in Chinese.
import { expect, test, type Page } from '@playwright/test';
import { ownApp } from './support/app-process';
import { assistantTurns, userTurns } from './support/chat';
import { setScenario } from './support/model';
import { outsideScreen } from './support/viewport';

const PHONE = { width: 390, height: 844 };

const WORDS = {
  'en-US': {
    theme: /^Switch to (dark|light) theme$/,
    message: 'Message',
    unreachable: 'Could not reach the server (Failed to fetch). Nothing was done: try again once it is back.',
    dismiss: 'Dismiss',
    waiting: 'Waiting for the model',
    regenerate: 'Regenerate',
    edit: 'Edit',
    editBox: 'Edit message',
    upload: 'Upload files',
    documents: 'Documents',
    uploadFailed: (name: string) => `error: ${name} could not be uploaded (the connection failed).`,
    ready: 'ready, 1 page',
  },
  'zh-CN': {
    theme: /^切换到(深色|浅色)主题$/,
    message: '消息',
    unreachable: '无法连接到服务器（Failed to fetch），操作未执行。请在服务器恢复后重试。',
    dismiss: '知道了',
    waiting: '正在等待模型',
    regenerate: '重新生成',
    edit: '编辑',
    editBox: '编辑消息',
    upload: '上传文件',
    documents: '文档',
    uploadFailed: (name: string) => `出错：${name} 上传失败（连接中断）。`,
    ready: '已就绪，共 1 页',
  },
} as const;

type Locale = keyof typeof WORDS;

/** The page's notice that the server did not answer. */
function unreachable(page: Page, locale: Locale) {
  return page.getByRole('alert').filter({ hasText: WORDS[locale].unreachable });
}

async function openAt(page: Page, url: string, locale: Locale): Promise<void> {
  await page.goto(url);
  await expect(page.getByRole('button', { name: WORDS[locale].theme })).toBeVisible();
}

test.beforeEach(async ({ page }) => {
  await page.setViewportSize(PHONE);
});

for (const locale of ['en-US', 'zh-CN'] as const) {
  const w = WORDS[locale];

  test.describe(locale, () => {
    test.use({ locale });

    test('a message sent while the server is down comes back to the composer with a notice, and goes once it is up', async ({
      page,
    }, testInfo) => {
      testInfo.setTimeout(120_000);
      await setScenario({
        rules: [
          { when: { lastUserIncludes: 'down-first' }, reply: { content: 'The first answer.' } },
          { when: { lastUserIncludes: 'down-again' }, reply: { content: 'Got it now.' } },
        ],
      });
      const server = await ownApp(testInfo.outputPath('data'));
      try {
        await openAt(page, server.base, locale);
        const box = page.getByRole('textbox', { name: w.message, exact: true });
        await box.focus();
        await page.keyboard.type('Hello down-first');
        await page.keyboard.press('Enter');
        await expect(assistantTurns(page).last()).toContainText('The first answer.');
        await expect(assistantTurns(page).last()).toHaveAttribute('aria-busy', 'false');
        const url = page.url();

        await server.down();
        const message = 'A message while the server is down-again';
        await box.focus();
        await page.keyboard.type(message);
        await page.keyboard.press('Enter');
        await expect(unreachable(page, locale)).toBeVisible();
        // Nothing typed is lost, and nothing is left waiting for an answer that cannot come.
        await expect(box).toHaveValue(message);
        await expect(box).toBeFocused();
        await expect(userTurns(page)).toHaveCount(1);
        await expect(assistantTurns(page)).toHaveCount(1);
        await expect(page.getByText(w.waiting)).toHaveCount(0);
        expect(await outsideScreen(page, PHONE, unreachable(page, locale))).toEqual([]);

        if (locale === 'en-US') {
          // Regenerate and Edit meet the same: the answer and the message stay as they were, the edit with its text.
          await page.getByRole('button', { name: w.dismiss }).click();
          await page.getByRole('button', { name: w.regenerate }).click();
          await expect(unreachable(page, locale)).toBeVisible();
          await expect(assistantTurns(page)).toHaveCount(1);
          await expect(assistantTurns(page).last()).toContainText('The first answer.');
          await expect(page.getByText(w.waiting)).toHaveCount(0);
          await page.getByRole('button', { name: w.dismiss }).click();
          await userTurns(page).last().getByRole('button', { name: w.edit }).click();
          const edit = page.getByRole('textbox', { name: w.editBox });
          await edit.fill('Hello again down-first');
          await edit.press('Enter');
          await expect(unreachable(page, locale)).toBeVisible();
          await expect(page.getByRole('textbox', { name: w.editBox })).toHaveValue('Hello again down-first');
          await expect(assistantTurns(page).last()).toContainText('The first answer.');
          await userTurns(page).last().getByRole('button', { name: 'Cancel' }).click();
          await expect(userTurns(page).last()).toContainText('Hello down-first');
        }

        // Back up: the same tab sends it, no reload.
        await server.up();
        await box.focus();
        await page.keyboard.press('Enter');
        await expect(userTurns(page)).toHaveCount(2);
        await expect(assistantTurns(page).last()).toContainText('Got it now.');
        await expect(assistantTurns(page).last()).toHaveAttribute('aria-busy', 'false');
        await expect(box).toHaveValue('');

        await openAt(page, url, locale);
        await expect(userTurns(page)).toHaveCount(2);
        await expect(userTurns(page).last()).toContainText(message);
        await expect(assistantTurns(page).last()).toContainText('Got it now.');
      } finally {
        await server.down();
      }
    });

    test('an upload tried while the server is down says so, and the next one in the same tab goes up', async ({
      page,
    }, testInfo) => {
      testInfo.setTimeout(120_000);
      const server = await ownApp(testInfo.outputPath('data'));
      try {
        await openAt(page, server.base, locale);
        await server.down();
        const upload = page.getByLabel(w.upload);
        const chips = page.getByRole('list', { name: w.documents }).getByRole('listitem');
        await upload.setInputFiles({
          name: 'early.md',
          mimeType: 'text/plain',
          buffer: Buffer.from('# Early\n\nToo soon.'),
        });
        await expect(chips.filter({ hasText: 'early.md' })).toContainText(w.uploadFailed('early.md'));
        expect(await outsideScreen(page, PHONE, chips.first())).toEqual([]);

        await server.up();
        await upload.setInputFiles({
          name: 'later.md',
          mimeType: 'text/plain',
          buffer: Buffer.from('# Later\n\nIn time.'),
        });
        await expect(chips.filter({ hasText: 'later.md' })).toContainText(w.ready);
        // The failure was read: the new upload replaces it.
        await expect(chips.filter({ hasText: 'early.md' })).toHaveCount(0);
      } finally {
        await server.down();
      }
    });
  });
}
