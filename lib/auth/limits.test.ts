import { beforeEach, describe, expect, it } from 'vitest';
import { clearLimits } from '../http/rate-limit';
import { SLOW_DOWN_MS, setupCodeFailed, signInDelayMs, signInFailed, signInWait, signUpWait } from './limits';

const ME = 'peer:127.0.0.1';
const others = Array.from({ length: 12 }, (_, i) => `peer:10.0.0.${i + 2}`);

beforeEach(() => clearLimits());

describe('sign-in lockout', () => {
  it('five wrong passwords from other addresses never lock the account out from its owner’s address', () => {
    for (const address of others.slice(0, 5)) signInFailed(address, 'alice@example.com');
    expect(signInWait(ME, 'alice@example.com')).toBeUndefined();
    // Each guessing address may go on guessing elsewhere, but not this account past its own five.
    for (let i = 0; i < 4; i++) signInFailed(others[0]!, 'alice@example.com');
    expect(signInWait(others[0]!, 'alice@example.com')).toMatchObject({ code: 'wait-account' });
    expect(signInWait(others[0]!, 'bob@example.com')).toBeUndefined();
    expect(signInWait(ME, 'alice@example.com')).toBeUndefined();
  });

  it('the account’s own five from one address lock that address for it (whatever the email’s case)', () => {
    for (let i = 0; i < 5; i++) signInFailed(ME, 'Alice@Example.com');
    expect(signInWait(ME, 'alice@example.com')).toMatchObject({ code: 'wait-account', seconds: 300 });
  });

  it('one address trying many accounts waits after ten', () => {
    for (let i = 0; i < 10; i++) signInFailed(ME, `user${i}@example.com`);
    expect(signInWait(ME, 'someone-else@example.com')).toMatchObject({ code: 'wait-address' });
  });

  it('guesses spread over many addresses slow the account down, never refuse it', () => {
    for (const address of others.slice(0, 9)) signInFailed(address, 'alice@example.com');
    expect(signInDelayMs('alice@example.com')).toBe(0);
    signInFailed(others[9]!, 'alice@example.com');
    expect(signInDelayMs('alice@example.com')).toBe(SLOW_DOWN_MS);
    expect(signInDelayMs('bob@example.com')).toBe(0);
    expect(signInWait(ME, 'alice@example.com')).toBeUndefined();
  });

  it('a hundred failures on the server in a minute slow every sign-in down', () => {
    for (let i = 0; i < 100; i++) signInFailed(`peer:10.1.${i >> 8}.${i & 255}`, `u${i}@example.com`);
    expect(signInDelayMs('anyone@example.com')).toBe(SLOW_DOWN_MS);
  });
});

describe('setup code guesses', () => {
  it('ten wrong setup codes from one address make it wait before it may create an account', () => {
    for (let i = 0; i < 10; i++) setupCodeFailed(ME);
    expect(signUpWait(ME)).toMatchObject({ code: 'wait-setup-code' });
    expect(signUpWait(others[0]!)).toBeUndefined();
  });
});
