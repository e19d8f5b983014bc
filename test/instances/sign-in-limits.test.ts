// The accounts' limits on two instances of the built app sharing one PostgreSQL database: the failed sign-ins are
// counted in the database, so wrong passwords spread over the instances lock the account for that address as soon as
// they would on one instance, on both instances alike; the account's owner, from another address, still signs in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresMissing } from '../support/postgres';
import { request } from '../security/support/app';
import { startCluster, type Cluster, type Instance } from './support/instances';

const missing = postgresMissing();
const ADMIN = { email: 'limits-admin@example.com', password: 'correct horse battery staple' };

const authPost = (instance: Instance, route: string, body: unknown, localAddress?: string) =>
  request(instance.url, `/api/auth/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: instance.url },
    body: JSON.stringify(body),
    ...(localAddress ? { localAddress } : {}),
  });

if (missing) {
  describe('sign-in limits on two instances', () => it.skip(`skipped: ${missing}`, () => undefined));
} else {
  describe('sign-in limits on two instances sharing one PostgreSQL database', () => {
    let cluster: Cluster;
    const a = () => cluster.instances[0]!;
    const b = () => cluster.instances[1]!;

    beforeAll(async () => {
      cluster = await startCluster({ count: 2, leaseMs: 10_000, env: { AUTH: 'required' } });
      const made = await authPost(a(), 'sign-up/email', ADMIN);
      expect(made.status, made.text).toBe(200);
    });
    afterAll(async () => {
      await cluster?.stop();
    });

    it('counts wrong passwords sent to either instance together: the sixth is refused on both', async () => {
      const wrong = { email: ADMIN.email, password: 'not the password' };
      for (const instance of [a(), b(), a(), b(), a()]) {
        const answer = await authPost(instance, 'sign-in/email', wrong);
        expect(answer.status, `${instance.name}: ${answer.text}`).toBe(401);
      }
      for (const instance of [b(), a()]) {
        const refused = await authPost(instance, 'sign-in/email', ADMIN);
        expect(refused.status, `${instance.name}: ${refused.text}`).toBe(429);
        expect(refused.json<{ error: { code: string } }>().error.code).toBe('wait-account');
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(290);
      }
      // The owner, from an address of their own, is not locked out by the guesses.
      const owner = await authPost(b(), 'sign-in/email', ADMIN, '127.0.0.2');
      expect(owner.status, owner.text).toBe(200);
    });
  });
}
