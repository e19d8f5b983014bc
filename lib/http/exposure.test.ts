import { describe, expect, it } from 'vitest';
import { exposureDecision, hostNameOf, isLoopbackAddress, isLoopbackName } from '../config/exposure.mjs';
import { listenHostFromArgv, startupDecision } from './startup';

describe('loopback names and addresses', () => {
  it('knows loopback from the rest', () => {
    for (const n of ['localhost', 'LOCALHOST.', '127.0.0.1', '127.1.2.3', '::1', '[::1]'])
      expect(isLoopbackName(n), n).toBe(true);
    for (const n of ['0.0.0.0', '::', '192.168.1.5', 'localhost.evil.example', 'example.com', '128.0.0.1'])
      expect(isLoopbackName(n), n).toBe(false);
    expect(isLoopbackAddress('::ffff:127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('::ffff:192.0.2.1')).toBe(false);
  });

  it('reads the name out of a Host header', () => {
    expect(hostNameOf('Example.COM:3000')).toBe('example.com');
    expect(hostNameOf('[::1]:3000')).toBe('::1');
    expect(hostNameOf('::1')).toBe('::1');
    expect(hostNameOf('localhost')).toBe('localhost');
  });
});

describe('exposureDecision and the server start', () => {
  const base = { accessToken: undefined, auth: undefined, publicUrl: undefined };

  it('serves loopback as one user; beyond it, a token keeps one user and without one accounts are on', () => {
    expect(exposureDecision({ ...base, listenHost: '127.0.0.1' })).toEqual({
      problem: null,
      accounts: false,
      notice: null,
    });
    expect(exposureDecision({ ...base, listenHost: 'localhost', publicUrl: 'http://localhost:3000' }).accounts).toBe(
      false,
    );
    const lan = exposureDecision({ ...base, listenHost: '0.0.0.0' });
    expect(lan).toMatchObject({ problem: null, accounts: true });
    expect(lan.notice).toMatch(
      /listening on 0\.0\.0\.0.*accounts are required.*first account created becomes the admin/s,
    );
    expect(exposureDecision({ ...base, listenHost: undefined }).notice).toMatch(/listening on every interface/);
    expect(exposureDecision({ ...base, listenHost: '127.0.0.1', allowedHosts: ['a.lan'] }).notice).toMatch(
      /ALLOWED_HOSTS=a\.lan/,
    );
    expect(exposureDecision({ ...base, listenHost: '0.0.0.0', accessToken: 'x'.repeat(16) })).toEqual({
      problem: null,
      accounts: false,
      notice: null,
    });
    expect(exposureDecision({ ...base, listenHost: '127.0.0.1', auth: 'required' })).toMatchObject({ accounts: true });
  });

  it('refuses what cannot work: a short token, a token with AUTH=required, another AUTH', () => {
    expect(exposureDecision({ ...base, listenHost: '0.0.0.0', accessToken: 'short' }).problem).toMatch(/at least 16/);
    expect(
      exposureDecision({ ...base, listenHost: '127.0.0.1', accessToken: 'x'.repeat(16), auth: 'required' }).problem,
    ).toMatch(/not both/);
    expect(exposureDecision({ ...base, listenHost: '127.0.0.1', auth: 'yes' }).problem).toMatch(/AUTH must be/);
  });

  it('reads -H / --hostname of `next start`, and judges only `next start`', () => {
    expect(listenHostFromArgv(['node', 'next', 'start', '-p', '3000', '-H', '0.0.0.0'])).toBe('0.0.0.0');
    expect(listenHostFromArgv(['node', 'next', 'start', '--hostname=::1'])).toBe('::1');
    expect(listenHostFromArgv(['node', 'next', 'start'])).toBeUndefined();
    expect(startupDecision(['node', 'next', 'start', '-H', '0.0.0.0'], {})).toMatchObject({
      accounts: true,
      notice: expect.stringMatching(/without ACCESS_TOKEN/),
    });
    expect(startupDecision(['node', 'next', 'start', '-H', '127.0.0.1'], {})).toEqual({ accounts: false });
    expect(startupDecision(['node', 'next', 'start'], {}).notice).toMatch(/every interface/);
    expect(startupDecision(['node', 'next', 'start', '-H', '0.0.0.0'], { ACCESS_TOKEN: 'x'.repeat(20) })).toEqual({
      accounts: false,
    });
    expect(startupDecision(['node', 'next', 'start'], { ACCESS_TOKEN: 'short' }).problem).toMatch(/at least 16/);
    expect(startupDecision(['node', 'next', 'start'], { AUTH_SECRET: 'short' }).problem).toMatch(/AUTH_SECRET/);
    expect(startupDecision(['node', 'next', 'dev'], {})).toEqual({ accounts: false });
  });
});
