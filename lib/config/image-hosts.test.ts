import { describe, expect, it } from 'vitest';
import { pageCsp } from '../http/headers';
import { loadConfig } from './index';
import { imageHostAllowed, parseImageHosts } from './image-hosts';

describe('IMAGE_HOSTS', () => {
  it('takes host names, subdomain wildcards and ports, comma- or space-separated, lowercased and once each', () => {
    expect(
      parseImageHosts('Images.Example.com, *.cdn.example.org  upload.wikimedia.org:8443,images.example.com'),
    ).toEqual(['images.example.com', '*.cdn.example.org', 'upload.wikimedia.org:8443']);
    expect(parseImageHosts(undefined)).toEqual([]);
  });

  it('refuses anything but a host, so nothing else can reach the CSP header', () => {
    for (const bad of [
      '*',
      'https://images.example.com',
      'x.com;',
      "'unsafe-inline'",
      'a.com/path',
      '*.*.com',
      'data:',
    ])
      expect(() => parseImageHosts(bad)).toThrow(/IMAGE_HOSTS lists host names/);
    expect(() => loadConfig({ IMAGE_HOSTS: 'ok.example.com; script-src *' })).toThrow(/IMAGE_HOSTS/);
  });

  it('matches as a CSP host source does: *.x is any subdomain of x, no port means the default port', () => {
    const hosts = ['images.example.com', '*.cdn.example.org', 'pics.example.net:8443'];
    const allowed = (u: string) => imageHostAllowed(new URL(u), hosts);
    expect(allowed('https://images.example.com/a.png')).toBe(true);
    expect(allowed('http://IMAGES.example.com/a.png')).toBe(true);
    expect(allowed('https://a.b.cdn.example.org/x.png')).toBe(true);
    expect(allowed('https://cdn.example.org/x.png')).toBe(false);
    expect(allowed('https://evilcdn.example.org/x.png')).toBe(false);
    expect(allowed('https://images.example.com.evil.net/a.png')).toBe(false);
    expect(allowed('https://images.example.com:8080/a.png')).toBe(false);
    expect(allowed('https://pics.example.net:8443/a.png')).toBe(true);
    expect(allowed('https://pics.example.net/a.png')).toBe(false);
  });

  it("is the page CSP's img-src, after the app itself, data: and blob:", () => {
    expect(pageCsp('n', false)).toContain("img-src 'self' data: blob:;");
    const csp = pageCsp(
      'n',
      false,
      loadConfig({ IMAGE_HOSTS: 'images.example.com *.cdn.example.org' }).http.imageHosts,
    );
    expect(csp).toContain("img-src 'self' data: blob: images.example.com *.cdn.example.org;");
  });
});
