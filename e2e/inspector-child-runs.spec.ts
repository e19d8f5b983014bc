// A run's child runs in the run inspector, from the keyboard: opening a GroupChat member's run or a ParallelDocQA
// reader's puts the focus on that run's heading, and going back to the run puts it on the inspector's title, so a
// screen reader says which run is shown (it was left on the page itself). The parent is named as the rest of the page
// names it (GroupChat, ParallelDocQA, not "assistant"), a reader by its own name (not "Agent"), and a parent whose
// child runs made its model calls says so (not "Model calls 4", then "This run made no model call."). In English on a
// desktop, and in Chinese on a 390 px phone.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { makePdf, textPage } from '../test/support/pdf-writer';
import { lastAnswer, openChat, send } from './support/chat';
import { expectFocusVisible } from './support/focus';
import { setScenario } from './support/model';
import { outsideScreen, pageWidth } from './support/viewport';

const CREATOR_REPLY = [
  '<Background>: Two friends plan a trip to the hills.',
  '<Config>: {"name": "Ada-kite", "description": "The planner", "instructions": "You are Ada-kite."}',
  '<Config>: {"name": "Ben-kite", "description": "The dreamer", "instructions": "You are Ben-kite."}',
  '<Answer>: Walk or cycle?',
].join('\n');

/** The value of the inspector summary's row `term`. */
function summary(dialog: Locator, term: string): Locator {
  return dialog.locator('dl > dt', { hasText: new RegExp(`^${term}$`) }).locator('xpath=following-sibling::dd[1]');
}

/** Presses Enter on `button` as a keyboard user does (it has the focus first). */
async function press(page: Page, button: Locator): Promise<void> {
  await button.focus();
  await page.keyboard.press('Enter');
}

test('a GroupChat member’s run opened and left from the keyboard: the focus on its heading, then on the title', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await setScenario({
    rules: [{ when: { anyIncludes: '<Config>' }, reply: { content: CREATOR_REPLY } }],
    fallback: { content: 'Let us walk.' },
  });
  await openChat(page);
  await page.getByRole('button', { name: 'New group', exact: true }).click();
  const creator = page.getByRole('dialog', { name: 'Create a group' });
  await creator.getByRole('textbox', { name: 'Describe the group' }).fill('Two friends planning a walk.');
  await creator.getByRole('button', { name: 'Ask the creator' }).click();
  const review = creator.getByRole('form', { name: 'Review the group' });
  await review.getByRole('textbox', { name: 'Group name' }).fill('Kite walkers');
  await review.getByRole('button', { name: 'Save the group and its members (2)' }).click();
  await expect(creator).toBeHidden();
  const dialog = page.getByRole('dialog', { name: 'Run inspector' });
  try {
    await page.getByRole('button', { name: 'Chat with Kite walkers', exact: true }).click();
    await send(page, 'Where shall we walk?');
    const answer = await lastAnswer(page);
    await expect(answer.getByRole('region', { name: "Ada-kite's answer" }).first()).toContainText('Let us walk.');

    await answer.getByRole('button', { name: 'Inspect run' }).click();
    const title = dialog.getByRole('heading', { name: 'Run inspector: “Where shall we walk?”' });
    await expect(title).toBeVisible();
    // The group made no model call itself: its members did, and the summary says so.
    await expect(summary(dialog, 'Agent')).toHaveText('GroupChat');
    await expect(summary(dialog, 'Model calls')).toHaveText(/^(\d+) \(0 its own, \1 by its child runs\)$/);
    await expect(dialog).not.toContainText('This run made no model call.');
    await expect(dialog).toContainText('This run made no model call of its own: its child runs made them.');

    await press(page, dialog.getByRole('button', { name: "Open Ada-kite's run" }).first());
    const member = dialog.getByRole('heading', { name: "Ada-kite's child run" });
    await expect(member).toBeFocused();
    await expectFocusVisible(page);
    await expect(summary(dialog, 'Agent')).toContainText('Ada-kite');
    await expect(summary(dialog, 'Model calls')).toHaveText('1');

    await press(page, dialog.getByRole('button', { name: 'Back to the run (GroupChat)' }));
    await expect(title).toBeFocused();
    await expect(dialog.getByRole('button', { name: "Open Ada-kite's run" }).first()).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page).not.toHaveURL(/[?&]run=/);
  } finally {
    // The agents go (other specs share the app's data), the inspector closed first if a step failed in it.
    if (await dialog.isVisible()) await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    for (const name of ['Kite walkers', 'Ada-kite', 'Ben-kite']) {
      await page.getByRole('button', { name: `Delete ${name}`, exact: true }).click();
      await page
        .getByRole('dialog', { name: /^Delete the agent/ })
        .getByRole('button', { name: 'Delete', exact: true })
        .click();
      await expect(page.getByRole('button', { name: `Chat with ${name}`, exact: true })).toBeHidden();
    }
  }
});

