// "New group" on the Agents list (GroupChatCreator drafts a group, the user reviews it and saves it as agents) and
// "Simulate a user" in a conversation (a simulated user sends N messages, each answered by the agent), in real
// Chromium against the scripted model server: on a desktop, on a 390 px phone from the keyboard, and in Chinese.
import { expect, test, type Page } from '@playwright/test';
import { SIMULATED_USER_STOP } from '../lib/protocol/enums';
import { allViolations } from './support/axe';
import { assistantTurns, lastAnswer, openChat, send, userTurns } from './support/chat';
import { expectFocusVisible, isFocused } from './support/focus';
import { chatRequests, setScenario } from './support/model';
import { outsideScreen, pageWidth } from './support/viewport';

const CREATOR_REPLY = [
  '<Background>: Two friends plan a trip to the coast.',
  '<Config>: {"name": "Ada-gull", "description": "The planner", "instructions": "You are Ada, you plan every hour."}',
  '<Config>: {"name": "Ben-gull", "description": "The dreamer", "instructions": "You are Ben, you dream big."}',
  '<Answer>: Should they travel by train or by car?',
].join('\n');
// Only GroupChatCreator's system message names its <Config> lines.
const CREATOR = { when: { anyIncludes: '<Config>' }, reply: { content: CREATOR_REPLY } };
// Only HumanSimulator's system message asks for this.
const SIMULATOR = 'JSON list of four questions';

/** Deletes the agents a test saved (other specs share the app's data). */
async function deleteAgents(page: Page, names: string[]) {
  for (const name of names) {
    await page.getByRole('button', { name: `Delete ${name}`, exact: true }).click();
    await page
      .getByRole('dialog', { name: /^Delete the agent/ })
      .getByRole('button', { name: 'Delete', exact: true })
      .click();
    await expect(page.getByRole('button', { name: `Chat with ${name}`, exact: true })).toBeHidden();
  }
}

