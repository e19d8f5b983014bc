// Finding: `npm start` listened on every interface with no account, no token and no warning. Now it binds to
// 127.0.0.1; serving beyond loopback needs a lock: ACCESS_TOKEN (one user: every request carries the token, a cookie
// from the sign-in page or a bearer), or else accounts, which npm start and a plain `next start` both turn on and say
// so. A configuration that cannot work (a short token, a token with AUTH=required) is refused before anything runs.
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, ownLanAddress, request, requireBuild, ROOT, spawnCaptured, startApp, type App } from './support/app';

const TOKEN = 'security-suite-token-0123456789';
const lan = ownLanAddress();

function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** /api/health once the server's start-up hook has run (a request before it is answered 503: try again). */
async function healthWhenReady(port: number) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const health = await request(`http://127.0.0.1:${port}`, '/api/health', lan ? { localAddress: lan } : {});
    if (health.status !== 503 || Date.now() > deadline) return health;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('npm start', () => {
  beforeAll(requireBuild);

  it('listens on 127.0.0.1 only by default', async () => {
    const port = await freePort();
    const proc = spawnCaptured(process.execPath, [path.join(ROOT, 'scripts/start.mjs'), '--no-build'], {
      ...process.env,
      PORT: String(port),
      HOST: '',
      DATA_DIR: path.join(ROOT, 'test-results', `start-${port}`),
    });
    try {
      const deadline = Date.now() + 60_000;
      while (!(await connects('127.0.0.1', port))) {
        if (Date.now() > deadline || proc.child.exitCode !== null) throw new Error(proc.output());
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(proc.output()).toContain(`http://127.0.0.1:${port}`);
      if (lan) expect(await connects(lan, port)).toBe(false);
    } finally {
      await proc.stop();
    }
  });

  it('HOST=0.0.0.0 without ACCESS_TOKEN: accounts are on, and it says so; everyone must sign in', async () => {
    const port = await freePort();
    const proc = spawnCaptured(process.execPath, [path.join(ROOT, 'scripts/start.mjs'), '--no-build'], {
      ...process.env,
      PORT: String(port),
      HOST: '0.0.0.0',
      ACCESS_TOKEN: '',
      AUTH: '',
      DATA_DIR: path.join(ROOT, 'test-results', `start-accounts-${port}`),
    });
    try {
      const deadline = Date.now() + 60_000;
      while (!(await connects('127.0.0.1', port))) {
        if (Date.now() > deadline || proc.child.exitCode !== null) throw new Error(proc.output());
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(proc.output()).toContain(
        'Serving beyond this machine (listening on 0.0.0.0) without ACCESS_TOKEN, so accounts are required',
      );
      expect(proc.output()).toContain('The first account created becomes the admin');
      const health = await healthWhenReady(port);
      expect(health.status).toBe(401);
      expect(health.json().error?.message).toBe('Sign in to use this app.');
    } finally {
      await proc.stop();
    }
  });

  it('PUBLIC_URL or ALLOWED_HOSTS naming other hosts without ACCESS_TOKEN turn accounts on too', async () => {
    for (const [env, says] of [
      [{ PUBLIC_URL: 'https://studio.example.com' }, 'PUBLIC_URL=https://studio.example.com'],
      [{ ALLOWED_HOSTS: 'studio.lan' }, 'ALLOWED_HOSTS=studio.lan'],
    ] as const) {
      const port = await freePort();
      const proc = spawnCaptured(process.execPath, [path.join(ROOT, 'scripts/start.mjs'), '--no-build'], {
        ...process.env,
        PORT: String(port),
        ACCESS_TOKEN: '',
        AUTH: '',
        DATA_DIR: path.join(ROOT, 'test-results', `start-names-${port}`),
        ...env,
      });
      try {
        const deadline = Date.now() + 60_000;
        while (!proc.output().includes('accounts are required')) {
          if (Date.now() > deadline || proc.child.exitCode !== null) throw new Error(proc.output());
          await new Promise((r) => setTimeout(r, 100));
        }
        expect(proc.output()).toContain(says);
      } finally {
        await proc.stop();
      }
    }
  });

  it('refuses what cannot work, before building anything: a short token, a token with AUTH=required', async () => {
    for (const [env, says] of [
      [{ HOST: '0.0.0.0', ACCESS_TOKEN: 'short' }, 'ACCESS_TOKEN must be at least 16 characters'],
      [{ ACCESS_TOKEN: TOKEN, AUTH: 'required' }, 'Set either ACCESS_TOKEN (one user'],
    ] as const) {
      const proc = spawnCaptured(process.execPath, [path.join(ROOT, 'scripts/start.mjs')], { ...process.env, ...env });
      expect(await proc.exited).toBe(1);
      expect(proc.output()).toContain(says);
      expect(proc.output()).not.toContain('Building');
    }
  });
});

describe('the server itself', () => {
  beforeAll(requireBuild);

  it('a plain `next start -H 0.0.0.0` without ACCESS_TOKEN turns accounts on and says so: nobody is let in unsigned', async () => {
    const port = await freePort();
    const proc = spawnCaptured(
      path.join(ROOT, 'node_modules/.bin/next'),
      ['start', '-p', String(port), '-H', '0.0.0.0'],
      {
        ...process.env,
        ACCESS_TOKEN: '',
        AUTH: '',
        DATA_DIR: path.join(ROOT, 'test-results', `bare-${port}`),
      },
    );
    try {
      const deadline = Date.now() + 60_000;
      while (!(await connects('127.0.0.1', port))) {
        if (Date.now() > deadline || proc.child.exitCode !== null) throw new Error(proc.output());
        await new Promise((r) => setTimeout(r, 200));
      }
      const health = await healthWhenReady(port);
      expect(health.status).toBe(401);
      expect(health.json().error?.message).toBe('Sign in to use this app.');
      expect(proc.output()).toContain('without ACCESS_TOKEN, so accounts are required');
    } finally {
      await proc.stop(); // a server that did not refuse must not outlive the test
    }
  });
});

describe.skipIf(!lan)(`with ACCESS_TOKEN, on 0.0.0.0 (a client on ${lan ?? 'no non-loopback address'})`, () => {
  let app: App;
  const from = { localAddress: lan };
  const at = () => `http://${lan}:${app.port}`;

  beforeAll(async () => {
    app = await startApp({ host: '0.0.0.0', env: { ACCESS_TOKEN: TOKEN } });
  });
  afterAll(() => app?.stop());

  it('refuses every request without the token (also from loopback), and a forged peer header changes nothing', async () => {
    for (const [base, extra] of [
      [at(), from],
      [app.url, {}],
    ] as const) {
      const res = await request(base, '/api/health', extra);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="agent-studio"');
    }
    const forged = await request(at(), '/api/health', { ...from, headers: { 'x-agent-studio-peer': '127.0.0.1' } });
    expect(forged.status).toBe(401);
    const wrong = await request(at(), '/api/health', {
      ...from,
      headers: { authorization: 'Bearer not-the-token-at-all' },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.json().error?.message).toBe('The bearer token is not this app’s ACCESS_TOKEN.');
  });

  it('a bearer token opens every route, and is exempt from the Origin rule', async () => {
    const bearer = { authorization: `Bearer ${TOKEN}` };
    expect((await request(at(), '/api/health', { ...from, headers: bearer })).status).toBe(200);
    app.model.reset();
    const res = await request(at(), '/api/chat', {
      ...from,
      headers: { ...bearer, origin: 'http://evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'hello over the network' }),
    });
    expect(res.status).toBe(200);
    expect(res.text).toContain('"reason":"answered"');
    expect(app.model.requests).toHaveLength(1);
  });

  it('a browser is sent to the sign-in page, gets an httpOnly SameSite=Lax cookie for the token, and is let in', async () => {
    const page = await request(at(), '/?c=abc', { ...from, headers: { accept: 'text/html' } });
    expect(page.status).toBe(303);
    expect(page.headers.location).toBe(`${at()}/sign-in?next=%2F%3Fc%3Dabc`);
    const signIn = await request(at(), '/sign-in', { ...from, headers: { accept: 'text/html' } });
    expect(signIn.status).toBe(200);
    expect(signIn.text).toMatch(/<label[^>]*for="token"[^>]*>Access token<\/label>/);

    const form = (token: string) =>
      request(at(), '/api/sign-in', {
        ...from,
        headers: { origin: at(), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, next: '/?c=abc' }).toString(),
      });
    const wrong = await form('wrong-token-wrong-token');
    expect(wrong.status).toBe(303);
    expect(wrong.headers.location).toBe('/sign-in?error=wrong&next=%2F%3Fc%3Dabc');
    expect(wrong.headers['set-cookie']).toBeUndefined();

    const right = await form(TOKEN);
    expect(right.status).toBe(303);
    expect(right.headers.location).toBe('/?c=abc');
    const cookie = right.headers['set-cookie']![0]!;
    expect(cookie).toMatch(/^agent_studio_session=[\w-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
    expect(cookie).not.toContain(TOKEN);
    const session = cookie.split(';')[0]!;
    expect((await request(at(), '/', { ...from, headers: { cookie: session, accept: 'text/html' } })).status).toBe(200);

    // The cookie is no exemption from the Origin rule (it is what a cross-site page would ride on).
    app.model.reset();
    const crossSite = await request(at(), '/api/chat', {
      ...from,
      headers: { cookie: session, origin: 'http://evil.example', 'content-type': 'text/plain' },
      body: JSON.stringify({ message: 'hi' }),
    });
    expect(crossSite.status).toBe(403);
    expect(app.model.requests).toHaveLength(0);
  });

  it('guessing the token is cut short: after 10 wrong tokens in a minute, even the right one waits', async () => {
    const probe = (token: string) => request(app.url, '/api/health', { headers: { authorization: `Bearer ${token}` } });
    for (let i = 0; i < 10; i++) await probe(`guess-number-${i}-xxxxxxxx`);
    const limited = await probe(TOKEN);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another client (here: the machine's own LAN address) is not held up by this one's guesses.
    expect(
      (await request(at(), '/api/health', { ...from, headers: { authorization: `Bearer ${TOKEN}` } })).status,
    ).toBe(200);
  });
});
