'use server';
// The signed-in user's own settings: API keys (wiring only; the work is lib/auth/api-keys.ts). Credentials: only a
// signed-in browser may call these, never an API key (lib/server/access-rules.ts).
import type { ActionResult } from '@/lib/chat/page';
import { appContext } from '@/lib/server/context';
import type { ApiKeyView, KeyScope } from '@/lib/auth/api-keys';
import { CodedError } from '@/lib/protocol/errors';
import { failure } from './action-error';
import { guardAction } from './guard';

const NO_ACCOUNTS = 'API keys belong to accounts, and accounts are off on this server (see docs/accounts.md).';

async function attempt<T>(fn: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (e) {
    return failure(e);
  }
}

export async function listApiKeys(): Promise<ActionResult<ApiKeyView[]>> {
  const me = await guardAction('listApiKeys');
  return attempt(async () => (await appContext()).apiKeys.list(me.owner));
}

/** A new key: `secret` is shown this once. `scope`: what it may do ("read" or "run"; lib/auth/api-keys.ts). */
export async function createApiKey(
  name: string,
  scope: KeyScope,
): Promise<ActionResult<{ secret: string; key: ApiKeyView }>> {
  const me = await guardAction('createApiKey');
  return attempt(async () => {
    const ctx = await appContext();
    if (ctx.mode !== 'accounts') throw new CodedError('no-accounts', NO_ACCOUNTS);
    return ctx.apiKeys.create(me.owner, String(name), scope);
  });
}

export async function revokeApiKey(id: string): Promise<ActionResult<null>> {
  const me = await guardAction('revokeApiKey');
  return attempt(async () => {
    await (await appContext()).apiKeys.revoke(me.owner, id);
    return null;
  });
}
