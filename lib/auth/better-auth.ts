// The accounts library, set up once for this app: better-auth (email + password with its scrypt hash, sessions in
// httpOnly SameSite=Lax cookies, the admin plugin for roles, disabling (its "ban") and setting passwords, and
// optionally OpenID Connect sign-in through its generic OAuth plugin). Its tables (user, session, account,
// verification) live in the store's own database, beside ours; its migrations run when the app starts.
//
// What stays ours (lib/http, lib/auth): the Host and Origin checks (lib/http/check.ts runs before every request, so
// better-auth's own CSRF check is off), rate limits on signing in (per address and per account), who may create an
// account (sign-up modes, invites, the first admin) and API keys.
import { AsyncLocalStorage } from 'node:async_hooks';
import { betterAuth } from 'better-auth';
import { APIError } from 'better-auth/api';
import { getMigrations } from 'better-auth/db/migration';
import { admin } from 'better-auth/plugins/admin';
import { genericOAuth } from 'better-auth/plugins/generic-oauth';
import type { OidcEnvConfig } from '../config';
import { PEER_HEADER } from '../http/peer';
import type { AuthDatabase } from '../store/types';

export const OIDC_PROVIDER_ID = 'oidc';
export const SESSION_DAYS = 30;
export const MIN_PASSWORD_LENGTH = 8;

/** How a new account may come about: through our sign-up (lib/auth/accounts.ts, which checks the mode and invite
 *  first), or through OpenID Connect when the server lets the provider's users in. */
export interface SignUpGate {
  /** Called for an account about to be made outside our sign-up (an OIDC sign-in); throws to refuse it. */
  external(email: string): Promise<void>;
}

/** Set around our own sign-up call: the account it makes was allowed already. */
export const signUpPermit = new AsyncLocalStorage<true>();

export interface AuthOptions {
  database: AuthDatabase;
  secret: string;
  /** PUBLIC_URL's origin: the app's one address (links, OIDC callbacks); else the request's own Host (checked). */
  publicOrigin?: string;
  oidc?: OidcEnvConfig;
  gate: SignUpGate;
}

/** better-auth's view of our database: the store's own Kysely (lib/store/types.ts AuthDatabase says why its
 *  transactions are off on SQLite). */
function databaseOf(db: AuthDatabase) {
  return { db: db.db, type: db.type, transaction: db.transactions };
}

export function createAuth(opts: AuthOptions) {
  const secure = Boolean(opts.publicOrigin?.startsWith('https:'));
  return betterAuth({
    appName: 'Agent Studio',
    database: databaseOf(opts.database),
    secret: opts.secret,
    baseURL: opts.publicOrigin ?? {
      // The Host was checked against the names the app answers to before the request got here (lib/http/check.ts).
      allowedHosts: ['*'],
      protocol: 'http',
      fallback: 'http://localhost',
    },
    basePath: '/api/auth',
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: 256,
      revokeSessionsOnPasswordReset: true,
    },
    session: { expiresIn: SESSION_DAYS * 24 * 3600, updateAge: 24 * 3600 },
    advanced: {
      cookiePrefix: 'agent-studio',
      useSecureCookies: secure,
      disableCSRFCheck: true,
      // The address the server's own HTTP layer stamped (lib/http/peer.ts), not X-Forwarded-For, which anyone can
      // send: kept on each session.
      ipAddress: { ipAddressHeaders: [PEER_HEADER] },
    },
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    logger: { level: 'error' },
    plugins: [
      admin({
        defaultRole: 'user',
        adminRoles: ['admin'],
        bannedUserMessage: 'This account is disabled. Ask the admin of this Agent Studio to enable it again.',
      }),
      ...(opts.oidc
        ? [
            genericOAuth({
              config: [
                {
                  providerId: OIDC_PROVIDER_ID,
                  name: opts.oidc.name,
                  discoveryUrl: `${opts.oidc.issuer}/.well-known/openid-configuration`,
                  clientId: opts.oidc.clientId,
                  clientSecret: opts.oidc.clientSecret,
                  scopes: ['openid', 'email', 'profile'],
                  pkce: true,
                },
              ],
            }),
          ]
        : []),
    ],
    databaseHooks: {
      user: {
        create: {
          before: async (user) => {
            if (!signUpPermit.getStore()) await opts.gate.external(user.email);
            return { data: user };
          },
        },
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

/** Creates or brings up to date better-auth's tables (its own migrations, beside ours). */
export async function migrateAuth(auth: Auth): Promise<void> {
  const { runMigrations } = await getMigrations(auth.options);
  await runMigrations();
}

/** Why an OpenID Connect sign-in made no account: the sign-in page says it in its language (lib/auth/http.ts sends
 *  the browser back there with the code). */
export const OIDC_REFUSALS = ['oidc-admin-first', 'oidc-invite-only', 'oidc-failed'] as const;
export type OidcRefusal = (typeof OIDC_REFUSALS)[number];

/** A refusal the accounts library answers with its own status and message (and our code). */
export function refusal(status: 'FORBIDDEN' | 'BAD_REQUEST', message: string, code: OidcRefusal): APIError {
  return new APIError(status, { message, code });
}
