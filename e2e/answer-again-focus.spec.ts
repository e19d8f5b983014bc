// Where the focus goes when a control that starts a new answer goes away with it (Regenerate, Retry, an edit sent):
// to the composer, as when a dialog's opener is gone, where Escape stops the answer and Tab reaches Stop. Before, it
// fell to the page and the next Tab landed on "Copy answer" of an earlier turn. Stop too, when it goes as the answer
// ends (by itself or pressed) with the focus on it; not on a touch screen, where the keyboard would pop up. From the
// keyboard alone, in English and in Chinese on a 390 px phone.
import { expect, test } from '@playwright/test';
import { assistantTurns, lastAnswer, openChat, send, userTurns } from './support/chat';
import { expectFocusVisible } from './support/focus';
import { setScenario } from './support/model';

const SLOW = { chunkSize: 6, delayMs: 60 };

test('Regenerate and an edit sent from the keyboard leave the focus in the composer; Tab reaches Stop', async ({
  page,
}) => {
  await setScenario({
    rules: [
      {
        when: { lastUserIncludes: 'again-lynx' },
        reply: { content: 'Lynxes hunt hares at dusk. '.repeat(8), ...SLOW },
      },
    ],
    fallback: { content: 'Sent on.' },
  });
  await openChat(page);
  await send(page, 'What do lynxes hunt? again-lynx');
  const composer = page.getByRole('textbox', { name: 'Message', exact: true });
  const first = await lastAnswer(page);
  await first.getByRole('button', { name: 'Regenerate', exact: true }).focus();
  await page.keyboard.press('Enter');

  // While the new answer streams: in the composer, with Stop the next Tab.
  await expect(composer).toBeFocused();
  const stop = page.getByRole('button', { name: 'Stop', exact: true });
  await expect(stop).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(stop).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(composer).toBeFocused();
  const answer = await lastAnswer(page);
  await expect(answer.getByRole('group', { name: 'Answer 2 of 2' })).toBeVisible();
  await expect(composer).toBeFocused();
  await expectFocusVisible(page);

  // An edit sent with Enter: its box goes, the focus is in the composer, and what is typed there goes next.
  await userTurns(page).last().getByRole('button', { name: 'Edit' }).focus();
  await page.keyboard.press('Enter');
  await page.keyboard.type(' once more');
  await page.keyboard.press('Enter');
  await expect(composer).toBeFocused();
  await expect(assistantTurns(page).last()).toHaveAttribute('aria-busy', 'true');
  await expect(await lastAnswer(page)).toContainText('Lynxes hunt hares');
  await page.keyboard.type('And foxes?');
  await page.keyboard.press('Enter');
  await expect(userTurns(page)).toHaveCount(2);
  await expect(await lastAnswer(page)).toContainText('Sent on.');
});

test('Stop holding the focus when the answer ends, or pressed from the keyboard, leaves it in the composer', async ({
  page,
}) => {
  await setScenario({
    rules: [
      { when: { lastUserIncludes: 'stop-vole' }, reply: { content: 'Voles dig tunnels. '.repeat(10), ...SLOW } },
      {
        when: { lastUserIncludes: 'stop-shrew' },
        reply: { content: 'Shrews eat all day. '.repeat(300), chunkSize: 2, delayMs: 30 },
      },
    ],
  });
  await openChat(page);
  const composer = page.getByRole('textbox', { name: 'Message', exact: true });
  const stop = page.getByRole('button', { name: 'Stop', exact: true });

  // Tabbed to Stop while the answer streams, and left there until it ends: back in the composer, Stop gone.
  await composer.fill('What do voles do? stop-vole');
  await page.keyboard.press('Enter');
  await expect(stop).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(stop).toBeFocused();
  await expect(await lastAnswer(page)).toContainText('Voles dig tunnels.');
  await expect(stop).toHaveCount(0);
  await expect(composer).toBeFocused();
  await expectFocusVisible(page);

  // Stop pressed with Enter: the answer stops, the focus is in the composer, and what is typed next goes.
  await page.keyboard.type('And shrews? stop-shrew');
  await page.keyboard.press('Enter');
  await expect(assistantTurns(page).last()).toContainText('Shrews eat all day.');
  await page.keyboard.press('Tab');
  await expect(stop).toBeFocused();
  await page.keyboard.press('Enter');
  await expect((await lastAnswer(page)).getByText('Stopped by you')).toBeVisible();
  await expect(composer).toBeFocused();
  await page.keyboard.type('Thanks');
  await page.keyboard.press('Enter');
  await expect(userTurns(page)).toHaveCount(3);
});

test.describe('on a touch screen', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('Stop tapped does not move the focus to the composer (no keyboard pops up over the answer)', async ({
    page,
  }) => {
    await setScenario({
      rules: [
        {
          when: { lastUserIncludes: 'stop-mole' },
          reply: { content: 'Moles swim through soil. '.repeat(300), chunkSize: 2, delayMs: 30 },
        },
      ],
    });
    await openChat(page);
    await send(page, 'And moles? stop-mole');
    await expect(assistantTurns(page).last()).toContainText('Moles swim through soil.');
    await page.getByRole('button', { name: 'Stop', exact: true }).tap();
    await expect((await lastAnswer(page)).getByText('Stopped by you')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Message', exact: true })).not.toBeFocused();
  });
});

test.describe('on a phone, in Chinese', () => {
  test.use({ locale: 'zh-CN', viewport: { width: 390, height: 844 } });

  test('重试 from the keyboard leaves the focus in the composer', async ({ page }) => {
    await setScenario({
      rules: [{ when: { lastUserIncludes: 'again-ibex' }, reply: { fault: { kind: 'status', status: 500 } } }],
    });
    await page.goto('/');
    await expect(page.getByRole('button', { name: /^切换到(深色|浅色)主题$/ })).toBeVisible();
    const composer = page.getByRole('textbox', { name: '消息', exact: true });
    await composer.fill('北山羊住在哪里？again-ibex');
    await page.keyboard.press('Enter');
    await expect(assistantTurns(page)).toHaveCount(1);
    const failed = await lastAnswer(page);
    await expect(failed.getByRole('alert')).toContainText('500');
    await setScenario({
      rules: [
        {
          when: { lastUserIncludes: 'again-ibex' },
          reply: { content: '北山羊住在高山上，善于攀岩。'.repeat(12), ...SLOW },
        },
      ],
    });
    await failed.getByRole('button', { name: '重试', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect(composer).toBeFocused();
    const stop = page.getByRole('button', { name: '停止', exact: true });
    await expect(stop).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(stop).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(await lastAnswer(page)).toContainText('北山羊住在高山上，善于攀岩。');
    await expect(composer).toBeFocused();
    await expectFocusVisible(page);
  });
});
