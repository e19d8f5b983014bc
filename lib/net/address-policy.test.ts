import { describe, expect, it } from 'vitest';
import { assertAddressAllowed, blockedAddressReason } from './address-policy';

describe('blockedAddressReason', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fec0::1', 'site-local'],
    ['fd00:ec2::254', 'unique-local (includes fd00:ec2::254 metadata)'],
    ['::ffff:127.0.0.1', 'loopback (IPv4 inside IPv6)'],
    ['::ffff:7f00:1', 'loopback (IPv4 inside IPv6)'],
    ['::ffff:a9fe:a9fe', 'link-local (cloud metadata) (IPv4 inside IPv6)'],
    ['64:ff9b::10.0.0.1', 'private (IPv4 inside IPv6)'],
    ['2002:7f00:1::', 'loopback (IPv4 inside IPv6)'],
    // The same addresses spelt out in full, with a dotted tail: the kernel connects 0:0:0:0:0:ffff:127.0.0.1 to
    // loopback (URLs and DNS answers come compressed, but the policy must not depend on who spelt the address).
    ['0:0:0:0:0:ffff:127.0.0.1', 'loopback (IPv4 inside IPv6)'],
    ['0:0:0:0:0:FFFF:169.254.169.254', 'link-local (cloud metadata) (IPv4 inside IPv6)'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::ffff:0:127.0.0.1', 'loopback (IPv4 inside IPv6)'],
    ['::ffff:0:10.0.0.1', 'private (IPv4 inside IPv6)'],
  ])('refuses %s (%s)', (ip, reason) => {
    expect(blockedAddressReason(ip)).toBe(reason);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'lets the public address %s through',
    (ip) => {
      expect(blockedAddressReason(ip)).toBeUndefined();
    },
  );
});

describe('assertAddressAllowed', () => {
  const strict = { allowPrivate: false, allowHosts: [] };
  it('names the host, the address and how to allow it', () => {
    expect(() => assertAddressAllowed('intranet.local', '10.1.2.3', strict)).toThrow(
      /Refused to fetch intranet\.local \(10\.1\.2\.3\): private address.*WEB_FETCH_ALLOW_PRIVATE=1/,
    );
  });
  it('allows listed hosts or addresses, or everything when configured', () => {
    expect(() =>
      assertAddressAllowed('intranet.local', '10.1.2.3', { ...strict, allowHosts: ['intranet.local'] }),
    ).not.toThrow();
    expect(() => assertAddressAllowed('x', '10.1.2.3', { ...strict, allowHosts: ['10.1.2.3'] })).not.toThrow();
    expect(() => assertAddressAllowed('x', '127.0.0.1', { allowPrivate: true, allowHosts: [] })).not.toThrow();
  });
});

describe('every spelling of a non-public address, as a base URL is written', () => {
  const strict = { allowPrivate: false, allowHosts: [], hideAddress: true };
  // What a user may type into a base URL: the URL parser turns each into the address it means, and the policy
  // refuses that address. Names are resolved at connect time (guarded-fetch.test.ts).
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.1', 'loopback'],
    ['127.0.1', 'loopback'],
    ['2130706433', 'loopback'],
    ['0x7f000001', 'loopback'],
    ['0x7f.1', 'loopback'],
    ['0177.0.0.1', 'loopback'],
    ['017700000001', 'loopback'],
    ['127.000.000.001', 'loopback'],
    ['①②⑦.0.0.1', 'loopback'],
    ['127。0。0。1', 'loopback'],
    ['[::1]', 'loopback'],
    ['[0:0:0:0:0:0:0:1]', 'loopback'],
    ['[::ffff:127.0.0.1]', 'loopback (IPv4 inside IPv6)'],
    ['[::ffff:7f00:1]', 'loopback (IPv4 inside IPv6)'],
    ['[::127.0.0.1]', 'loopback (IPv4 inside IPv6)'],
    ['[64:ff9b::127.0.0.1]', 'loopback (IPv4 inside IPv6)'],
    ['0', 'unspecified'],
    ['0.0.0.0', 'unspecified'],
    ['[::]', 'unspecified'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['[::ffff:169.254.169.254]', 'link-local (cloud metadata) (IPv4 inside IPv6)'],
    ['[fd00:ec2::254]', 'unique-local (includes fd00:ec2::254 metadata)'],
    ['10.0.0.1', 'private'],
    ['0xa000001', 'private'],
    ['192.168.0.1', 'private'],
    ['[fe80::1]', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['[64:ff9b:1::a00:1]', 'local NAT64'],
  ])('http://%s:11434/v1 is refused (%s)', (spelling, reason) => {
    const host = new URL(`http://${spelling}:11434/v1`).hostname.replace(/^\[|\]$/g, '');
    expect(blockedAddressReason(host)).toBe(reason);
    expect(() => assertAddressAllowed(host, host, strict)).toThrow(/^Refused to fetch /);
  });

  it('a refusal of a name leaves out the address it resolved to when asked to (internal DNS stays internal)', () => {
    expect(() => assertAddressAllowed('intranet.corp', '10.1.2.3', strict)).toThrow(
      /^Refused to fetch intranet\.corp: private address\./,
    );
    expect(() => assertAddressAllowed('intranet.corp', '10.1.2.3', strict)).not.toThrow(/10\.1\.2\.3/);
  });
});
