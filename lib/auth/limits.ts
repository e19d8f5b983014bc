// Guessing passwords: failed sign-ins are counted per address and per account, and past either limit further tries
// are refused for a while with a message that says which and for how long. Accounts created are counted per address
// too (one client cannot make them in bulk). Process-wide, like the run limits (lib/http/rate-limit.ts).
import { shared, SlidingWindow } from '../http/rate-limit';

export const SIGN_IN_FAILURES_PER_ADDRESS = { limit: 10, windowMs: 60_000 };
export const SIGN_IN_FAILURES_PER_ACCOUNT = { limit: 5, windowMs: 5 * 60_000 };
export const SIGN_UPS_PER_ADDRESS = { limit: 10, windowMs: 3600_000 };

function windowOf(name: string, { limit, windowMs }: { limit: number; windowMs: number }): SlidingWindow {
  return shared(name, () => new SlidingWindow(limit, windowMs));
}

const byAddress = () => windowOf('sign-in-failures-by-address', SIGN_IN_FAILURES_PER_ADDRESS);
const byAccount = () => windowOf('sign-in-failures-by-account', SIGN_IN_FAILURES_PER_ACCOUNT);
const signUps = () => windowOf('sign-ups-by-address', SIGN_UPS_PER_ADDRESS);

export interface Wait {
  seconds: number;
  message: string;
  /** Which limit, as a code the page says in its language (with `seconds`). */
  code: 'wait-account' | 'wait-address' | 'wait-sign-up';
}

function wait(ms: number, code: Wait['code'], message: (s: number) => string): Wait | undefined {
  if (ms <= 0) return undefined;
  const seconds = Math.ceil(ms / 1000);
  return { seconds, message: message(seconds), code };
}

/** Why a sign-in must wait now, or undefined. */
export function signInWait(address: string, email: string): Wait | undefined {
  return (
    wait(
      byAccount().waitMs(email.toLowerCase()),
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

export function signInFailed(address: string, email: string): void {
  byAccount().hit(email.toLowerCase());
  byAddress().hit(address);
}

/** Why the address must wait before it creates another account, or undefined. */
export function signUpWait(address: string): Wait | undefined {
  return wait(
    signUps().waitMs(address),
    'wait-sign-up',
    (s) => `Too many accounts created from your address. Try again in ${s} s.`,
  );
}

/** Counts an account created from the address. */
export function signedUp(address: string): void {
  signUps().hit(address);
}
