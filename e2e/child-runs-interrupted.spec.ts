// Child runs the server was killed under: ParallelDocQA's readers were still reading when the app died. The page
// notices the lost server, and after a restart and a reload the turn says it was interrupted: its reader steps say so
// too, and none says "working…" any more (before, each did forever: only a run-end of the child's own ended its
// section). In English on a desktop and in Chinese on a 390 px phone, the steps opened from the keyboard; the run
// inspector's reader run says it was interrupted. A GroupChat member killed mid-answer no longer says "answering…"
// either. Each test starts its own server on its own DATA_DIR.
import { expect, test, type Page } from '@playwright/test';
import { makePdf, textPage } from '../test/support/pdf-writer';
import { ownApp } from './support/app-process';
import { assistantTurns } from './support/chat';
import { setScenario } from './support/model';
import { outsideScreen, pageWidth } from './support/viewport';

function appEnv(): Record<string, string> {
  const config = process.env.E2E_MCP_CONFIG;
  if (!config) throw new Error('E2E_MCP_CONFIG is not set: run the browser tests through playwright.config.ts');
  return { MCP_CONFIG: config };
}

/** 18 pages of about 400 tokens: several reader chunks. */
function manual(): Buffer {
  const line = 'Visitors sign in at the front desk and collect a badge for the day; rooms are booked a day ahead.';
  return makePdf(Array.from({ length: 18 }, (_, i) => textPage(`Chapter ${i + 1}`, Array(20).fill(line))));
}

interface Words {
  upload: string;
  documents: string;
  ready: RegExp;
  settings: string;
  advanced: string;
  agent: string;
  message: string;
  send: string;
  steps: RegExp;
  working: string;
  interrupted: string;
  notice: RegExp;
  inspect: string;
  inspector: string;
  openReader: RegExp;
  outcome: RegExp;
  theme: RegExp;
}

const EN: Words = {
  upload: 'Upload files',
  documents: 'Documents',
  ready: /ready, 18 pages/,
  settings: 'Settings',
  advanced: 'Advanced',
  agent: 'Agent',
  message: 'Message',
  send: 'Send',
  steps: /^Reader \d+: manual\.pdf.*: a step of the answer$/,
  working: 'working…',
  interrupted: 'interrupted',
  notice: /^Interrupted: the server stopped during this answer/,
  inspect: 'Inspect run',
  inspector: 'Run inspector',
  openReader: /^Open Reader 1: manual\.pdf.*'s run$/,
  outcome: /Interrupted: the server stopped before the run finished\./,
  theme: /^Switch to (dark|light) theme$/,
};

const ZH: Words = {
  upload: '上传文件',
  documents: '文档',
  ready: /已就绪，共 18 页/,
  settings: '设置',
  advanced: '高级',
  agent: '智能体',
  message: '消息',
  send: '发送',
  steps: /^阅读者 \d+：manual\.pdf.*：回答的一个步骤$/,
  working: '进行中…',
  interrupted: '已中断',
  notice: /^已中断：服务器在回答过程中停止了/,
  inspect: '检查运行',
  inspector: '运行检查器',
  openReader: /^打开 阅读者 1：manual\.pdf.* 的运行$/,
  outcome: /已中断：服务器在运行结束前停止了。/,
  theme: /^切换到(深色|浅色)主题$/,
};

/** Opens `url` and waits until the page has hydrated (the theme switch renders only then), in the page's language. */
async function openChat(page: Page, url: string, w: Words): Promise<void> {
  await page.goto(url);
  await expect(page.getByRole('button', { name: w.theme })).toBeVisible();
}

/** Readers that take a minute to answer: the server is killed while every one of them is still reading. */
async function askWhileReadersHang(page: Page, base: string, w: Words): Promise<void> {
  await setScenario({
    rules: [{ when: { anyIncludes: '"res": "none"' }, reply: { content: '{"res": "none"}', ttftMs: 60_000 } }],
    fallback: { content: 'Never reached.' },
  });
  await openChat(page, base, w);
  await page
    .getByLabel(w.upload)
    .setInputFiles([{ name: 'manual.pdf', mimeType: 'application/pdf', buffer: manual() }]);
  await expect(
    page.getByRole('list', { name: w.documents, exact: true }).getByRole('listitem').filter({ hasText: 'manual.pdf' }),
  ).toContainText(w.ready, { timeout: 20_000 });
  await page.getByRole('button', { name: w.settings, exact: true }).click();
  await page.getByText(w.advanced, { exact: true }).click();
  const kind = page.getByRole('combobox', { name: w.agent, exact: true });
  await kind.selectOption('paralleldocqa');
  await kind.press('Escape');
  await expect(kind).toBeHidden();
  await page.getByRole('textbox', { name: w.message, exact: true }).fill('Where do visitors sign in?');
  await page.getByRole('button', { name: w.send, exact: true }).click();
}

/** The turn's reader steps: there are some, each says it was interrupted, none that it is still working. */
async function expectReadersInterrupted(page: Page, w: Words): Promise<void> {
  const turn = assistantTurns(page).last();
  const steps = turn.getByRole('region', { name: w.steps });
  await expect(steps.first()).toBeVisible();
  const n = await steps.count();
  expect(n).toBeGreaterThan(1);
  await expect(turn.getByText(w.working, { exact: true })).toHaveCount(0);
  await expect(turn.getByText(w.interrupted, { exact: true })).toHaveCount(n);
}

