// The page rendered again by the server (a change of language) keeps the settings shown: a new chat's draft (Pause
// before tools ticked) and an open conversation's own. Before, on a server that brings the page objects of its own
// each time (the plugins that failed to load, told to the admin; the agent `npm run serve` serves), each new render
// put the new chat's defaults back, over the draft and over the open conversation's settings. This app has a plugin
// that fails to load; its one user is the admin. On a 390 px phone, in both languages.
import { mkdirSync, writeFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { ownApp } from './support/app-process';
import { lastAnswer } from './support/chat';
import { hydrated } from './support/hydrated';
import { setScenario } from './support/model';

test.use({ viewport: { width: 390, height: 844 } });

const WORDS = {
  en: { settings: 'Settings', pause: 'Pause before tools', language: 'Language', message: 'Message' },
  'zh-CN': { settings: '设置', pause: '调用工具前暂停', language: '语言', message: '消息' },
} as const;

/** Opens Settings in `lang` and returns its Pause before tools box. */
async function pauseBox(page: Page, lang: keyof typeof WORDS) {
  await page.getByRole('button', { name: WORDS[lang].settings, exact: true }).click();
  return page.getByRole('checkbox', { name: WORDS[lang].pause });
}

/** Switches the page's language (the server renders the page again); Settings is closed first. */
async function switchTo(page: Page, from: keyof typeof WORDS, to: keyof typeof WORDS) {
  await page.keyboard.press('Escape');
  await page.getByRole('combobox', { name: WORDS[from].language, exact: true }).selectOption(to);
  await expect(page.getByRole('combobox', { name: WORDS[to].language, exact: true })).toHaveValue(to);
}

test('a new chat’s ticked Pause before tools, and a conversation’s, survive a change of language', async ({
  page,
}, testInfo) => {
  testInfo.setTimeout(120_000);
  const plugins = testInfo.outputPath('plugins');
  mkdirSync(plugins, { recursive: true });
  writeFileSync(`${plugins}/broken.mjs`, "throw new Error('no plugin here');\n");
  await setScenario({ fallback: { content: 'Noted.' } });
  const server = await ownApp(testInfo.outputPath('data'), { PLUGINS_DIR: plugins });
  try {
    await page.goto(server.base);
    await hydrated(page.getByRole('textbox', { name: WORDS.en.message, exact: true }));

    // A new chat's draft.
    await (await pauseBox(page, 'en')).check();
    await switchTo(page, 'en', 'zh-CN');
    await expect(await pauseBox(page, 'zh-CN')).toBeChecked();
    await switchTo(page, 'zh-CN', 'en');
    await expect(await pauseBox(page, 'en')).toBeChecked();

    // Its first message takes it with it: the conversation's own, shown after a change of language too.
    await page.keyboard.press('Escape');
    await page.getByRole('textbox', { name: WORDS.en.message, exact: true }).fill('Hello, pause');
    await page.keyboard.press('Enter');
    await expect(await lastAnswer(page)).toContainText('Noted.');
    await expect(await pauseBox(page, 'en')).toBeChecked();
    await switchTo(page, 'en', 'zh-CN');
    await expect(await pauseBox(page, 'zh-CN')).toBeChecked();
    // As stored: a reload shows it too.
    await page.reload();
    await expect(await pauseBox(page, 'zh-CN')).toBeChecked();
  } finally {
    await server.down();
  }
});
