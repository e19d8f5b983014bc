import { describe, expect, it } from 'vitest';
import { safeNextPath, signInPath, withNextPath } from './next-path';

const HERE = 'https://app.example';

describe('safeNextPath', () => {
  it('keeps a path on this app with its query and fragment', () => {
    expect(safeNextPath('/runs?q=secret')).toBe('/runs?q=secret');
    expect(safeNextPath('/?c=abc')).toBe('/?c=abc');
    expect(safeNextPath('/account#keys')).toBe('/account#keys');
    // Encoded slashes stay encoded: a browser reads them as one path segment here.
    expect(safeNextPath('/%2F%2Fevil.example')).toBe('/%2F%2Fevil.example');
  });

  it('turns anything a browser would follow off this app into "/"', () => {
    for (const raw of [
      undefined,
      null,
      '',
      'runs',
      '//evil.example',
      '//evil.example/x',
      '/\\evil.example',
      '\\\\evil.example',
      'https://evil.example/',
      'HTTPS://evil.example',
      'javascript:alert(1)',
      '%2F%2Fevil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      '/\\\t\\evil.example',
      // Dot segments resolve to "//evil.example", a link to another site.
      '/..//evil.example',
      '/.//evil.example',
      '/%2e%2e//evil.example',
      '/a/..//evil.example',
      '/./\\evil.example',
    ]) {
      const path = safeNextPath(raw);
      expect(new URL(path, HERE).origin, JSON.stringify(raw)).toBe(HERE);
      expect(path, JSON.stringify(raw)).toBe('/');
    }
  });
});

describe('signInPath', () => {
  it('carries the page asked for, and nothing for the start page or an unsafe one', () => {
    expect(signInPath('/runs?q=secret')).toBe('/sign-in?next=%2Fruns%3Fq%3Dsecret');
    expect(signInPath('/?c=abc')).toBe('/sign-in?next=%2F%3Fc%3Dabc');
    expect(signInPath('/')).toBe('/sign-in');
    expect(signInPath(undefined)).toBe('/sign-in');
    expect(signInPath('//evil.example')).toBe('/sign-in');
  });
});

describe('withNextPath', () => {
  it('carries the page asked for to sign-up too, beside the query it has (an invite)', () => {
    expect(withNextPath('/sign-up', '/runs?q=secret')).toBe('/sign-up?next=%2Fruns%3Fq%3Dsecret');
    expect(withNextPath('/sign-up?invite=abc', '/account')).toBe('/sign-up?invite=abc&next=%2Faccount');
    expect(withNextPath('/sign-up', '/')).toBe('/sign-up');
    expect(withNextPath('/sign-up', '/..//evil.example')).toBe('/sign-up');
  });
});