async function killedUnderReaders(page: Page, w: Words, dataDir: string): Promise<void> {
  const server = await ownApp(dataDir, appEnv());
  try {
    await askWhileReadersHang(page, server.base, w);
    const turn = assistantTurns(page).last();
    const steps = turn.getByRole('region', { name: w.steps });
    await expect(steps.first()).toContainText(w.working);
    await expect(page).toHaveURL(/\?c=[\w-]+/);
    const url = page.url();

    await server.down();
    // The page notices the lost server: the readers it was showing end with the turn.
    await expect(turn).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
    await expectReadersInterrupted(page, w);

    await server.up();
    await openChat(page, url, w);
    const reloaded = assistantTurns(page).last();
    await expect(reloaded.getByText(w.notice)).toBeVisible();
    await expectReadersInterrupted(page, w);

    // From the keyboard: a step opens, and what it read is shown under a header that says it was interrupted.
    const first = reloaded.getByRole('region', { name: w.steps }).first();
    const header = first.getByRole('button');
    await header.focus();
    await page.keyboard.press('Enter');
    await expect(header).toHaveAttribute('aria-expanded', 'true');
    await expect(header).toContainText(w.interrupted);

    // The run inspector: the reader's own run was interrupted with its parent.
    await reloaded.getByRole('button', { name: w.inspect, exact: true }).click();
    const inspector = page.getByRole('dialog', { name: w.inspector });
    await inspector.getByRole('button', { name: w.openReader }).click();
    await expect(inspector).toContainText(w.outcome);
    await page.keyboard.press('Escape');
    await expect(inspector).toBeHidden();
  } finally {
    await server.down();
  }
}

test('ParallelDocQA: readers the server was killed under say interrupted, before and after a restart', async ({
  page,
}, testInfo) => {
  testInfo.setTimeout(150_000);
  await killedUnderReaders(page, EN, testInfo.outputPath('data'));
});

test.describe('on a phone, in Chinese', () => {
  const SCREEN = { width: 390, height: 844 };
  test.use({ locale: 'zh-CN', viewport: SCREEN });

  test('通读整个文档: interrupted readers say 已中断, within 390 px', async ({ page }, testInfo) => {
    testInfo.setTimeout(150_000);
    await killedUnderReaders(page, ZH, testInfo.outputPath('data'));
    const width = await pageWidth(page);
    expect(width.scrollWidth).toBeLessThanOrEqual(SCREEN.width);
    expect(await outsideScreen(page, SCREEN)).toEqual([]);
  });
});

test('GroupChat: a member answering when the server was killed says interrupted, before and after a restart', async ({
  page,
}, testInfo) => {
  testInfo.setTimeout(150_000);
  const server = await ownApp(testInfo.outputPath('data'), appEnv());
  try {
    // The group, drafted by GroupChatCreator and saved as it is.
    const creator = [
      '<Background>: Two friends plan a trip.',
      '<Config>: {"name": "Ada-tern", "description": "The planner", "instructions": "You are Ada-tern."}',
      '<Config>: {"name": "Ben-tern", "description": "The dreamer", "instructions": "You are Ben-tern."}',
      '<Answer>: Train or car?',
    ].join('\n');
    await setScenario({
      rules: [
        { when: { anyIncludes: '<Config>' }, reply: { content: creator } },
        // A member's answer that does not come before the kill.
        { when: { anyIncludes: 'You are Ada-tern.' }, reply: { content: 'Never.', ttftMs: 60_000 } },
        { when: { anyIncludes: 'You are Ben-tern.' }, reply: { content: 'Never.', ttftMs: 60_000 } },
      ],
      fallback: { content: 'Ada-tern' },
    });
    await openChat(page, server.base, EN);
    await page.getByRole('button', { name: 'New group', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a group' });
    await dialog.getByRole('textbox', { name: 'Describe the group' }).fill('Two friends planning a trip.');
    await dialog.getByRole('button', { name: 'Ask the creator' }).click();
    const review = dialog.getByRole('form', { name: 'Review the group' });
    await review.getByRole('textbox', { name: 'Group name' }).fill('Tern planners');
    await review.getByRole('button', { name: 'Save the group and its members (2)' }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole('button', { name: 'Chat with Tern planners', exact: true }).click();
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Where shall we stay?');
    await page.keyboard.press('Enter');
    const turn = assistantTurns(page).last();
    const member = turn.getByRole('region', { name: /^(Ada|Ben)-tern's answer$/ });
    await expect(member).toContainText('answering…');
    await expect(page).toHaveURL(/\?c=[\w-]+/);
    const url = page.url();

    await server.down();
    await expect(turn).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
    await expect(member).not.toContainText('answering…');
    await expect(member).toContainText('interrupted');

    await server.up();
    await openChat(page, url, EN);
    const reloaded = assistantTurns(page).last();
    await expect(reloaded.getByText(EN.notice)).toBeVisible();
    const section = reloaded.getByRole('region', { name: /^(Ada|Ben)-tern's answer$/ });
    await expect(section).toHaveCount(1);
    await expect(section).not.toContainText('answering…');
    await expect(section).toContainText('interrupted');
  } finally {
    await server.down();
  }
});
