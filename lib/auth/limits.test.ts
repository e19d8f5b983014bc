import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../store';
import type { ChatStore } from '../store/types';
import { AccountLimits, SLOW_DOWN_MS } from './limits';

const ME = 'peer:127.0.0.1';
const others = Array.from({ length: 12 }, (_, i) => `peer:10.0.0.${i + 2}`);

let dir: string;
let file: string;
let store: ChatStore;
let clock: number;
let limits: AccountLimits;

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'limits-'));
  file = path.join(dir, 'store.db');
  store = await openSqliteStore(file);
  clock = Date.UTC(2026, 11, 5, 9);
  limits = new AccountLimits(store, () => clock);
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const failures = async (address: string, email: string, n: number) => {
  for (let i = 0; i < n; i++) await limits.signInFailed(address, email);
};

describe('sign-in lockout', () => {
  it('five wrong passwords from other addresses never lock the account out from its owner’s address', async () => {
    for (const address of others.slice(0, 5)) await limits.signInFailed(address, 'alice@example.com');
    expect(await limits.signInWait(ME, 'alice@example.com')).toBeUndefined();
    // Each guessing address may go on guessing elsewhere, but not this account past its own five.
    await failures(others[0]!, 'alice@example.com', 4);
    expect(await limits.signInWait(others[0]!, 'alice@example.com')).toMatchObject({ code: 'wait-account' });
    expect(await limits.signInWait(others[0]!, 'bob@example.com')).toBeUndefined();
    expect(await limits.signInWait(ME, 'alice@example.com')).toBeUndefined();
  });

  it('the account’s own five from one address lock that address for it (whatever the email’s case), until the window passes', async () => {
    await failures(ME, 'Alice@Example.com', 5);
    expect(await limits.signInWait(ME, 'alice@example.com')).toMatchObject({ code: 'wait-account', seconds: 300 });
    clock += 299_000;
    expect(await limits.signInWait(ME, 'alice@example.com')).toMatchObject({ code: 'wait-account', seconds: 1 });
    clock += 1_000;
    expect(await limits.signInWait(ME, 'alice@example.com')).toBeUndefined();
  });

  it('one address trying many accounts waits after ten', async () => {
    for (let i = 0; i < 10; i++) await limits.signInFailed(ME, `user${i}@example.com`);
    expect(await limits.signInWait(ME, 'someone-else@example.com')).toMatchObject({ code: 'wait-address' });
  });

  it('guesses spread over many addresses slow the account down, never refuse it', async () => {
    for (const address of others.slice(0, 9)) await limits.signInFailed(address, 'alice@example.com');
    expect(await limits.signInDelayMs('alice@example.com')).toBe(0);
    await limits.signInFailed(others[9]!, 'alice@example.com');
    expect(await limits.signInDelayMs('alice@example.com')).toBe(SLOW_DOWN_MS);
    expect(await limits.signInDelayMs('bob@example.com')).toBe(0);
    expect(await limits.signInWait(ME, 'alice@example.com')).toBeUndefined();
  });

  it('a hundred failures on the server in a minute slow every sign-in down', async () => {
    for (let i = 0; i < 100; i++) await limits.signInFailed(`peer:10.1.${i >> 8}.${i & 255}`, `u${i}@example.com`);
    expect(await limits.signInDelayMs('anyone@example.com')).toBe(SLOW_DOWN_MS);
  });

  it('a restart forgets no failure: the lock holds in the store the server opens next', async () => {
    await failures(ME, 'alice@example.com', 5);
    await store.close();
    store = await openSqliteStore(file);
    limits = new AccountLimits(store, () => clock);
    expect(await limits.signInWait(ME, 'alice@example.com')).toMatchObject({ code: 'wait-account' });
  });

  it('keeps no address or email in the database, and no more rows for a key than its limit', async () => {
    await failures('peer:203.0.113.7', 'Carol@Example.org', 30);
    await store.close();
    const db = new Database(file, { readonly: true });
    const rows = db.prepare('SELECT kind, key, at FROM auth_attempts').all() as { kind: string; key: string }[];
    db.close();
    store = await openSqliteStore(file);
    expect(JSON.stringify(rows)).not.toMatch(/203\.0\.113|carol|example/i);
    const perKind = Object.fromEntries(['account+address', 'address', 'account'].map((k) => [k, 0]));
    for (const r of rows) {
      const k = r.kind.split('/')[1];
      if (k) perKind[k] = (perKind[k] ?? 0) + 1;
    }
    expect(perKind).toEqual({ 'account+address': 5, address: 10, account: 10 });
  });

  it('forgets the attempts no limit looks at any more', async () => {
    await failures(ME, 'alice@example.com', 5);
    clock += 10 * 60_000;
    await limits.signInFailed(others[0]!, 'bob@example.com');
    const db = new Database(file, { readonly: true });
    const rows = db.prepare("SELECT at FROM auth_attempts WHERE kind LIKE 'sign-in-failure%'").all();
    db.close();
    expect(rows).toHaveLength(4);
  });
});

describe('setup code guesses', () => {
  it('ten wrong setup codes from one address make it wait before it may create an account', async () => {
    for (let i = 0; i < 10; i++) await limits.setupCodeFailed(ME);
    expect(await limits.signUpWait(ME)).toMatchObject({ code: 'wait-setup-code' });
    expect(await limits.signUpWait(others[0]!)).toBeUndefined();
  });
});
