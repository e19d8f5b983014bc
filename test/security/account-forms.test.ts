// The account forms posted as plain HTML forms (before the page's scripts run, or without them), against the built
// app with AUTH=required: a form post goes through the same checks as the JSON the page sends (the Origin check, the
// sign-up mode, the sign-in limits), answers with a redirect (into the app with the session cookie, or back to the
// form with the reason's code), never follows a `next` off the app, and a form from another site is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startApp, type Answer, type App } from './support/app';
import { PASSWORD } from './support/accounts';

let app: App;

beforeAll(async () => {
  app = await startApp({ env: { AUTH: 'required' } });
}, 90_000);
afterAll(() => app?.stop());

function formPost(route: string, fields: Record<string, string>, origin = app.url) {
  return request(app.url, `/api/auth/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
    body: new URLSearchParams(fields).toString(),
  });
}

const cookieOf = (answer: Answer) =>
  ([] as string[]).concat(answer.headers['set-cookie'] ?? []).find((c) => c.includes('session_token='));

describe('account forms posted without the page’s scripts', () => {
  it('a form from another site is refused before anything is made', async () => {
    const answer = await formPost(
      'sign-up/email',
      { email: 'evil@example.com', password: PASSWORD },
      'http://evil.test',
    );
    expect(answer.status).toBe(403);
    expect(cookieOf(answer)).toBeUndefined();
  });

  it('Create account: the first account is made and signed in; the same address again comes back with its code', async () => {
    const made = await formPost('sign-up/email', { email: 'form-admin@example.com', password: PASSWORD, name: '' });
    expect(made.status).toBe(303);
    expect(made.headers.location).toBe('/');
    expect(cookieOf(made)).toBeDefined();

    // After the first account sign-up is by invite: refused, back to the form saying why, no session.
    const again = await formPost('sign-up/email', { email: 'second@example.com', password: PASSWORD, invite: 'nope' });
    expect(again.status).toBe(303);
    expect(again.headers.location).toMatch(/^\/sign-up\?invite=nope&error=invite-invalid$/);
    expect(cookieOf(again)).toBeUndefined();
  });

  it('Sign in: the right password goes to `next` on the app, never off it; a wrong one comes back with its code', async () => {
    const wrong = await formPost('sign-in/email', {
      email: 'form-admin@example.com',
      password: 'not it',
      next: '/runs',
    });
    expect(wrong.status).toBe(303);
    expect(wrong.headers.location).toBe('/sign-in?next=%2Fruns&error=wrong-credentials');
    expect(cookieOf(wrong)).toBeUndefined();

    const right = await formPost('sign-in/email', {
      email: 'form-admin@example.com',
      password: PASSWORD,
      next: '/runs',
    });
    expect(right.status).toBe(303);
    expect(right.headers.location).toBe('/runs');
    expect(cookieOf(right)).toBeDefined();

    const away = await formPost('sign-in/email', {
      email: 'form-admin@example.com',
      password: PASSWORD,
      next: '//evil.test/x',
    });
    expect(away.headers.location).toBe('/');
  });

  it('a `next` that a browser reads as another site (a tab or a backslash inside "//") goes to the app, by form and on the page', async () => {
    for (const next of ['/\t/evil.test/x', '/\t\\evil.test/x', '/\n/evil.test/x', '/\\\t\\evil.test/x']) {
      const answer = await formPost('sign-in/email', { email: 'form-admin@example.com', password: PASSWORD, next });
      expect(answer.status).toBe(303);
      // Where the browser goes: the Location read as a browser reads it.
      expect(new URL(answer.headers.location as string, app.url).origin).toBe(app.url);
      // The sign-in page puts `next` into its form and its script (window.location.assign after signing in).
      const page = await request(app.url, `/sign-in?next=${encodeURIComponent(next)}`, {
        headers: { 'sec-fetch-mode': 'navigate', accept: 'text/html' },
      });
      expect(page.status).toBe(200);
      const values = [...page.text.matchAll(/name="next" value="([^"]*)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));
      expect(values.length).toBeGreaterThan(0);
      for (const value of values) expect(new URL(value, app.url).origin).toBe(app.url);
    }
  });
});
