// What the admin controls: the users (list, disable and enable, delete, set a new password), how accounts are made (the
// sign-up mode, invite links: single use, expiring), and which tools the other users may use. Every method takes
// the admin's request headers: better-auth checks the admin's session again for the user operations. Disabling a user
// or setting their password ends everything that signed in as them before: their sessions (every browser is signed
// out) and their API keys (revoked for good: enabling the account again does not bring them back).
import { CodedError } from '../protocol/errors';
import { randomBytes } from 'node:crypto';
import type { HeaderBag } from '../http/peer';
import { ownerScope, type OwnerScope } from '../store/owner';
import type { ChatStore, InviteRecord, ServerSettings, SignUpMode } from '../store/types';
import { authHeaders, type AccountUser } from './accounts';
import { hashSecret, type ApiKeyService } from './api-keys';
import { MIN_PASSWORD_LENGTH, type Auth } from './better-auth';
import type { Viewer } from './viewer';

export const INVITE_DAYS = 7;
const SIGN_UP_MODES: readonly SignUpMode[] = ['open', 'invite', 'closed'];

export interface UserRow {
  id: string;
  email: string;
  name: string;
  admin: boolean;
  disabled: boolean;
  createdAt: number;
}

/** What the admin asked for that cannot be done, coded so the page says it in its language. */
export class AdminError extends CodedError {
  override name = 'AdminError';
}

export class AdminService {
  constructor(
    private readonly deps: {
      store: ChatStore;
      auth: Auth;
      apiKeys: ApiKeyService;
      /** Deletes everything the user owned (lib/server/user-data.ts); given by the composition root. */
      removeData?: (owner: OwnerScope) => Promise<unknown>;
    },
  ) {}

  async users(headers: HeaderBag): Promise<UserRow[]> {
    const { users } = await this.deps.auth.api.listUsers({
      headers: authHeaders(headers),
      query: { limit: 1000, sortBy: 'createdAt', sortDirection: 'asc' },
    });
    return (users as AccountUser[]).map((u) => ({
      id: u.id,
      email: u.email,
      name: u.name,
      admin: u.role === 'admin',
      disabled: Boolean(u.banned),
      createdAt: new Date(u.createdAt).getTime(),
    }));
  }

  /** Disabling signs the user out everywhere and revokes their API keys. */
  async setDisabled(admin: Viewer, headers: HeaderBag, userId: string, disabled: boolean): Promise<void> {
    if (userId === admin.userId) throw new AdminError('disable-self', 'You cannot disable your own account.');
    const h = authHeaders(headers);
    if (!disabled) return void (await this.deps.auth.api.unbanUser({ headers: h, body: { userId } }));
    await this.deps.auth.api.banUser({ headers: h, body: { userId, banReason: 'Disabled by the admin' } });
    await this.signOutEverywhere(userId);
  }

  /** Ends every session of the user and revokes every API key of theirs. */
  private async signOutEverywhere(userId: string): Promise<void> {
    const ctx = await this.deps.auth.$context;
    await ctx.internalAdapter.deleteUserSessions(userId);
    await this.deps.apiKeys.revokeAll(ownerScope(userId));
  }

  /**
   * Deletes an account: first the account itself (better-auth: the user, their sessions and sign-in methods, so they
   * are signed out and can do nothing more meanwhile), then everything they owned: their conversations (with the
   * model chosen in each, local or not), saved agents, model connections and API keys. Nothing is reassigned.
   */
  async deleteUser(admin: Viewer, headers: HeaderBag, userId: string): Promise<void> {
    if (userId === admin.userId) throw new AdminError('delete-self', 'You cannot delete your own account.');
    await this.deps.auth.api.removeUser({ headers: authHeaders(headers), body: { userId } });
    await this.deps.removeData?.(ownerScope(userId));
  }

  async resetPassword(headers: HeaderBag, userId: string, password: string): Promise<void> {
    if (password.length < MIN_PASSWORD_LENGTH)
      throw new AdminError('password-short', `A password needs at least ${MIN_PASSWORD_LENGTH} characters.`, {
        min: MIN_PASSWORD_LENGTH,
      });
    await this.deps.auth.api.setUserPassword({
      headers: authHeaders(headers),
      body: { userId, newPassword: password },
    });
    // Whoever knew the old password (or holds a session or key made with it) is out.
    await this.signOutEverywhere(userId);
  }

  /** Sign-up and the users' tools (the web search setting, which holds a sealed key, is the integrations' own). */
  async settings(): Promise<ServerSettings> {
    return accessOnly(await this.deps.store.serverSettings());
  }

  async updateSettings(patch: { signUp?: unknown; userTools?: unknown }): Promise<ServerSettings> {
    const next: Partial<ServerSettings> = {};
    if (patch.signUp !== undefined) {
      if (!SIGN_UP_MODES.includes(patch.signUp as SignUpMode))
        throw new AdminError('bad-sign-up-mode', 'Sign-up is "open", "invite" or "closed".');
      next.signUp = patch.signUp as SignUpMode;
    }
    if (patch.userTools !== undefined) {
      const t = patch.userTools as Partial<ServerSettings['userTools']>;
      const current = (await this.deps.store.serverSettings()).userTools;
      next.userTools = {
        codeInterpreter: typeof t.codeInterpreter === 'boolean' ? t.codeInterpreter : current.codeInterpreter,
        web: typeof t.web === 'boolean' ? t.web : current.web,
      };
    }
    return accessOnly(await this.deps.store.updateServerSettings(next));
  }

  /** A new invite: `token` goes in the link (/sign-up?invite=<token>) and is shown once; only its hash is kept. */
  async createInvite(admin: Viewer): Promise<{ token: string; invite: InviteRecord }> {
    const token = randomBytes(24).toString('base64url');
    const invite = await this.deps.store.createInvite({
      hash: hashSecret(token),
      createdBy: admin.userId,
      expiresAt: Date.now() + INVITE_DAYS * 24 * 3600_000,
    });
    return { token, invite };
  }

  invites(): Promise<InviteRecord[]> {
    return this.deps.store.listOpenInvites(Date.now());
  }

  async revokeInvite(id: string): Promise<void> {
    if (!(await this.deps.store.revokeInvite(id)))
      throw new AdminError('invite-gone', 'This invite was used or revoked already.');
  }
}

function accessOnly({ signUp, userTools }: ServerSettings): ServerSettings {
  return { signUp, userTools };
}
