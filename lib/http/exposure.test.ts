import { describe, expect, it } from 'vitest';
import { exposureProblem, hostNameOf, isLoopbackAddress, isLoopbackName } from '../config/exposure.mjs';
import { listenHostFromArgv, startupProblem } from './startup';

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

describe('exposureProblem and the server start', () => {
  it('allows loopback without a token, anything with one, and refuses the rest', () => {
    const base = { accessToken: undefined, publicUrl: undefined };
    expect(exposureProblem({ ...base, listenHost: '127.0.0.1' })).toBeNull();
    expect(exposureProblem({ ...base, listenHost: 'localhost', publicUrl: 'http://localhost:3000' })).toBeNull();
    expect(exposureProblem({ ...base, listenHost: '0.0.0.0' })).toMatch(/listening on 0\.0\.0\.0/);
    expect(exposureProblem({ ...base, listenHost: undefined })).toMatch(/listening on every interface/);
    expect(exposureProblem({ ...base, listenHost: '127.0.0.1', allowedHosts: ['a.lan'] })).toMatch(
      /ALLOWED_HOSTS=a\.lan/,
    );
    expect(exposureProblem({ listenHost: '0.0.0.0', accessToken: 'x'.repeat(16), publicUrl: undefined })).toBeNull();
    expect(exposureProblem({ listenHost: '0.0.0.0', accessToken: 'short', publicUrl: undefined })).toMatch(
      /at least 16/,
    );
  });

  it('reads -H / --hostname of `next start`, and judges only `next start`', () => {
    expect(listenHostFromArgv(['node', 'next', 'start', '-p', '3000', '-H', '0.0.0.0'])).toBe('0.0.0.0');
    expect(listenHostFromArgv(['node', 'next', 'start', '--hostname=::1'])).toBe('::1');
    expect(listenHostFromArgv(['node', 'next', 'start'])).toBeUndefined();
    expect(startupProblem(['node', 'next', 'start', '-H', '0.0.0.0'], {})).toMatch(/without ACCESS_TOKEN/);
    expect(startupProblem(['node', 'next', 'start', '-H', '127.0.0.1'], {})).toBeUndefined();
    expect(startupProblem(['node', 'next', 'start'], {})).toMatch(/every interface/);
    expect(startupProblem(['node', 'next', 'dev'], {})).toBeUndefined();
  });
});
