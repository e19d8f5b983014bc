import { expect, test } from '@playwright/test';

test('the home page shows the connected model and the builtin tools, never the key', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Agent Studio' })).toBeVisible();
  const model = page.getByRole('region', { name: 'Model' });
  await expect(model).toContainText('scripted-e2e');
  await expect(model).toContainText('native');
  const tools = page.getByRole('region', { name: 'Tools' });
  for (const name of ['calculator', 'current_time', 'storage'])
    await expect(tools.getByText(name, { exact: true })).toBeVisible();
  expect(await page.content()).not.toContain('sk-e2e-secret-never-shown');
});

test('GET /api/health answers with the model status', async ({ request }) => {
  const res = await request.get('/api/health');
  expect(res.status()).toBe(200);
  expect(await res.json()).toEqual({ ok: true, model: { configured: true, name: 'scripted-e2e' } });
});
