'use server';
// What only the admin may do (each starts with guardAction, and the rule of each is the admin's: 403 for anyone
// else; lib/server/access-rules.ts). Wiring only: the work is lib/auth/admin.ts.
import { headers } from 'next/headers';
import type { UserRow } from '@/lib/auth/admin';
import type { ActionResult } from '@/lib/chat/page';
import { appContext } from '@/lib/server/context';
import type { InviteRecord, ServerSettings } from '@/lib/store/types';
import { failure } from './action-error';
import { guardAction } from './guard';

async function attempt<T>(fn: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (e) {
    return failure(e);
  }
}

export async function listUsers(): Promise<ActionResult<UserRow[]>> {
  await guardAction('listUsers');
  return attempt(async () => (await appContext()).admin.users(await headers()));
}

export async function setUserDisabled(userId: string, disabled: boolean): Promise<ActionResult<null>> {
  const me = await guardAction('setUserDisabled');
  return attempt(async () => {
    await (await appContext()).admin.setDisabled(me, await headers(), userId, disabled);
    return null;
  });
}

/** Deletes the account and everything it owned (lib/server/user-data.ts); not the admin's own. */
export async function deleteUser(userId: string): Promise<ActionResult<null>> {
  const me = await guardAction('deleteUser');
  return attempt(async () => {
    await (await appContext()).admin.deleteUser(me, await headers(), String(userId));
    return null;
  });
}

export async function resetUserPassword(userId: string, password: string): Promise<ActionResult<null>> {
  await guardAction('resetUserPassword');
  return attempt(async () => {
    await (await appContext()).admin.resetPassword(await headers(), userId, password);
    return null;
  });
}

export async function updateServerSettings(patch: {
  signUp?: unknown;
  userTools?: unknown;
}): Promise<ActionResult<ServerSettings>> {
  await guardAction('updateServerSettings');
  return attempt(async () => (await appContext()).admin.updateSettings(patch));
}

/** A new invite and its link (shown this once: only a hash of it is kept). */
export async function createInvite(): Promise<ActionResult<{ link: string; invite: InviteRecord }>> {
  const me = await guardAction('createInvite');
  return attempt(async () => {
    const ctx = await appContext();
    const { token, invite } = await ctx.admin.createInvite(me);
    const h = await headers();
    // PUBLIC_URL, else the name the browser used (already checked against the names the app answers to).
    const origin =
      ctx.config.http.publicOrigin ??
      `${h.get('x-forwarded-proto') === 'https' ? 'https' : 'http'}://${h.get('host') ?? 'localhost'}`;
    return { link: `${origin}/sign-up?invite=${encodeURIComponent(token)}`, invite };
  });
}

export async function listInvites(): Promise<ActionResult<InviteRecord[]>> {
  await guardAction('listInvites');
  return attempt(async () => (await appContext()).admin.invites());
}

export async function revokeInvite(id: string): Promise<ActionResult<null>> {
  await guardAction('revokeInvite');
  return attempt(async () => {
    await (await appContext()).admin.revokeInvite(id);
    return null;
  });
}
