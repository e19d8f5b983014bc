// Accounts as this app uses them: who a request acts for (a session, an API key, or the single user when accounts
// are off), who may create an account (the first one always, and it is the admin, with the setup code when the server
// is reachable beyond this machine; then by the sign-up mode and invites), and the built-in local owner, whose data
// the first admin takes over.
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import type { SetupCode } from '../config/setup-code';
import { bearerOf } from '../http/access-token';
import { PEER_HEADER, type HeaderBag } from '../http/peer';
import { LOCAL_OWNER_ID, ownerScope, storageRoot, type OwnerScope } from '../store/owner';
import type { ChatStore, ServerSettings } from '../store/types';
import type { ApiKeyService } from './api-keys';
import { hashSecret, type KeyScope } from './api-keys';
import { refusal, signUpPermit, type Auth } from './better-auth';
import { makeViewer, type AccessMode, type Viewer, type ViewerRefusal } from './viewer';
import { AccountLimits } from './limits';

/** The user fields this app reads (better-auth's user with the admin plugin's). */
export interface AccountUser {
  id: string;
  email: string;
  name: string;
  role?: string | null;
  banned?: boolean | null;
  createdAt: Date;
}

export class SignUpError extends Error {
  override name = 'SignUpError';
  constructor(
    message: string,
    readonly status: 400 | 401 | 403 | 429,
    /** Why, as a code the page says in its language. */
    readonly code: SignUpRefusalCode,
  ) {
    super(message);
  }
}

/** The headers better-auth needs of a request: the session cookie, and the Host its base URL is taken from. */
export function authHeaders(bag: HeaderBag): Headers {
  const out = new Headers();
  for (const name of ['cookie', 'host', 'user-agent', 'x-forwarded-proto', PEER_HEADER]) {
    const v = bag.get(name);
    if (v !== null) out.set(name, v);
  }
  return out;
}

const SIGN_UP_REFUSALS = {
  'accounts-off': 'Accounts are off on this server: there is nothing to sign up for.',
  closed: 'Sign-up is closed on this server.',
  'invite-only': 'Accounts on this server are by invitation: ask the admin for an invite link.',
  'invite-invalid': 'This invite link is not valid: it was used already, revoked, or it expired.',
  'setup-code':
    'Creating the first account needs the setup code this server printed in its log when it started (“Setup code ' +
    'for the first account”). That is not it.',
} as const;

export type SignUpRefusalCode = keyof typeof SIGN_UP_REFUSALS;
export interface SignUpRefusal {
  allowed: false;
  code: SignUpRefusalCode;
  reason: string;
}

const refused = (code: SignUpRefusalCode): SignUpRefusal => ({ allowed: false, code, reason: SIGN_UP_REFUSALS[code] });

export interface SignUpInput {
  email: string;
  password: string;
  name?: string;
  invite?: string;
  /** The setup code, for the first account of a server reachable beyond this machine. */
  setupCode?: string;
}

export class AccountService {
  /** The first admin's id; null once looked up and there is none (only the first sign-up makes one, and sets it). */
  private firstAdmin?: string | null;
  /** Sign-ups one after another, so that two first accounts made at once cannot both become the admin. */
  private signUps: Promise<unknown> = Promise.resolve();
  /** Failed sign-ins, wrong setup codes and sign-ups, counted in the store (limits.ts). */
  readonly limits: AccountLimits;

  constructor(
    private readonly deps: {
      store: ChatStore;
      auth: Auth;
      apiKeys: ApiKeyService;
      dataDir: string;
      mode: () => AccessMode;
      /** OIDC_SIGN_UP=open: the provider's users get accounts whatever the sign-up mode. */
      oidcOpenSignUp?: boolean;
      /** The code the first account needs when the server is reachable beyond this machine (the server's). */
      setupCode: SetupCode;
    },
  ) {
    this.limits = new AccountLimits(deps.store);
  }

  get mode(): AccessMode {
    return this.deps.mode();
  }

  /** Who the request acts for, or why there is nobody. */
  async viewer(headers: HeaderBag): Promise<Viewer | ViewerRefusal> {
    const mode = this.mode;
    const { userTools } = await this.deps.store.serverSettings();
    if (mode !== 'accounts')
      return makeViewer({
        owner: await this.localOwner(),
        admin: true,
        via: mode === 'token' ? 'token' : 'local',
        userTools,
      });
    const bearer = bearerOf(headers);
    if (bearer !== undefined) {
      const check = await this.deps.apiKeys.check(bearer);
      if (!check.ok) return { status: 401, message: check.message };
      const user = await this.user(check.key.ownerId);
      if (!user) return { status: 401, message: 'This API key’s account no longer exists.' };
      if (user.banned) return { status: 403, message: 'This API key’s account is disabled.' };
      return this.userViewer(user, 'api-key', userTools, check.key.scope);
    }
    const session = await this.deps.auth.api.getSession({ headers: authHeaders(headers) });
    if (!session) return { status: 401, message: 'Sign in to use this app.' };
    const user = session.user as AccountUser;
    if (user.banned) return { status: 403, message: 'This account is disabled.' };
    return this.userViewer(user, 'session', userTools);
  }

  private userViewer(
    user: AccountUser,
    via: Viewer['via'],
    userTools: ServerSettings['userTools'],
    keyScope?: KeyScope,
  ): Viewer {
    return makeViewer({
      owner: ownerScope(user.id),
      email: user.email,
      name: user.name,
      admin: user.role === 'admin',
      via,
      keyScope,
      userTools,
    });
  }