test('New group: the creator drafts the members, the reviewed group is saved as agents and runs', async ({ page }) => {
  await setScenario({ rules: [CREATOR], fallback: { content: 'Let us go.' } });
  await openChat(page);
  await page.getByRole('button', { name: 'New group', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Create a group' });
  await dialog.getByRole('textbox', { name: 'Describe the group' }).fill('Two friends planning a trip.');
  await dialog.getByRole('button', { name: 'Ask the creator' }).click();
  await expect(dialog.getByRole('list', { name: 'Your conversation with the creator' })).toContainText(
    'Creator: Should they travel by train or by car?',
  );
  const review = dialog.getByRole('form', { name: 'Review the group' });
  const ada = review.getByRole('group', { name: 'Member 1' });
  const ben = review.getByRole('group', { name: 'Member 2' });
  await expect(ada.getByRole('textbox', { name: 'Name' })).toHaveValue('Ada-gull');
  await expect(ben.getByRole('textbox', { name: /^Instructions/ })).toHaveValue('You are Ben, you dream big.');
  await expect(review.getByRole('textbox', { name: /^Background/ })).toHaveValue(
    'Two friends plan a trip to the coast.',
  );
  // Reviewed: Ben is told to keep it short, the group named.
  await ben.getByRole('textbox', { name: /^Instructions/ }).fill('You are Ben, you dream big, in one sentence.');
  await review.getByRole('textbox', { name: 'Group name' }).fill('Gull planners');
  await review.getByRole('button', { name: 'Save the group and its members (2)' }).click();
  await expect(dialog).toBeHidden();
  for (const name of ['Ada-gull', 'Ben-gull', 'Gull planners'])
    await expect(page.getByRole('button', { name: `Chat with ${name}`, exact: true })).toBeVisible();

  // Ben is saved as reviewed, and the group holds both.
  await page.getByRole('button', { name: 'Edit Ben-gull', exact: true }).click();
  const editor = page.getByRole('dialog', { name: 'Agent' });
  await expect(editor.getByRole('textbox', { name: 'System message' })).toHaveValue(
    'You are Ben, you dream big, in one sentence.',
  );
  await editor.getByRole('button', { name: 'Cancel' }).click();
  await expect(editor).toBeHidden();

  await setScenario({ fallback: { content: 'Let us go.' } });
  await page.getByRole('button', { name: 'Chat with Gull planners', exact: true }).click();
  await send(page, 'Where shall we stay?');
  const answer = await lastAnswer(page);
  await expect(answer.getByRole('region', { name: "Ada-gull's answer" }).first()).toContainText('Let us go.');
  await expect(answer.getByRole('region', { name: "Ben-gull's answer" }).first()).toContainText('Let us go.');
  const systems = (await chatRequests()).map((r) => String((r.body.messages as { content: unknown }[])[0]?.content));
  expect(systems.some((s) => s.includes('You are Ada, you plan every hour.'))).toBe(true);
  expect(systems.some((s) => s.includes('in one sentence'))).toBe(true);
  await deleteAgents(page, ['Gull planners', 'Ada-gull', 'Ben-gull']);
});

test('Simulate a user for N messages: the simulated user and the agent take turns, then it says how it ended', async ({
  page,
}) => {
  const sim = (after: string, says: string) => ({
    when: { anyIncludes: SIMULATOR, lastUserIncludes: after },
    reply: { content: JSON.stringify([says]) },
  });
  const agent = (asked: string, says: string) => ({ when: { lastUserIncludes: asked }, reply: { content: says } });
  await setScenario({
    rules: [
      // The simulator sees the conversation with the roles swapped: the agent's last answer is its "user" message.
      sim('Answer one.', 'Question two sim-tern?'),
      sim('Answer two.', 'Question three sim-tern?'),
      sim('Answer three.', SIMULATED_USER_STOP),
      agent('Question two sim-tern?', 'Answer two.'),
      agent('Question three sim-tern?', 'Answer three.'),
      agent('Plan my trip sim-tern', 'Answer one.'),
    ],
    fallback: { content: 'Tern trip' },
  });
  await openChat(page);
  await expect(page.getByRole('button', { name: 'Simulate a user' })).toBeHidden(); // no conversation yet
  await send(page, 'Plan my trip sim-tern');
  await expect(await lastAnswer(page)).toContainText('Answer one.');

  await page.getByRole('button', { name: 'Simulate a user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Simulate a user' });
  await dialog.getByRole('spinbutton', { name: /^Messages to send/ }).fill('2');
  await dialog.getByRole('textbox', { name: /^Who the simulated user is/ }).fill('You are a student.');
  await dialog.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The simulated user sent 2 messages.' })).toBeVisible();
  await expect(userTurns(page)).toHaveText([
    /Plan my trip sim-tern/,
    /Question two sim-tern\?/,
    /Question three sim-tern\?/,
  ]);
  await expect(assistantTurns(page)).toHaveText([/Answer one\./, /Answer two\./, /Answer three\./]);
  const simulated = (await chatRequests()).filter((r) => JSON.stringify(r.body).includes(SIMULATOR));
  expect(simulated.length).toBeGreaterThan(0);
  expect(JSON.stringify(simulated[0]!.body)).toContain('You are a student.');

  // Asked for five more, the simulated user judges the conversation over at once: nothing is sent.
  await page.getByRole('button', { name: 'Dismiss' }).click();
  await page.getByRole('button', { name: 'Simulate a user' }).click();
  await dialog.getByRole('spinbutton', { name: /^Messages to send/ }).fill('5');
  await dialog.getByRole('button', { name: 'Start' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'The simulated user ended the conversation after 0 messages.' }),
  ).toBeVisible();
  await expect(userTurns(page)).toHaveCount(3);
});

test('Stop simulating ends the simulation and the answer in progress; nothing more is sent', async ({ page }) => {
  const LONG = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
  await setScenario({
    rules: [
      { when: { anyIncludes: SIMULATOR }, reply: { content: '["Slow question sim-auk?"]' } },
      { when: { lastUserIncludes: 'Slow question sim-auk?' }, reply: { content: LONG, chunkSize: 2, delayMs: 50 } },
      { when: { lastUserIncludes: 'Hello sim-auk' }, reply: { content: 'Hello back.' } },
    ],
    fallback: { content: 'Auk talk' },
  });
  await openChat(page);
  await send(page, 'Hello sim-auk');
  await expect(await lastAnswer(page)).toContainText('Hello back.');
  await page.getByRole('button', { name: 'Simulate a user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Simulate a user' });
  await dialog.getByRole('spinbutton', { name: /^Messages to send/ }).fill('5');
  await dialog.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Simulated user: message 1 of 5…' })).toBeVisible();
  await expect(assistantTurns(page)).toHaveCount(2);
  await expect(assistantTurns(page).last()).toHaveAttribute('aria-busy', 'true');
  await page.getByRole('button', { name: 'Stop simulating' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Simulation stopped after 1 message.' })).toBeVisible();
  await expect(assistantTurns(page).last()).toHaveAttribute('aria-busy', 'false');
  await expect(assistantTurns(page).last()).not.toContainText('word199');
  // The simulation does not go on: its button is back, and the one simulated message is all there is.
  await expect(page.getByRole('button', { name: 'Simulate a user' })).toBeEnabled();
  await expect(userTurns(page)).toHaveText([/Hello sim-auk/, /Slow question sim-auk\?/]);
});

test.describe('on a 390 px phone, from the keyboard', () => {
  const SCREEN = { width: 390, height: 844 };
  test.use({ viewport: SCREEN, isMobile: true, hasTouch: true });

  test('both dialogs fit the screen and work with the keyboard alone', async ({ page }) => {
    await setScenario({
      rules: [
        CREATOR,
        { when: { anyIncludes: SIMULATOR }, reply: { content: '["Keyboard question phone-puffin?"]' } },
        { when: { lastUserIncludes: 'phone-puffin' }, reply: { content: 'Puffin answer.' } },
      ],
    });
    await openChat(page);
    await page.getByRole('button', { name: 'Menu' }).click();
    const newGroup = page.getByRole('button', { name: 'New group', exact: true });
    await newGroup.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Create a group' });
    const describe = dialog.getByRole('textbox', { name: 'Describe the group' });
    await expect.poll(() => isFocused(describe)).toBe(true);
    await page.keyboard.type('Two puffins.');
    await page.keyboard.press('Enter'); // sends, as in the composer
    const review = dialog.getByRole('form', { name: 'Review the group' });
    await expect(review.getByRole('group', { name: 'Member 2' })).toBeVisible();
    expect(await outsideScreen(page, SCREEN, dialog)).toEqual([]);
    expect(await allViolations(page)).toEqual([]);
    expect((await pageWidth(page)).scrollWidth).toBeLessThanOrEqual(SCREEN.width);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expectFocusVisible(page);
    await expect(page.getByRole('button', { name: 'Chat with Ada-gull', exact: true })).toBeHidden(); // nothing saved

    await page.getByRole('button', { name: 'Close', exact: true }).click(); // the menu
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Hello phone-puffin');
    await page.keyboard.press('Enter');
    await expect(await lastAnswer(page)).toContainText('Puffin answer.');
    const simulate = page.getByRole('button', { name: 'Simulate a user' });
    await expect(simulate).toBeInViewport();
    await simulate.focus();
    await page.keyboard.press('Enter');
    const simDialog = page.getByRole('dialog', { name: 'Simulate a user' });
    const turns = simDialog.getByRole('spinbutton', { name: /^Messages to send/ });
    await expect.poll(() => isFocused(turns)).toBe(true);
    expect(await outsideScreen(page, SCREEN, simDialog)).toEqual([]);
    expect(await allViolations(page)).toEqual([]);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('1');
    await page.keyboard.press('Enter'); // submits the form
    await expect(page.getByRole('status').filter({ hasText: 'The simulated user sent 1 message.' })).toBeVisible();
    await expect(userTurns(page)).toHaveText([/Hello phone-puffin/, /Keyboard question phone-puffin\?/]);
    await expect(assistantTurns(page)).toHaveCount(2);
  });
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('the group dialog and the simulation speak Chinese', async ({ page }) => {
    await setScenario({ rules: [CREATOR], fallback: { content: '好的。' } });
    await page.goto('/');
    await expect(page.getByRole('button', { name: /^切换到(深色|浅色)主题$/ })).toBeVisible(); // hydrated
    await page.getByRole('button', { name: '新建群组', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: '创建群组' });
    await dialog.getByRole('textbox', { name: '描述这个群组' }).fill('两个朋友计划旅行。');
    await dialog.getByRole('button', { name: '发给创建助手' }).click();
    await expect(dialog.getByRole('button', { name: '保存群组及其成员（2）' })).toBeVisible();
    expect(await allViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: '关闭', exact: true }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole('textbox', { name: '消息', exact: true }).fill('你好');
    await page.keyboard.press('Enter');
    await expect(assistantTurns(page).last()).toHaveAttribute('aria-busy', 'false');
    await page.getByRole('button', { name: '模拟用户', exact: true }).click();
    await expect(page.getByRole('dialog', { name: '模拟用户' }).getByText('要发送的消息数（1–10）')).toBeVisible();
    expect(await allViolations(page)).toEqual([]);
  });

  test.describe('on a 390 px phone, from the keyboard', () => {
    const SCREEN = { width: 390, height: 844 };
    test.use({ viewport: SCREEN, isMobile: true, hasTouch: true });

    test('a refused group says why in Chinese by the field at fault, which takes the focus; nothing is saved', async ({
      page,
    }) => {
      await setScenario({ rules: [CREATOR] });
      await page.goto('/');
      await expect(page.getByRole('button', { name: /^切换到(深色|浅色)主题$/ })).toBeVisible(); // hydrated
      await page.getByRole('button', { name: '菜单', exact: true }).click();
      const newGroup = page.getByRole('button', { name: '新建群组', exact: true });
      await newGroup.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: '创建群组' });
      await expect.poll(() => isFocused(dialog.getByRole('textbox', { name: '描述这个群组' }))).toBe(true);
      await page.keyboard.type('两只海鸥。');
      await page.keyboard.press('Enter');
      const review = dialog.getByRole('form', { name: '检查群组' });
      const second = review.getByRole('group', { name: '成员 2' }).getByRole('textbox', { name: '名称' });
      await expect(second).toHaveValue('Ben-gull');

      // Member 2 named as member 1 is: the save is refused, said in Chinese by member 2's name, which has the focus.
      await second.fill('Ada-gull');
      await review.getByRole('textbox', { name: '群组名称' }).fill('海鸥');
      await page.keyboard.press('Enter'); // submits the review
      const taken = '成员 2 的名称“Ada-gull”已被另一个成员或群组使用：名称不能重复。';
      await expect(dialog.getByRole('alert')).toHaveText(taken);
      await expect.poll(() => isFocused(second)).toBe(true);
      await expect(second).toHaveAttribute('aria-invalid', 'true');
      await expect(second).toHaveAccessibleDescription(taken);
      await expectFocusVisible(page);
      expect(await outsideScreen(page, SCREEN, dialog)).toEqual([]);
      expect((await pageWidth(page)).scrollWidth).toBeLessThanOrEqual(SCREEN.width);
      expect(await allViolations(page)).toEqual([]);

      // Fixed from the keyboard where the focus is; the group's name left empty is the next refusal, at its field.
      await page.keyboard.press('Control+A');
      await page.keyboard.type('Ben-gull');
      const name = review.getByRole('textbox', { name: '群组名称' });
      await name.fill('');
      await page.keyboard.press('Enter');
      await expect(dialog.getByRole('alert')).toHaveText('请给群组起个名字。');
      await expect.poll(() => isFocused(name)).toBe(true);
      await expect(second).not.toHaveAttribute('aria-invalid');
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(page.getByRole('button', { name: /Ada-gull/ })).toHaveCount(0); // nothing saved
    });
  });
});
