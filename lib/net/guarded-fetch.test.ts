// The fetch of model and MCP connections against a canary HTTP server on loopback that counts what reaches it: every
// spelling of loopback is refused before a byte is sent, the check is on the address a name resolves to when the
// socket opens (a rebinding name is refused however it resolved before), redirects are checked the same way, and an
// allowed host gets its request on the address that was checked.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { blockedAddressIn } from './address-policy';
import { guardedFetch } from './guarded-fetch';
import { resolveChecked } from './resolve-checked';

let canary: http.Server;
let port: number;
const seen: { url: string; host?: string; authorization?: string }[] = [];

beforeAll(async () => {
  canary = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', host: req.headers.host, authorization: req.headers.authorization });
    if (req.url === '/redirect') return res.writeHead(302, { location: `http://127.0.0.1:${port}/v1/models` }).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[{"id":"canary-secret"}]}');
  });
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
  port = (canary.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => canary.close(() => resolve())));
beforeEach(() => void seen.splice(0));

const strict = { allowPrivate: false, allowHosts: [] as string[], hideAddress: true };

async function refusal(fetch: typeof globalThis.fetch, url: string): Promise<Error> {
  const e = await fetch(url, { headers: { authorization: 'Bearer sk-stolen' } }).then(
    () => undefined,
    (err: unknown) => err,
  );
  const blocked = blockedAddressIn(e);
  if (!blocked) throw new Error(`${url} was not refused by the address policy: ${String(e)}`);
  return blocked;
}

describe('guardedFetch', () => {
  it.each(['127.0.0.1', 'localhost', '127.1', '2130706433', '0x7f000001', '0177.0.0.1', '[::ffff:127.0.0.1]'])(
    'refuses http://%s before anything is sent',
    async (host) => {
      const blocked = await refusal(guardedFetch(strict), `http://${host}:${port}/v1/models`);
      expect(blocked.message).toMatch(/loopback/);
      expect(seen).toEqual([]);
    },
  );

  it('refuses [::1] (the canary is not there, but nothing is even tried)', async () => {
    await refusal(guardedFetch(strict), `http://[::1]:${port}/v1/models`);
    expect(seen).toEqual([]);
  });

  it('checks the address a name resolves to when the socket opens: a rebinding name is refused', async () => {
    let lookups = 0;
    const rebinding = async () => [{ address: lookups++ === 0 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
    // The check before the request (the model service's, on save) is given a public address...
    await expect(resolveChecked('rebind.test', { ...strict, resolve: rebinding })).resolves.toMatchObject({
      address: '93.184.216.34',
    });
    // ...and the request, resolving where its socket opens, gets loopback: refused there.
    const fetch = guardedFetch({ ...strict, resolve: rebinding });
    const blocked = await refusal(fetch, `http://rebind.test:${port}/v1/models`);
    expect(blocked.message).toBe(
      'Refused to fetch rebind.test: loopback address. Server-side fetches reach only public addresses unless WEB_FETCH_ALLOW_PRIVATE=1 or WEB_FETCH_ALLOW_HOSTS lists the host.',
    );
    expect(seen).toEqual([]);
    // One public and one private answer: refused as well.
    const mixed = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ];
    await refusal(guardedFetch({ ...strict, resolve: mixed }), `http://mixed.test:${port}/v1/models`);
    expect(seen).toEqual([]);
  });

  it('checks each redirect hop the same way', async () => {
    const resolve = async () => [{ address: '127.0.0.1', family: 4 }];
    // Allowed by name, the first hop reaches the canary; its redirect to 127.0.0.1 is refused.
    const fetch = guardedFetch({ ...strict, allowHosts: ['model.test'], resolve });
    await refusal(fetch, `http://model.test:${port}/redirect`);
    expect(seen.map((s) => s.url)).toEqual(['/redirect']);
  });

  it('connects an allowed host to the address checked, with the Host the URL names', async () => {
    const resolve = async () => [{ address: '127.0.0.1', family: 4 }];
    const fetch = guardedFetch({ ...strict, allowHosts: ['model.test'], resolve });
    const res = await fetch(`http://model.test:${port}/v1/models`, { headers: { authorization: 'Bearer sk-mine' } });
    expect(await res.json()).toEqual({ data: [{ id: 'canary-secret' }] });
    expect(seen).toEqual([{ url: '/v1/models', host: `model.test:${port}`, authorization: 'Bearer sk-mine' }]);
  });

  it("is the global fetch when every address is allowed (the environment's and an admin's connections)", async () => {
    const fetch = guardedFetch({ allowPrivate: true, allowHosts: [] });
    expect(fetch).toBe(globalThis.fetch);
    expect((await fetch(`http://127.0.0.1:${port}/v1/models`)).status).toBe(200);
    expect(seen).toHaveLength(1);
  });
});
