// Revoking cannot be undone, so it is asked first (a server of its own with AUTH=required): an API key on API keys,
// an invite on Admin. Cancel (or Escape) keeps it working and puts the focus back on its Revoke; confirmed, it stops
// working and the focus goes to the list's heading. From the keyboard, on a 390 px phone, in English and Chinese.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { accountsServer } from './support/accounts-server';
import { hydrated } from './support/hydrated';

const ADMIN = { email: 'revoke-admin@example.com', password: 'correct horse battery' };
const PHONE = { width: 390, height: 844 };

const server = accountsServer('revoke-confirm', ADMIN);

async function signIn(browser: Browser, locale: string): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: server.base, locale, viewport: PHONE })).newPage();
  await page.goto('/sign-in');
  await hydrated(page.locator('input[name="email"]'));
  await page.locator('input[name="email"]').fill(ADMIN.email);
  await page.locator('input[name="password"]').fill(ADMIN.password);
  await page.locator('input[name="password"]').press('Enter');
  await expect(page).toHaveURL(`${server.base}/`);
  return page;
}

/** The dialog is drawn whole on the phone's screen. */
async function onScreen(page: Page, dialog: ReturnType<Page['getByRole']>) {
  const box = (await dialog.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
  expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height);
}

const keyWorks = (secret: string) =>
  fetch(`${server.base}/v1/models`, { headers: { authorization: `Bearer ${secret}` } }).then((r) => r.status);

const TEXT = {
  'en-US': {
    keyName: 'Key name',
    create: 'Create key',
    revokeKey: (name: string) => `Revoke the key ${name}`,
    keyQuestion: (name: string) => `Revoke the key ${name}?`,
    keep: 'Cancel',
    revoke: 'Revoke',
    revoked: 'revoked',
    keysHeading: 'API keys',
    createInvite: 'Create invite link',
    inviteQuestion: /^Revoke the invite created .+\?$/,
    revokeInvite: /^Revoke the invite created [^?]+$/,
    invitesHeading: 'Invites',
    noInvites: 'No open invites.',
  },
  'zh-CN': {
    keyName: '密钥名称',
    create: '创建密钥',
    revokeKey: (name: string) => `撤销密钥 ${name}`,
    keyQuestion: (name: string) => `撤销密钥 ${name}？`,
    keep: '取消',
    revoke: '撤销',
    revoked: '已撤销',
    keysHeading: 'API 密钥',
    createInvite: '创建邀请链接',
    inviteQuestion: /^撤销创建于 .+ 的邀请？$/,
    revokeInvite: /^撤销创建于 .+ 的邀请$/,
    invitesHeading: '邀请',
    noInvites: '没有未使用的邀请。',
  },
};

for (const locale of ['en-US', 'zh-CN'] as const) {
  const t = TEXT[locale];

  test(`an API key's Revoke asks first: kept on Escape or Cancel, revoked once confirmed (${locale}, 390 px, keyboard)`, async ({
    browser,
  }) => {
    const page = await signIn(browser, locale);
    await page.goto('/account');
    const name = `deploy ${locale}`;
    await expect(page.getByRole('button', { name: t.create, exact: true })).toBeEnabled();
    await page.getByRole('textbox', { name: t.keyName }).fill(name);
    await page.getByRole('textbox', { name: t.keyName }).press('Enter');
    const secret = (await page.getByTestId('new-api-key').textContent())!.trim();
    expect(await keyWorks(secret)).toBe(200);

    const revoke = page.getByRole('button', { name: t.revokeKey(name), exact: true });
    const dialog = page.getByRole('dialog', { name: t.keyQuestion(name) });
    const row = page.getByRole('row').filter({ hasText: name });

    // Escape: nothing revoked, the focus back on the row's Revoke.
    await revoke.focus();
    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: t.keep, exact: true })).toBeFocused();
    await onScreen(page, dialog);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(revoke).toBeFocused();
    // Keep (Enter on the button the focus starts on): the same.
    await page.keyboard.press('Enter');
    await expect(dialog.getByRole('button', { name: t.keep, exact: true })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(revoke).toBeFocused();
    await expect(row).not.toContainText(t.revoked);
    expect(await keyWorks(secret)).toBe(200);

    // Confirmed from the keyboard: revoked, the key refused, the focus on the list's heading.
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await expect(dialog.getByRole('button', { name: t.revoke, exact: true })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(row).toContainText(t.revoked);
    await expect(page.getByRole('heading', { name: t.keysHeading, exact: true })).toBeFocused();
    expect(await keyWorks(secret)).toBe(401);
    await page.context().close();
  });

  test(`an invite's Revoke asks first: kept on Escape or Cancel, gone once confirmed (${locale}, 390 px, keyboard)`, async ({
    browser,
  }) => {
    const page = await signIn(browser, locale);
    await page.goto('/admin');
    const invites = page.locator('section[aria-labelledby="admin-invites"]');
    const create = page.getByRole('button', { name: t.createInvite, exact: true });
    await expect(create).toBeEnabled();
    await create.click();
    const link = (await page.getByTestId('invite-link').textContent())!;
    // Each invite's Revoke says which invite it revokes (a screen reader hears the button, not the row).
    const revoke = invites.getByRole('button', { name: t.revokeInvite });
    await expect(revoke).toHaveCount(1);
    const dialog = page.getByRole('dialog', { name: t.inviteQuestion });

    await revoke.focus();
    await page.keyboard.press('Enter');
    await expect(dialog.getByRole('button', { name: t.keep, exact: true })).toBeFocused();
    await onScreen(page, dialog);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(revoke).toBeFocused();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(revoke).toBeFocused();
    await expect(page.getByTestId('invite-link')).toBeVisible();

    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await expect(dialog.getByRole('button', { name: t.revoke, exact: true })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(invites.getByText(t.noInvites)).toBeVisible();
    await expect(page.getByRole('heading', { name: t.invitesHeading, exact: true })).toBeFocused();

    // The link no longer makes an account.
    const visitor = await (await browser.newContext({ locale: 'en-US' })).newPage();
    await visitor.goto(link);
    await expect(visitor.getByRole('main').getByRole('alert')).toBeVisible();
    await expect(visitor.getByRole('button', { name: 'Create account' })).toHaveCount(0);
    await visitor.context().close();
    await page.context().close();
  });
}
