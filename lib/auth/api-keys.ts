// API keys: a user makes one with a name, sees it once, and sends it as `Authorization: Bearer …` (POST /api/chat,
// the other routes, and later /v1); a request with a key acts as its owner. Only the key's sha256 is kept (the key
// is 32 random bytes, so a fast hash is enough: there is nothing to guess), with the time it was last used.
import { CodedError } from '../protocol/errors';
import { createHash, randomBytes } from 'node:crypto';
import { NotFoundError } from '../store/errors';
import type { OwnerScope } from '../store/owner';
import type { ApiKeyRecord, ChatStore } from '../store/types';

export const API_KEY_PREFIX = 'as_';
const SHOWN_PREFIX_LENGTH = API_KEY_PREFIX.length + 6;
const MAX_NAME_LENGTH = 100;

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export type KeyCheck = { ok: true; key: ApiKeyRecord } | { ok: false; message: string };

export class ApiKeyService {
  constructor(private readonly store: ChatStore) {}

  /** A new key for the owner: `secret` is shown once and never again. */
  async create(owner: OwnerScope, name: string): Promise<{ secret: string; key: ApiKeyRecord }> {
    const clean = name.trim().slice(0, MAX_NAME_LENGTH);
    if (!clean) throw new CodedError('key-name-missing', 'Give the key a name (what it is for).');
    const secret = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const key = await this.store.createApiKey(owner, {
      name: clean,
      prefix: secret.slice(0, SHOWN_PREFIX_LENGTH),
      hash: hashSecret(secret),
    });
    return { secret, key };
  }

  list(owner: OwnerScope): Promise<ApiKeyRecord[]> {
    return this.store.listApiKeys(owner);
  }

  async revoke(owner: OwnerScope, id: string): Promise<void> {
    if (!(await this.store.revokeApiKey(owner, id)))
      throw new NotFoundError('There is no such key of yours (or it was revoked already).');
  }

  /** The key a bearer token is, if it is a live one; its use is recorded. */
  async check(secret: string): Promise<KeyCheck> {
    const key = secret.startsWith(API_KEY_PREFIX) ? await this.store.apiKeyByHash(hashSecret(secret)) : undefined;
    if (!key) return { ok: false, message: 'This API key is not valid.' };
    if (key.revokedAt !== undefined) return { ok: false, message: 'This API key was revoked.' };
    await this.store.touchApiKey(key.id, Date.now());
    return { ok: true, key };
  }
}
