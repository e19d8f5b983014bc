// Every page and popup on a phone (390×844): nothing wider than the screen, nothing drawn or cut outside it, every
// popup (the model picker, the menu, the settings, the dialogs, the inspector from a chat and from Runs) inside it.
// The accounts pages are measured in e2e/accounts-pages.spec.ts (they need a server with accounts on).
import { expect, test, type Locator, type Page } from '@playwright/test';
import { lastAnswer, openChat, send } from './support/chat';
import { setScenario } from './support/model';
import { outsideScreen, pageWidth } from './support/viewport';

const SCREEN = { width: 390, height: 844 };
test.use({ viewport: SCREEN, isMobile: true, hasTouch: true });

/** Nothing of the page (or of the popup `within`) outside the screen. */
async function expectFits(page: Page, what: string, within?: Locator): Promise<void> {
  if (within) await expect(within).toBeVisible();
  const width = await pageWidth(page);
  // A phone widens its layout viewport to fit a page that is too wide: innerWidth says so too.
  expect(width.innerWidth, `${what}: the page is wider than the screen`).toBe(SCREEN.width);
  expect(width.scrollWidth, `${what}: the page is wider than the screen`).toBeLessThanOrEqual(SCREEN.width);
  const outside = await outsideScreen(page, SCREEN, within);
  expect(outside, `${what}: drawn outside the screen\n${outside.join('\n')}`).toEqual([]);
}

const WIDE_ANSWER = [
  '# Heron facts',
  '',
  '| Species | Length | Wingspan | Weight | Range | Habitat | Diet |',
  '|---|---|---|---|---|---|---|',
  '| Grey heron | 84–102 cm | 155–195 cm | 1.0–2.1 kg | Europe, Asia, Africa | Wetlands | Fish, frogs |',
  '',
  '```python',
  'herons = {"grey": "Ardea cinerea", "great blue": "Ardea herodias", "purple": "Ardea purpurea", "goliath": 1}',
  '```',
  '',
  'Done (phone-heron).',
].join('\n');

test('on a 390×844 phone every page and popup of the chat fits the screen', async ({ page }) => {
  test.setTimeout(120_000);
  await setScenario({
    rules: [
      {
        when: { lastUserIncludes: 'phone-heron' },
        reply: [{ toolCalls: [{ name: 'calculator', arguments: '{"expression": "6*7"}' }] }, { content: WIDE_ANSWER }],
      },
    ],
  });
  await openChat(page);
  await expectFits(page, 'new chat');
  // The header shows the conversation's title (not squeezed to nothing by its buttons).
  const title = page.getByRole('heading', { level: 1 });
  await expect(title).toHaveText('New chat');
  expect((await title.boundingBox())?.width ?? 0).toBeGreaterThan(60);

  // A saved agent, made from the menu: the editor, then the agent at the foot of the menu.
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: 'New agent' }).click();
  const editor = page.getByRole('dialog', { name: 'Agent' });
  await expectFits(page, 'agent editor', editor);
  await editor.getByRole('textbox', { name: 'Name' }).fill('Phone heron');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editor).toBeHidden();
  const menu = page.locator('aside');
  await expectFits(page, 'menu', menu);
  await expect(menu.getByRole('button', { name: 'Chat with Phone heron' })).toBeInViewport();
  await menu.getByRole('button', { name: 'Close', exact: true }).click();

  await send(page, 'Tell me about herons, phone-heron');
  const answer = await lastAnswer(page);
  await expect(answer).toContainText('Done (phone-heron).');
  await expectFits(page, 'an answer with a wide table and code');
  await expect(title).toHaveText('Tell me about herons, phone-heron');
  // Its row is Menu, the title and Settings only (Simulate a user beside them cut it to about ten characters).
  expect((await title.boundingBox())?.width ?? 0).toBeGreaterThan(180);
  for (const name of ['Copy answer', 'Regenerate', 'Inspect run', 'Replay run'])
    await expect(answer.getByRole('button', { name, exact: true })).toBeInViewport({ ratio: 1 });

  const picker = page.getByRole('combobox', { name: 'Model', exact: true });
  await picker.click();
  const list = page.getByRole('listbox', { name: 'Models' });
  await expect(list.getByRole('option', { name: /scripted-e2e/ })).toBeVisible();
  await expectFits(page, 'model picker', list.locator('..'));
  await page.keyboard.press('Escape');
  await expect(list).toBeHidden();

  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.locator('#settings-panel');
  await expectFits(page, 'settings', settings);
  await settings.getByRole('button', { name: 'Models…' }).click();
  const models = page.getByRole('dialog', { name: 'Models' });
  await expectFits(page, 'Models dialog (servers)', models);
  await models.getByRole('tab', { name: 'Local models' }).click();
  await expectFits(page, 'Models dialog (local)', models);
  await page.keyboard.press('Escape');
  await expect(models).toBeHidden();
  await page.getByRole('button', { name: 'Close settings' }).click();

  await answer.getByRole('button', { name: 'Inspect run' }).click();
  const inspector = page.getByRole('dialog', { name: 'Run inspector' });
  await expect(inspector.getByRole('tab', { name: 'Iteration 2', exact: true })).toBeVisible();
  await expectFits(page, 'inspector from the chat', inspector);
  await inspector.getByRole('tab', { name: 'Iteration 2', exact: true }).click();
  await expectFits(page, 'inspector from the chat, iteration 2', inspector);
  await expect(inspector.getByRole('button', { name: 'Close' })).toBeInViewport({ ratio: 1 });
  await page.keyboard.press('Escape');
  await expect(inspector).toBeHidden();
  // Closing it goes back a step of the history (the run leaves the address): done before the next page is opened.
  await expect(page).not.toHaveURL(/[?&]run=/);

  await answer.getByRole('button', { name: 'Replay run' }).click();
  const replay = page.getByRole('dialog', { name: 'Replay run' });
  await expect(replay.getByRole('combobox', { name: 'From iteration' })).toBeVisible();
  await expectFits(page, 'Replay run dialog', replay);
  await page.keyboard.press('Escape');
  await expect(replay).toBeHidden();

  await answer.getByRole('button', { name: 'Regenerate' }).click();
  const again = await lastAnswer(page);
  await expect(again).toContainText('2 / 2');
  await again.getByRole('button', { name: 'Compare runs' }).click();
  const compare = page.getByRole('dialog', { name: 'Compare runs' });
  await expect(compare.getByRole('region', { name: 'Answers' })).toBeVisible();
  await expectFits(page, 'Compare runs dialog', compare);
  await page.keyboard.press('Escape');

  await page.goto('/runs');
  await expect(page.getByRole('heading', { name: 'Runs', level: 1 })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Runs', exact: true })).toBeVisible();
  await expectFits(page, 'Runs page');
  await page.getByRole('button', { name: 'Inspect the run of “Tell me about herons, phone-heron”' }).first().click();
  const fromRuns = page.getByRole('dialog', { name: 'Run inspector' });
  await expect(fromRuns.getByRole('tab', { name: 'Iteration 1', exact: true })).toBeVisible();
  await expectFits(page, 'inspector from Runs', fromRuns);
  await expect(fromRuns.getByRole('button', { name: 'Close' })).toBeInViewport({ ratio: 1 });
  await page.keyboard.press('Escape');
  await expect(page).not.toHaveURL(/[?&]run=/);

  for (const path of ['/account', '/admin', '/sign-in', '/sign-up']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectFits(page, path);
  }

  // Leave no agent behind for the other specs (the Chinese page's checks read every name on the page).
  await openChat(page);
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: 'Delete Phone heron' }).click();
  await page
    .getByRole('dialog', { name: /^Delete the agent/ })
    .getByRole('button', { name: 'Delete', exact: true })
    .click();
  await expect(page.getByRole('button', { name: 'Chat with Phone heron' })).toBeHidden();
});

