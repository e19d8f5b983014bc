// Importing agent files one after another: a file larger than a server action carries is refused in the browser,
// saying the limit, without sending it; an import whose server action fails ends with an error (never "Importing…"
// for good); and each message names the file it is about, a new import taking over from the last one's.
import { expect, test, type Page } from '@playwright/test';
import { openChat } from './support/chat';
import { agentFile } from './support/agent-file';
import { outsideScreen } from './support/viewport';

/** The server action requests carrying one of these test's files the page sends from now on (other actions, the
 *  model list's, go on meanwhile). */
function importsSent(page: Page): number[] {
  const sent: number[] = [];
  page.on('request', (r) => {
    const body = r.method() === 'POST' && r.headers()['next-action'] ? (r.postData() ?? '') : '';
    if (body.includes('Flamingo')) sent.push(body.length);
  });
  return sent;
}

test('imports one after another: too large refused in the page, a failed send ends in an error, each message names its file', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openChat(page);
  await page.getByRole('button', { name: 'Menu' }).click();
  const menu = page.locator('aside');
  const input = menu.getByLabel('Import agent', { exact: true });
  const status = menu.getByRole('status').filter({ hasText: /Import/ });
  const alert = menu.getByRole('alert');

  // 3 MB of system message: refused before anything is sent, with the limit, in a box that fits the phone.
  const sent = importsSent(page);
  await input.setInputFiles(
    agentFile('flamingo-big.json', { name: 'Flamingo big', avatar: '🦩', systemMessage: 'x'.repeat(3_000_000) }),
  );
  await expect(alert).toHaveText('Import of flamingo-big.json failed: This file is too large to import: at most 1 MB.');
  expect(await outsideScreen(page, { width: 390, height: 844 }, alert)).toEqual([]);
  expect(sent).toEqual([]);

  // Under the limit as a file (600 KB) but over it as the action's body (each \" is sent as \\\"): refused the same way.
  await input.setInputFiles(
    agentFile('flamingo-quotes.json', { name: 'Flamingo quotes', avatar: '🦩', systemMessage: '"'.repeat(300_000) }),
  );
  await expect(alert).toHaveText(
    'Import of flamingo-quotes.json failed: This file is too large to import: at most 1 MB.',
  );
  expect(sent).toEqual([]);

  // Should a body over the limit reach the server anyway (here the import's request padded on its way), Next answers
  // it with an error, not the action's result: the import ends, said so, not left "Importing…".
  await page.route(
    () => true,
    (route) => {
      const body = route.request().postData() ?? '';
      return route.request().headers()['next-action'] && body.includes('Flamingo lost')
        ? route.continue({ postData: body + ' '.repeat(1_100_000) })
        : route.fallback();
    },
  );
  await input.setInputFiles(agentFile('flamingo-lost.json', { name: 'Flamingo lost', avatar: '🦩' }));
  await expect(alert).toHaveText(
    'Import of flamingo-lost.json failed: The server did not take this file, so nothing was saved (an import is at most 1 MB).',
  );
  await expect(status).toHaveCount(0);
  await page.unrouteAll();

  // The next file's messages are its own: the last one's error goes as it starts, its success names it.
  await input.setInputFiles(agentFile('flamingo-ok.json', { name: 'Flamingo ok', avatar: '🦩' }));
  await expect(status).toHaveText('Imported “Flamingo ok” from flamingo-ok.json.');
  await expect(alert).toHaveCount(0);
  await input.setInputFiles({ name: 'flamingo-broken.json', mimeType: 'application/json', buffer: Buffer.from('{') });
  await expect(alert).toHaveText(/^Import of flamingo-broken\.json failed: This file is not JSON/);
  await expect(status).toHaveCount(0);
  await expect(menu.getByRole('button', { name: /^Chat with Flamingo/ })).toHaveCount(1);

  await menu.getByRole('button', { name: 'Delete Flamingo ok' }).click();
  await page
    .getByRole('dialog', { name: /^Delete the agent/ })
    .getByRole('button', { name: 'Delete', exact: true })
    .click();
  await expect(menu.getByRole('button', { name: 'Chat with Flamingo ok' })).toBeHidden();
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('a file too large to import is refused in Chinese, with the limit', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('button', { name: /^切换到(深色|浅色)主题$/ })).toBeVisible(); // hydrated
    await page
      .getByLabel('导入智能体', { exact: true })
      .setInputFiles(agentFile('big.json', { name: '大火烈鸟', avatar: '🦩', systemMessage: 'x'.repeat(1_100_000) }));
    await expect(page.getByRole('alert').filter({ hasText: '导入' })).toHaveText(
      '导入 big.json 失败：此文件太大，无法导入：最多 1 MB。',
    );
  });
});
