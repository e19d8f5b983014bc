// Whose objects a store call may see. Every store method that takes an id or lists takes an OwnerScope first, and
// its SQL filters by it, so a forgotten ownership check is impossible rather than merely tested: another owner's id
// reads as unknown (the HTTP layer answers 404). Scopes are made by the composition root (lib/server/context.ts)
// from the signed-in user, and passed down; there is no global "current user".
import path from 'node:path';

declare const SCOPE: unique symbol;

export interface OwnerScope {
  readonly ownerId: string;
  /** A scope is made by ownerScope(), never written as an object literal by accident. */
  readonly [SCOPE]: true;
}

/** Before accounts exist (and on loopback without AUTH=required), everything belongs to this built-in owner; the
 *  first admin account takes it over (ChatStore.adoptLocalData). */
export const LOCAL_OWNER_ID = 'local';

export function ownerScope(ownerId: string): OwnerScope {
  if (!ownerId) throw new Error('An owner scope needs an owner id.');
  return { ownerId } as OwnerScope;
}

/** Where the storage tool keeps an owner's keys, so that no user reads another's. The built-in local owner's stay
 *  where they were before accounts (DATA_DIR/storage); the first admin takes them over with the rest. */
export function storageRoot(dataDir: string, owner: OwnerScope): string {
  if (owner.ownerId === LOCAL_OWNER_ID) return path.join(dataDir, 'storage');
  const id = owner.ownerId;
  // One path segment: ids are the accounts library's ([A-Za-z0-9_-]); anything else is encoded.
  const segment = /^[A-Za-z0-9_-]+$/.test(id) ? id : Buffer.from(id).toString('base64url');
  return path.join(dataDir, 'users', segment, 'storage');
}
