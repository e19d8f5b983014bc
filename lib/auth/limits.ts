// Guessing passwords. A lock is only ever on what the guesser controls: failed sign-ins are counted per account AND
// address (five wrong passwords for an account from one address make that address wait for that account; the real
// user, from their own address, is not locked out by anyone else's guesses) and per address across accounts (one
// address trying many accounts). Guesses spread over many addresses are slowed instead, never refused: once an account
// (or the whole server) has seen many failures lately, every sign-in attempt for it (or for anyone) waits a moment
// before its password is checked. Accounts created are counted per address too (one client cannot make them in bulk).
// Process-wide, like the run limits (lib/http/rate-limit.ts).
import { shared, SlidingWindow } from '../http/rate-limit';

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

function windowOf(name: string, { limit, windowMs }: { limit: number; windowMs: number }): SlidingWindow {
  return shared(name, () => new SlidingWindow(limit, windowMs));
}

const byAccountAndAddress = () =>
  windowOf('sign-in-failures-by-account-and-address', SIGN_IN_FAILURES_PER_ACCOUNT_AND_ADDRESS);
const byAddress = () => windowOf('sign-in-failures-by-address', SIGN_IN_FAILURES_PER_ADDRESS);
const byAccount = () => windowOf('sign-in-failures-by-account', SLOW_DOWN_PER_ACCOUNT);
const everywhere = () => windowOf('sign-in-failures', SLOW_DOWN_GLOBAL);
const signUps = () => windowOf('sign-ups-by-address', SIGN_UPS_PER_ADDRESS);
const setupCodes = () => windowOf('setup-code-failures-by-address', SETUP_CODE_FAILURES_PER_ADDRESS);

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

const pair = (address: string, email: string) => `${email.toLowerCase()}\n${address}`;

/** Why a sign-in from this address must wait now, or undefined. */
export function signInWait(address: string, email: string): Wait | undefined {
  return (
    wait(
      byAccountAndAddress().waitMs(pair(address, email)),
      'wait-account',
      (s) => `Too many failed sign-ins for this account. Try again in ${s} s (or ask the admin to reset the password).`,
    ) ??
    wait(
      byAddress().waitMs(address),
      'wait-address',
      (s) => `Too many failed sign-ins from your address. Try again in ${s} s.`,
    )
  );
}

/** How long this sign-in attempt waits before its password is checked (0, unless guesses are spread widely). */
export function signInDelayMs(email: string): number {
  const hot = byAccount().waitMs(email.toLowerCase()) > 0 || everywhere().waitMs('all') > 0;
  return hot ? SLOW_DOWN_MS : 0;
}

export function signInFailed(address: string, email: string): void {
  byAccountAndAddress().hit(pair(address, email));
  byAddress().hit(address);
  byAccount().hit(email.toLowerCase());
  everywhere().hit('all');
}

/** Why the address must wait before it creates another account, or undefined. */
export function signUpWait(address: string): Wait | undefined {
  return (
    wait(
      setupCodes().waitMs(address),
      'wait-setup-code',
      (s) => `Too many wrong setup codes from your address. Try again in ${s} s.`,
    ) ??
    wait(
      signUps().waitMs(address),
      'wait-sign-up',
      (s) => `Too many accounts created from your address. Try again in ${s} s.`,
    )
  );
}

/** Counts a wrong setup code from the address. */
export function setupCodeFailed(address: string): void {
  setupCodes().hit(address);
}

/** Counts an account created from the address. */
export function signedUp(address: string): void {
  signUps().hit(address);
}
