// Ownership at the store (B reads A's objects as unknown, the local owner's go to the first admin) is part of the
// store suite, run on SQLite and PostgreSQL (test/support/store-suite.ts). Here: where an owner's files go.
import { describe, expect, it } from 'vitest';
import { LOCAL_OWNER_ID, ownerScope, storageRoot } from './owner';

const A = ownerScope('user-a');

describe('ownership of files', () => {
  it('keeps each owner’s storage-tool keys in a folder of their own; the local owner’s stay where they were', () => {
    expect(storageRoot('/data', ownerScope(LOCAL_OWNER_ID))).toBe('/data/storage');
    expect(storageRoot('/data', A)).toBe('/data/users/user-a/storage');
    expect(storageRoot('/data', ownerScope('../../etc'))).toBe(
      `/data/users/${Buffer.from('../../etc').toString('base64url')}/storage`,
    );
  });
});