test('on a phone the agent editor fits beside an upload with a long name', async ({ page }) => {
  const name = 'quarterly-heron-population-survey-of-the-northern-wetlands-2026-final-revised.md';
  await openChat(page);
  await page
    .getByLabel('Upload files')
    .setInputFiles([{ name, mimeType: 'text/markdown', buffer: Buffer.from('# Herons\n\nGrey herons wade.\n') }]);
  await expect(
    page.getByRole('list', { name: 'Documents', exact: true }).getByRole('listitem').filter({ hasText: 'quarterly' }),
  ).toContainText(/ready/, { timeout: 20_000 });
  // The editor offers that upload by its name and its conversation's: the picker must not widen the dialog.
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: 'New agent' }).click();
  const editor = page.getByRole('dialog', { name: 'Agent' });
  await expect(editor.getByRole('combobox', { name: 'Add one of your uploads…' })).toContainText(name);
  await expectFits(page, 'agent editor with a long upload name', editor);
  // The note under an avatar URL the page will not load, with a long host name.
  await editor
    .getByRole('textbox', { name: 'Avatar (an emoji)' })
    .fill('https://avatars.images.of-a-long-named-photo-host.example.net/heron.png');
  await expect(editor.getByText(/are not shown in this app/)).toBeVisible();
  await expectFits(page, 'agent editor with the avatar note', editor);
  // Leaving with that typed asks first, in a dialog of the page's own that fits too.
  await page.keyboard.press('Escape');
  const ask = page.getByRole('dialog', { name: 'Discard the changes to this agent?' });
  await expectFits(page, 'the discard question', ask);
  await ask.getByRole('button', { name: 'Discard' }).click();
  await expect(editor).toBeHidden();
});

