import { expect, test } from '@playwright/test';
import { openChat, send, lastAnswer } from './support/chat';
import { setScenario } from './support/model';

const KEY = 'sk-e2e-secret-never-shown';

test('the page shows the connected model and the builtin tools, never the API key', async ({ page, request }) => {
  await setScenario({
    rules: [{ when: { lastUserIncludes: 'keycheck' }, reply: { content: 'Nothing secret here.' } }],
  });
  await openChat(page);
  await expect(page.getByRole('combobox', { name: 'Model', exact: true })).toContainText('scripted-e2e');
  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('region', { name: 'Settings' });
  for (const name of ['calculator', 'current_time', 'storage'])
    await expect(settings.getByText(name, { exact: true })).toBeVisible();
  expect(await page.content()).not.toContain(KEY);

  // Nor after a run, nor in the raw HTML the server sends.
  await send(page, 'keycheck please');
  await expect(await lastAnswer(page)).toContainText('Nothing secret here.');
  expect(await page.content()).not.toContain(KEY);
  expect(await (await request.get('/')).text()).not.toContain(KEY);
});

test('GET /api/health answers with the model status', async ({ request }) => {
  const res = await request.get('/api/health');
  expect(res.status()).toBe(200);
  expect(await res.json()).toEqual({
    ok: true,
    model: { configured: true, name: 'scripted-e2e' },
    telemetry: { enabled: false },
  });
});