  async user(id: string): Promise<AccountUser | undefined> {
    const ctx = await this.deps.auth.$context;
    const found = await ctx.internalAdapter.findUserById(id);
    return (found as AccountUser | null) ?? undefined;
  }

  async userCount(): Promise<number> {
    const ctx = await this.deps.auth.$context;
    return ctx.adapter.count({ model: 'user' });
  }

  /** Whose objects the single user of an app without accounts works on: the built-in local owner, or, once an admin
   *  account exists, the first admin (so turning accounts on and off again hides nothing). Looked up once, not on
   *  every request: without accounts nothing makes an admin, and with them the first sign-up sets it. */
  async localOwner(): Promise<OwnerScope> {
    if (this.firstAdmin === undefined) {
      const ctx = await this.deps.auth.$context;
      const [admin] = await ctx.adapter.findMany<AccountUser>({
        model: 'user',
        where: [{ field: 'role', value: 'admin' }],
        sortBy: { field: 'createdAt', direction: 'asc' },
        limit: 1,
      });
      this.firstAdmin = admin?.id ?? null;
    }
    return ownerScope(this.firstAdmin ?? LOCAL_OWNER_ID);
  }

  /** At start-up: what the local owner has goes to the first admin, if there is one (again, in case a start was cut
   *  off between making the admin and moving the data). */
  async adoptLocalDataIfAdmin(): Promise<void> {
    const owner = await this.localOwner();
    if (owner.ownerId !== LOCAL_OWNER_ID) await this.adoptLocalData(owner);
  }

  /** Everything the local owner had (conversations and all in them, storage keys) becomes `owner`'s. */
  private async adoptLocalData(owner: OwnerScope): Promise<void> {
    await this.deps.store.adoptLocalData(owner);
    const from = storageRoot(this.deps.dataDir, ownerScope(LOCAL_OWNER_ID));
    const to = storageRoot(this.deps.dataDir, owner);
    if (existsSync(from) && !existsSync(to)) {
      mkdirSync(path.dirname(to), { recursive: true });
      renameSync(from, to);
    }
  }

  /** Whether an account can be made now (what the Create account page says), with this invite if given; when not,
   *  why, as a code (the page's words) and in the server's. */
  async signUpState(invite?: string): Promise<{ allowed: true; first: boolean; setupCode?: true } | SignUpRefusal> {
    if (this.mode !== 'accounts') return refused('accounts-off');
    if ((await this.userCount()) === 0)
      return this.deps.setupCode.required()
        ? { allowed: true, first: true, setupCode: true }
        : { allowed: true, first: true };
    const { signUp } = await this.deps.store.serverSettings();
    if (signUp === 'open') return { allowed: true, first: false };
    if (signUp === 'closed') return refused('closed');
    if (!invite) return refused('invite-only');
    if (!(await this.deps.store.openInvite(hashSecret(invite), Date.now()))) return refused('invite-invalid');
    return { allowed: true, first: false };
  }

  /**
   * Makes an account if the server allows it now, and signs it in: better-auth's answer (with its session cookie)
   * comes back. The first account is the admin's, and takes over what the local owner had.
   */
  async signUp(input: SignUpInput, headers: HeaderBag): Promise<Response> {
    const run = this.signUps.then(() => this.signUpNow(input, headers));
    this.signUps = run.catch(() => undefined);
    return run;
  }

  private async signUpNow(input: SignUpInput, headers: HeaderBag): Promise<Response> {
    const state = await this.signUpState(input.invite);
    if (!state.allowed) throw new SignUpError(state.reason, 403, state.code);
    if (state.setupCode && !this.deps.setupCode.matches(input.setupCode ?? ''))
      throw new SignUpError(SIGN_UP_REFUSALS['setup-code'], 403, 'setup-code');
    const email = input.email.trim();
    const name = input.name?.trim() || email.split('@')[0] || email;
    const answer = await signUpPermit.run(true, () =>
      this.deps.auth.api.signUpEmail({
        body: { email, password: input.password, name },
        headers: authHeaders(headers),
        asResponse: true,
      }),
    );
    if (!answer.ok) return answer;
    const { user } = (await answer.clone().json()) as { user: AccountUser };
    if (state.first) {
      if (state.setupCode) this.deps.setupCode.spend();
      const ctx = await this.deps.auth.$context;
      await ctx.internalAdapter.updateUser(user.id, { role: 'admin' });
      this.firstAdmin = user.id;
      await this.adoptLocalData(ownerScope(user.id));
    } else if (input.invite) {
      await this.deps.store.claimInvite(hashSecret(input.invite), user.id, Date.now());
    }
    return answer;
  }

  /** For the OIDC sign-in of someone without an account yet (the better-auth hook). */
  async allowExternalSignUp(email: string): Promise<void> {
    if ((await this.userCount()) === 0)
      throw refusal(
        'FORBIDDEN',
        'Create the admin account with an email and password first, then sign in this way.',
        'oidc-admin-first',
      );
    if (this.deps.oidcOpenSignUp) return;
    const state = await this.signUpState();
    if (!state.allowed)
      throw refusal(
        'FORBIDDEN',
        `No account exists for ${email}, and this server makes new ones only by invitation. Ask the admin.`,
        'oidc-invite-only',
      );
  }

  /** Checks the signed-in user's password again (before a dangerous change, such as the MCP configuration). */
  async verifyPassword(headers: HeaderBag, password: string): Promise<boolean> {
    try {
      await this.deps.auth.api.verifyPassword({ body: { password }, headers: authHeaders(headers) });
      return true;
    } catch {
      return false;
    }
  }
}
