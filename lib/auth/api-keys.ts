// API keys: a user makes one with a name and a scope, sees it once, and sends it as `Authorization: Bearer …` to /v1
// and the run APIs (POST /api/chat, the uploads, a run's events); a request with a key acts as its owner, within the
// key's scope (lib/server/access.ts), and never on the page's server actions (no key manages keys, users, connections
// or the MCP configuration). Only the key's sha256 is kept (the key is 32 random bytes, so a fast hash is enough:
// there is nothing to guess), with the time it was last used.
//
// The scope is written in the key itself (`as_read_…`, `as_run_…`) and so is covered by its hash: changing it makes
// another key, which does not exist. Keys made before scopes (`as_…`) could start runs, and keep the run scope.
import { CodedError } from '../protocol/errors';
import { createHash, randomBytes } from 'node:crypto';
import { NotFoundError } from '../store/errors';
import { MAX_KEY_NAME_LENGTH } from './api-key-name';
import type { OwnerScope } from '../store/owner';
import type { ApiKeyRecord, ChatStore } from '../store/types';

export const API_KEY_PREFIX = 'as_';
const SHOWN_RANDOM_LENGTH = 6;

/** What a key may do: `read` (GET /v1/models, a run's events, uploads and images, /api/health), or `run` (that, and
 *  start runs: POST /v1/chat/completions and /api/chat, upload and delete files). */
export const KEY_SCOPES = ['read', 'run'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

export function isKeyScope(v: unknown): v is KeyScope {
  return (KEY_SCOPES as readonly unknown[]).includes(v);
}

/** Does a key of scope `have` cover `need`? `run` covers `read`. */
export function scopeCovers(have: KeyScope, need: KeyScope): boolean {
  return have === 'run' || need === 'read';
}

/** A key's scope, read from the key (or its shown prefix). */
export function scopeOfKey(secretOrPrefix: string): KeyScope {
  const m = /^as_(read|run)_/.exec(secretOrPrefix);
  return m ? (m[1] as KeyScope) : 'run';
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** A key as its owner's list shows it. */
export type ApiKeyView = ApiKeyRecord & { scope: KeyScope };

const view = (key: ApiKeyRecord): ApiKeyView => ({ ...key, scope: scopeOfKey(key.prefix) });

export type KeyCheck = { ok: true; key: ApiKeyView } | { ok: false; message: string };

const MAKE_ONE = 'Make a key on this server’s API keys page (your name in the page’s header, then API keys)';
/** What an API client that sent no key is told (a person at the page is told to sign in instead). */
export const NO_API_KEY = `This API needs a key, sent as "Authorization: Bearer as_…". ${MAKE_ONE}.`;

export class ApiKeyService {
  constructor(private readonly store: ChatStore) {}

  /** A new key for the owner: `secret` is shown once and never again. */
  async create(owner: OwnerScope, name: string, scope: unknown): Promise<{ secret: string; key: ApiKeyView }> {
    const clean = String(name).trim();
    if (!clean) throw new CodedError('key-name-missing', 'Give the key a name (what it is for).');
    if (clean.length > MAX_KEY_NAME_LENGTH)
      throw new CodedError('key-name-long', `A key’s name is at most ${MAX_KEY_NAME_LENGTH} characters.`, {
        max: MAX_KEY_NAME_LENGTH,
      });
    if (!isKeyScope(scope)) throw new CodedError('key-scope-missing', 'Choose what the key may do: "read" or "run".');
    const head = `${API_KEY_PREFIX}${scope}_`;
    const secret = `${head}${randomBytes(32).toString('base64url')}`;
    const key = await this.store.createApiKey(owner, {
      name: clean,
      prefix: secret.slice(0, head.length + SHOWN_RANDOM_LENGTH),
      hash: hashSecret(secret),
    });
    return { secret, key: view(key) };
  }

  async list(owner: OwnerScope): Promise<ApiKeyView[]> {
    return (await this.store.listApiKeys(owner)).map(view);
  }

  async revoke(owner: OwnerScope, id: string): Promise<void> {
    if (!(await this.store.revokeApiKey(owner, id)))
      throw new NotFoundError('There is no such key of yours (or it was revoked already).');
  }

  /** Revokes every live key of the owner (a password set by the admin, a disabled account); how many. */
  async revokeAll(owner: OwnerScope): Promise<number> {
    let revoked = 0;
    for (const key of await this.store.listApiKeys(owner))
      if (key.revokedAt === undefined && (await this.store.revokeApiKey(owner, key.id))) revoked++;
    return revoked;
  }

  /** The key a bearer token is, if it is a live one; its use is recorded. */
  async check(secret: string): Promise<KeyCheck> {
    const key = secret.startsWith(API_KEY_PREFIX) ? await this.store.apiKeyByHash(hashSecret(secret)) : undefined;
    // Said to a program's developer, who reads it in a client's exception: what to send instead, and where it is made.
    if (!key)
      return {
        ok: false,
        message: `This API key is not valid. ${MAKE_ONE} and send it as "Authorization: Bearer as_…".`,
      };
    if (key.revokedAt !== undefined) return { ok: false, message: `This API key was revoked. ${MAKE_ONE}.` };
    await this.store.touchApiKey(key.id, Date.now());
    return { ok: true, key: view(key) };
  }
}
