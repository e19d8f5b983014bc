// Guessing passwords. A lock is only ever on what the guesser controls: failed sign-ins are counted per account AND
// address (five wrong passwords for an account from one address make that address wait for that account; the real
// user, from their own address, is not locked out by anyone else's guesses) and per address across accounts (one
// address trying many accounts). Guesses spread over many addresses are slowed instead, never refused: once an account
// (or the whole server) has seen many failures lately, every sign-in attempt for it (or for anyone) waits a moment
// before its password is checked. Accounts created are counted per address too (one client cannot make them in bulk).
// The attempts are counted in the store: every instance sharing a database counts the same ones (a guesser cannot
// spread guesses over the instances), and a restart forgets none.
import { createHash } from 'node:crypto';
import type { AccountStore } from '../store/types';

export const SIGN_IN_FAILURES_PER_ACCOUNT_AND_ADDRESS = { limit: 5, windowMs: 5 * 60_000 };
export const SIGN_IN_FAILURES_PER_ADDRESS = { limit: 10, windowMs: 60_000 };
/** Failures of one account (from anywhere) past which its sign-ins are slowed. */
export const SLOW_DOWN_PER_ACCOUNT = { limit: 10, windowMs: 5 * 60_000 };
/** Failures on the whole server past which every sign-in is slowed. */
export const SLOW_DOWN_GLOBAL = { limit: 100, windowMs: 60_000 };
/** How long a slowed sign-in waits before its password is checked. */
export const SLOW_DOWN_MS = 1000;
export const SIGN_UPS_PER_ADDRESS = { limit: 10, windowMs: 3600_000 };
/** Wrong setup codes (lib/config/setup-code.ts) per address. */
export const SETUP_CODE_FAILURES_PER_ADDRESS = { limit: 10, windowMs: 10 * 60_000 };

/** What is counted (the store's `kind`), and at most how many of them in any window of `windowMs`. */
interface Limit {
  kind: string;
  limit: number;
  windowMs: number;
}

const BY_ACCOUNT_AND_ADDRESS: Limit = {
  kind: 'sign-in-failure/account+address',
  ...SIGN_IN_FAILURES_PER_ACCOUNT_AND_ADDRESS,
};
const BY_ADDRESS: Limit = { kind: 'sign-in-failure/address', ...SIGN_IN_FAILURES_PER_ADDRESS };
const BY_ACCOUNT: Limit = { kind: 'sign-in-failure/account', ...SLOW_DOWN_PER_ACCOUNT };
const EVERYWHERE: Limit = { kind: 'sign-in-failure', ...SLOW_DOWN_GLOBAL };
const SIGN_UPS: Limit = { kind: 'sign-up/address', ...SIGN_UPS_PER_ADDRESS };
const SETUP_CODES: Limit = { kind: 'setup-code-failure/address', ...SETUP_CODE_FAILURES_PER_ADDRESS };

export interface Wait {
  seconds: number;
  message: string;
  /** Which limit, as a code the page says in its language (with `seconds`). */
  code: 'wait-account' | 'wait-address' | 'wait-sign-up' | 'wait-setup-code';
}

function wait(ms: number, code: Wait['code'], message: (s: number) => string): Wait | undefined {
  if (ms <= 0) return undefined;
  const seconds = Math.ceil(ms / 1000);
  return { seconds, message: message(seconds), code };
}

/** The store keeps a hash of what it counts: no address or email sits in the table for the limits' sake. */
const hashed = (key: string) => createHash('sha256').update(key).digest('base64url');
const pair = (address: string, email: string) => `${email.toLowerCase()}\n${address}`;

export class AccountLimits {
  constructor(
    private readonly store: Pick<AccountStore, 'attemptsSince' | 'addAttempt'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Milliseconds until one more attempt would be within the limit (0: now). */
  private async waitMs({ kind, limit, windowMs }: Limit, key: string, now = this.now()): Promise<number> {
    const times = await this.store.attemptsSince(kind, hashed(key), now - windowMs);
    return times.length < limit ? 0 : times[times.length - limit]! + windowMs - now;
  }

  /** Counts an attempt while the limit has room: a key over its limit is not counted further (a flood of one key
   *  keeps at most `limit` rows). */
  private async hit(limit: Limit, key: string): Promise<void> {
    const now = this.now();
    if ((await this.waitMs(limit, key, now)) === 0)
      await this.store.addAttempt(limit.kind, hashed(key), now, now - limit.windowMs);
  }

  /** Why a sign-in from this address must wait now, or undefined. */
  async signInWait(address: string, email: string): Promise<Wait | undefined> {
    return (
      wait(
        await this.waitMs(BY_ACCOUNT_AND_ADDRESS, pair(address, email)),
        'wait-account',
        (s) =>
          `Too many failed sign-ins for this account. Try again in ${s} s (or ask the admin to reset the password).`,
      ) ??
      wait(
        await this.waitMs(BY_ADDRESS, address),
        'wait-address',
        (s) => `Too many failed sign-ins from your address. Try again in ${s} s.`,
      )
    );
  }

  /** How long this sign-in attempt waits before its password is checked (0, unless guesses are spread widely). */
  async signInDelayMs(email: string): Promise<number> {
    const hot = (await this.waitMs(BY_ACCOUNT, email.toLowerCase())) > 0 || (await this.waitMs(EVERYWHERE, 'all')) > 0;
    return hot ? SLOW_DOWN_MS : 0;
  }

  async signInFailed(address: string, email: string): Promise<void> {
    await this.hit(BY_ACCOUNT_AND_ADDRESS, pair(address, email));
    await this.hit(BY_ADDRESS, address);
    await this.hit(BY_ACCOUNT, email.toLowerCase());
    await this.hit(EVERYWHERE, 'all');
  }

  /** Why the address must wait before it creates another account, or undefined. */
  async signUpWait(address: string): Promise<Wait | undefined> {
    return (
      wait(
        await this.waitMs(SETUP_CODES, address),
        'wait-setup-code',
        (s) => `Too many wrong setup codes from your address. Try again in ${s} s.`,
      ) ??
      wait(
        await this.waitMs(SIGN_UPS, address),
        'wait-sign-up',
        (s) => `Too many accounts created from your address. Try again in ${s} s.`,
      )
    );
  }

  /** Counts a wrong setup code from the address. */
  async setupCodeFailed(address: string): Promise<void> {
    await this.hit(SETUP_CODES, address);
  }

  /** Counts an account created from the address. */
  async signedUp(address: string): Promise<void> {
    await this.hit(SIGN_UPS, address);
  }
}