test.describe('on a phone, in Chinese', () => {
  const SCREEN = { width: 390, height: 844 };
  test.use({ locale: 'zh-CN', viewport: SCREEN, isMobile: true, hasTouch: true });

  test('通读整个文档: a reader’s run opened and left from the keyboard, named as the page names it, within 390 px', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const line = 'Visitors sign in at the front desk and collect a badge for the day; rooms are booked a day ahead.';
    const pdf = makePdf(Array.from({ length: 6 }, (_, i) => textPage(`Chapter ${i + 1}`, Array(20).fill(line))));
    await setScenario({
      rules: [
        {
          when: { anyIncludes: '"res": "none"' },
          reply: { content: '{"res": "ans", "content": "At the front desk."}' },
        },
        {
          when: { lastUserIncludes: 'Keywords:' },
          reply: { content: '{"keywords_zh": ["前台"], "keywords_en": ["desk"]}' },
        },
      ],
      fallback: { content: '在前台登记 [page: 1]。' },
    });
    await page.goto('/');
    await page.getByLabel('上传文件').setInputFiles([{ name: 'desk.pdf', mimeType: 'application/pdf', buffer: pdf }]);
    await expect(
      page.getByRole('list', { name: '文档', exact: true }).getByRole('listitem').filter({ hasText: 'desk.pdf' }),
    ).toContainText(/已就绪/, { timeout: 20_000 });
    await page.getByRole('button', { name: '设置', exact: true }).click();
    await page.getByText('高级', { exact: true }).click();
    const kind = page.getByRole('combobox', { name: '智能体', exact: true });
    await kind.selectOption('paralleldocqa');
    await kind.press('Escape');
    await expect(kind).toBeHidden();
    await page.getByRole('textbox', { name: '消息', exact: true }).fill('访客在哪里登记？');
    await page.getByRole('button', { name: '发送', exact: true }).click();
    const answer = await lastAnswer(page);
    await expect(answer).toContainText('在前台登记');

    await answer.getByRole('button', { name: '检查运行', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: '运行检查器' });
    const title = dialog.getByRole('heading', { name: '运行检查器：“访客在哪里登记？”' });
    await expect(title).toBeVisible();
    await expect(summary(dialog, '智能体')).toHaveText('ParallelDocQA');

    const open = dialog.getByRole('button', { name: /^打开 阅读者 1：desk\.pdf.* 的运行$/ });
    const reader = ((await open.textContent()) ?? '').replace(/^打开 (.*) 的运行$/, '$1');
    await press(page, open);
    const heading = dialog.getByRole('heading', { name: `${reader} 的子运行`, exact: true });
    await expect(heading).toBeFocused();
    await expectFocusVisible(page);
    // The reader by its own name, as its step on the turn names it: not the base class's "Agent".
    await expect(summary(dialog, '智能体')).toHaveText(reader);
    const width = await pageWidth(page);
    expect(width.scrollWidth, 'the reader’s run is wider than the phone').toBeLessThanOrEqual(SCREEN.width);
    expect(await outsideScreen(page, SCREEN)).toEqual([]);

    await press(page, dialog.getByRole('button', { name: '返回运行（ParallelDocQA）', exact: true }));
    await expect(title).toBeFocused();
    await expect(summary(dialog, '智能体')).toHaveText('ParallelDocQA');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });
});
