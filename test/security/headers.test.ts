// The page's Content-Security-Policy (a nonce on every script, nothing may frame it) and the headers every answer
// carries, on the built app.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startApp, type App } from './support/app';

let app: App;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app?.stop());

describe('headers', () => {
  it('the page: a CSP with a fresh nonce, and every script tag carries it', async () => {
    const [a, b] = [await request(app.url, '/'), await request(app.url, '/')];
    const csp = a.headers['content-security-policy'] as string;
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(b.headers['content-security-policy']).not.toContain(nonce);
    expect(csp).toContain(`script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('unsafe-eval');
    const scripts = a.text.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(3);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  });

  it('nosniff, Referrer-Policy and X-Frame-Options on pages, route handlers and static files', async () => {
    const page = await request(app.url, '/');
    const asset = /<script[^>]+src="([^"]+)"/.exec(page.text)![1]!;
    for (const res of [page, await request(app.url, '/api/health'), await request(app.url, asset)]) {
      expect(res.status).toBe(200);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('same-origin');
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
    const api = await request(app.url, '/api/health');
    expect(api.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'; sandbox");
  });
});
