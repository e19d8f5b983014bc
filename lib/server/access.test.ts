import { describe, expect, it } from 'vitest';
import { makeViewer, type Viewer } from '../auth/viewer';
import { ownerScope } from '../store/owner';
import { authorize, KEY_NOT_HERE, KEY_READ_ONLY, NOT_ADMIN, type AccessRule } from './access';
import { scopeOfKey } from '../auth/api-keys';

const tools = { codeInterpreter: false, web: false };
const viewer = (over: Partial<Parameters<typeof makeViewer>[0]> = {}): Viewer =>
  makeViewer({ owner: ownerScope('u1'), admin: false, via: 'session', userTools: tools, ...over });
const rule = (over: Partial<AccessRule> = {}): AccessRule => ({ who: 'user', what: 'x', ...over });

describe('the one access check', () => {
  it('passes a refusal from the accounts on (nobody signed in, a disabled account)', () => {
    expect(authorize(rule(), { status: 401, message: 'Sign in to use this app.' })).toEqual({
      status: 401,
      message: 'Sign in to use this app.',
    });
  });

  it('admin rules: the admin only', () => {
    expect(authorize(rule({ who: 'admin' }), viewer())).toEqual({ status: 403, message: NOT_ADMIN });
    expect(authorize(rule({ who: 'admin' }), viewer({ admin: true }))).toMatchObject({ userId: 'u1' });
  });

  it('API keys: only where the rule names a scope, and only of that scope (run covers read)', () => {
    const read = viewer({ via: 'api-key', keyScope: 'read' });
    const run = viewer({ via: 'api-key', keyScope: 'run' });
    expect(authorize(rule(), run)).toEqual({ status: 403, message: KEY_NOT_HERE });
    expect(authorize(rule({ key: 'run' }), read)).toEqual({ status: 403, message: KEY_READ_ONLY });
    expect(authorize(rule({ key: 'read' }), read)).toBe(read);
    expect(authorize(rule({ key: 'read' }), run)).toBe(run);
    expect(authorize(rule({ key: 'run' }), run)).toBe(run);
    // An admin's key is no more than a user's: never on an admin's rule.
    expect(authorize(rule({ who: 'admin' }), viewer({ via: 'api-key', keyScope: 'run', admin: true }))).toEqual({
      status: 403,
      message: KEY_NOT_HERE,
    });
  });

  it('a key’s scope is written in the key; keys from before scopes keep running', () => {
    expect(scopeOfKey('as_read_AbCdEf')).toBe('read');
    expect(scopeOfKey('as_run_AbCdEf')).toBe('run');
    expect(scopeOfKey('as_Ab3dEf')).toBe('run');
  });
});