test('on a phone the Runs page fits beside an agent with a long name', async ({ page }) => {
  const name = 'Phone egret, the long-legged wader of marshes and rivers';
  await setScenario({ rules: [{ when: { lastUserIncludes: 'phone-egret' }, reply: { content: 'Egrets wade.' } }] });
  await openChat(page);
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: 'New agent' }).click();
  const editor = page.getByRole('dialog', { name: 'Agent' });
  await editor.getByRole('textbox', { name: 'Name' }).fill(name);
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editor).toBeHidden();
  await page.getByRole('button', { name: `Chat with ${name}` }).click();
  await send(page, 'Where do egrets live? phone-egret');
  await expect(await lastAnswer(page)).toContainText('Egrets wade.');

  // The Agent filter offers the long name; before, the filter took its width and the page was 521 px wide.
  await page.goto('/runs');
  const agentFilter = page.getByRole('combobox', { name: 'Agent' });
  await expect(agentFilter.getByRole('option', { name })).toHaveCount(1);
  await expectFits(page, 'Runs page with a long agent name');

  await openChat(page);
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: `Delete ${name}` }).click();
  await page
    .getByRole('dialog', { name: /^Delete the agent/ })
    .getByRole('button', { name: 'Delete', exact: true })
    .click();
  await expect(page.getByRole('button', { name: `Chat with ${name}` })).toBeHidden();
});

/** The composer's placeholder against its box: how wide it is set in the box's font, and the room on the box's one
 *  line. Measured in a copy of the text, each CJK or full-width character set 1em wide as a CJK font draws it
 *  (this machine may have none, and would draw narrower boxes where a phone draws the characters). */
async function placeholderInBox(box: Locator) {
  return box.evaluate((el: HTMLTextAreaElement) => {
    const style = getComputedStyle(el);
    const line = document.createElement('span');
    Object.assign(line.style, { position: 'fixed', top: '0', left: '0', visibility: 'hidden', whiteSpace: 'pre' });
    line.style.font = style.font;
    for (const part of el.placeholder.split(/([\u3000-\u303f\u4e00-\u9fff\uff00-\uff60])/u)) {
      if (!/^[\u3000-\u303f\u4e00-\u9fff\uff00-\uff60]$/u.test(part)) {
        line.append(part);
        continue;
      }
      const wide = document.createElement('span');
      Object.assign(wide.style, { display: 'inline-block', width: '1em', overflow: 'hidden', verticalAlign: 'top' });
      wide.textContent = part;
      line.append(wide);
    }
    document.body.append(line);
    const width = line.getBoundingClientRect().width;
    line.remove();
    const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const lines = Math.floor(
      (el.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom)) / parseFloat(style.lineHeight),
    );
    return { placeholder: el.placeholder, fits: lines >= 1 && width <= room, width: Math.ceil(width), room, lines };
  });
}

for (const [locale, lang] of [
  ['en-US', 'en'],
  ['zh-CN', 'zh-CN'],
] as const) {
  test.describe(() => {
    test.use({ locale });
    test(`on a phone the composer's placeholder is read whole, not cut (${lang}); a wide screen keeps the long one`, async ({
      page,
    }) => {
      await page.goto('/');
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      // Hydrated (the theme toggle only renders then), in either language.
      await expect(
        page.getByRole('button', { name: /^(Switch to (dark|light) theme|切换到(深色|浅色)主题)$/ }),
      ).toBeVisible();
      const box = page.locator('textarea#composer-message'); // named in the page's language
      await expect(box).toBeVisible();
      // Polled: the page may choose its placeholder once it has measured the box.
      await expect
        .poll(() => placeholderInBox(box), { message: `the placeholder is cut on a ${SCREEN.width} px phone` })
        .toMatchObject({ placeholder: expect.stringMatching(/./), fits: true });
      // On a wide screen the placeholder still says how to send and how to add a line.
      await page.setViewportSize({ width: 1280, height: 800 });
      await expect(box).toHaveAttribute('placeholder', /Shift\+Enter/);
      await expect.poll(() => placeholderInBox(box)).toMatchObject({ fits: true });
    });
  });
}

test('on a phone the header’s controls keep apart, each on one line', async ({ page }) => {
  await setScenario({ rules: [{ when: {}, reply: { content: 'Header check.' } }] });
  await openChat(page);
  await send(page, 'A conversation, so that Simulate a user shows');
  await expect(await lastAnswer(page)).toContainText('Header check.');
  const header = page.locator('main header');
  const controls = [
    header.getByRole('button', { name: 'Simulate a user' }),
    header.getByRole('combobox', { name: 'Model', exact: true }),
    header.getByRole('combobox', { name: 'Language' }),
    header.getByRole('button', { name: /^Switch to (dark|light) theme$/ }),
  ];
  const boxes = [];
  for (const control of controls) {
    await expect(control).toBeVisible();
    boxes.push((await control.boundingBox())!);
  }
  // Side by side on one row, a gap between each and the next, all on the screen.
  for (let i = 1; i < boxes.length; i++) {
    const [left, right] = [boxes[i - 1]!, boxes[i]!];
    expect(right.x - (left.x + left.width), `gap before control ${i}`).toBeGreaterThanOrEqual(4);
    expect(Math.abs(right.y + right.height / 2 - (left.y + left.height / 2))).toBeLessThan(4);
  }
  expect(boxes.at(-1)!.x + boxes.at(-1)!.width).toBeLessThanOrEqual(SCREEN.width);
  // "Simulate a user" on one line: as tall as the language select beside it, not two lines of text.
  expect(boxes[0]!.height).toBeLessThanOrEqual(boxes[2]!.height + 2);
  await expectFits(page, 'the header');
});
