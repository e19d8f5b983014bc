// The one access check. Every way into the app names its entry point (a route handler through guardRoute, a server
// action through guardAction, a page through guardPage), and its declared rule (lib/server/access-rules.ts) says who
// may use it; `authorize` decides from that rule and who the request is (lib/auth: a session, an API key and its
// scope, the access token, or the single user of an app without accounts). Nothing else decides who may call what,
// so the access matrix (docs/security.md) is generated from the same rules (lib/server/access-matrix.ts) and the
// security suite checks every cell of it against the built server as each principal.
import { scopeCovers, type KeyScope } from '../auth/api-keys';
import { isViewer, type Viewer, type ViewerRefusal } from '../auth/viewer';

export interface AccessRule {
  /** Who may call it: anyone (it comes before signing in: it is how one signs in), any signed-in user, or an admin. */
  who: 'public' | 'user' | 'admin';
  /** The scope an API key needs for it; absent: no API key may (only a browser's session, the access token or the
   *  single user). Keys are for /v1 and the run APIs: never for an admin's or a credential's entry point. */
  key?: KeyScope;
  /** It takes the id (or reference) of something a user owns: another user's answers exactly as a missing one. */
  byId?: boolean;
  /** What it is for, in a few words (the matrix's first column). */
  what: string;
}

/** Why a request may not use an entry point: 401 (nobody signed in, or a key that is not valid) or 403. */
export interface AccessRefusal {
  status: 401 | 403;
  message: string;
}

export const NOT_ADMIN = 'Only the admin may do this.';
export const KEY_NOT_HERE =
  'An API key works only for /v1 and the run APIs (POST /api/chat, /api/files, a run’s events); sign in on the page ' +
  'for this.';
export const KEY_READ_ONLY =
  'This API key may only read; make a key with the run scope (on the API keys page) for this.';

/** Who the request is, as the rule allows it, or why not. `who` is what lib/auth resolved (a refusal when nobody). */
export function authorize(rule: AccessRule, who: Viewer | ViewerRefusal): Viewer | AccessRefusal {
  if (!isViewer(who)) return who;
  if (who.via === 'api-key') {
    if (!rule.key || rule.who === 'admin') return { status: 403, message: KEY_NOT_HERE };
    if (!scopeCovers(who.keyScope ?? 'read', rule.key)) return { status: 403, message: KEY_READ_ONLY };
  }
  if (rule.who === 'admin' && !who.admin) return { status: 403, message: NOT_ADMIN };
  return who;
}

export function isRefusal(v: Viewer | AccessRefusal): v is AccessRefusal {
  return !isViewer(v);
}

/** The principals of the access matrix (with accounts on; without them the one user is the admin). */
export const PRINCIPALS = ['anonymous', 'user', 'other-user', 'admin', 'key-read', 'key-run'] as const;
export type Principal = (typeof PRINCIPALS)[number];

/** What a principal gets from an entry point: let in, a 401 or 403 refusal, or (another user's object) the answer
 *  for a missing one. */
export type Outcome = 'allowed' | 'missing' | 401 | 403;

/**
 * The outcome the rule gives a principal: what the matrix shows and the security suite checks. `other-user` is a
 * signed-in user naming another user's object (for an entry point that takes one; else the same as `user`); the
 * key columns are an ordinary user's key of that scope.
 */
export function expectedOutcome(rule: AccessRule, principal: Principal): Outcome {
  if (rule.who === 'public') return 'allowed';
  if (principal === 'anonymous') return 401;
  if (principal === 'key-read' || principal === 'key-run') {
    if (!rule.key || rule.who === 'admin') return 403;
    return scopeCovers(principal === 'key-run' ? 'run' : 'read', rule.key) ? 'allowed' : 403;
  }
  if (principal === 'admin') return 'allowed';
  if (rule.who === 'admin') return 403;
  return principal === 'other-user' && rule.byId ? 'missing' : 'allowed';
}
