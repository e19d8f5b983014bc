// axe-core on every page of the app and its popups, in English and in Chinese: no violation of any impact. The
// accounts pages (sign-in and create-account forms, account, admin, the user menu) are checked on a server with
// accounts on, in e2e/accounts-pages.spec.ts.
import { expect, test, type Page } from '@playwright/test';
import { allViolations } from './support/axe';
import { lastAnswer } from './support/chat';
import { setScenario } from './support/model';

const WORDS = {
  'en-US': {
    message: 'Message',
    settings: 'Settings',
    model: 'Model',
    inspect: 'Inspect run',
    inspector: 'Run inspector',
    runs: 'Runs',
    models: 'Models',
    theme: /^Switch to (dark|light) theme$/,
  },
  'zh-CN': {
    message: '消息',
    settings: '设置',
    model: '模型',
    inspect: '检查运行',
    inspector: '运行检查器',
    runs: '运行记录',
    models: '模型',
    theme: /^切换到(深色|浅色)主题$/,
  },
} as const;

async function expectNoViolations(page: Page, what: string): Promise<void> {
  const violations = await allViolations(page);
  expect(violations, `${what}:\n${violations.join('\n')}`).toEqual([]);
}

for (const locale of ['en-US', 'zh-CN'] as const) {
  test.describe(locale, () => {
    test.use({ locale });

    test(`axe finds nothing on any page or popup (${locale})`, async ({ page }) => {
      test.setTimeout(90_000);
      const w = WORDS[locale];
      const tag = `axe-pages-${locale}`;
      await setScenario({
        rules: [
          {
            when: { lastUserIncludes: tag },
            reply: [
              { reasoning: 'Multiply first.', toolCalls: [{ name: 'calculator', arguments: '{"expression": "6*7"}' }] },
              {
                content: `# Result\n\nIt is **42**.\n\n## Working\n\n| a | b |\n|---|---|\n| 6 | 7 |\n\n\`\`\`python\nprint(6 * 7)\n\`\`\``,
              },
            ],
          },
        ],
      });
      await page.goto('/');
      await expect(page.getByRole('button', { name: w.theme })).toBeVisible(); // hydrated
      await expectNoViolations(page, 'a new chat');

      await page.getByRole('textbox', { name: w.message, exact: true }).fill(`Six times seven ${tag}`);
      await page.keyboard.press('Enter');
      const answer = await lastAnswer(page);
      await expect(answer.getByRole('heading', { name: 'Result' })).toBeVisible();
      await expectNoViolations(page, 'a finished tool run');

      await page.getByRole('combobox', { name: w.model, exact: true }).click();
      await expect(page.getByRole('listbox')).toBeVisible();
      await expectNoViolations(page, 'the model picker');
      await page.keyboard.press('Escape');

      await page.getByRole('button', { name: w.settings, exact: true }).click();
      await expect(page.locator('#settings-panel')).toBeVisible();
      await expectNoViolations(page, 'the settings');
      await page.getByRole('button', { name: w.settings, exact: true }).click();

      await answer.getByRole('button', { name: w.inspect, exact: true }).click();
      const inspector = page.getByRole('dialog', { name: w.inspector });
      await expect(inspector.getByRole('tab').first()).toBeVisible();
      await expectNoViolations(page, 'the inspector');
      await page.keyboard.press('Escape');
      // Closing goes back a step of the history; a navigation started before that step is taken would be aborted.
      await expect(inspector).toBeHidden();
      await expect(page).not.toHaveURL(/[?&]run=/);

      await page.goto('/runs');
      await expect(page.getByRole('heading', { name: w.runs, level: 1 })).toBeVisible();
      await expect(page.getByRole('table', { name: w.runs, exact: true })).toBeVisible();
      await expectNoViolations(page, 'the Runs page');

      for (const path of ['/account', '/admin', '/sign-in', '/sign-up']) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expectNoViolations(page, path);
      }
    });
  });
}
