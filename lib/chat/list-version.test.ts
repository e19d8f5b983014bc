import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '../store';
import { ownerScope, type OwnerScope } from '../store/owner';
import type { ChatStore } from '../store/types';
import { listVersion } from './list-version';

const A = ownerScope('owner-a');
const B = ownerScope('owner-b');

/** A later millisecond than the last write's (a conversation moves up by its time). */
const tick = () => new Promise((resolve) => setTimeout(resolve, 3));

describe('listVersion: what a window in view follows of its owner’s conversation list', () => {
  it('changes with each conversation made, moved up, renamed or deleted, and never with another owner’s', async () => {
    const store: ChatStore = await openSqliteStore(
      path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'list-version-')), 'chat.db'),
    );
    const version = async (owner: OwnerScope) => listVersion(await store.listConversations(owner));
    await store.createConversation(B, { title: 'B’s own' });
    const seen = { a: [await version(A)], b: await version(B) };
    const changed = async () => {
      const now = await version(A);
      expect(seen.a).not.toContain(now);
      seen.a.push(now);
      expect(await version(B)).toBe(seen.b);
    };

    const first = await store.createConversation(A, { title: 'First' });
    await changed();
    await tick();
    const second = await store.createConversation(A, { title: 'Second' });
    await changed();
    await tick();
    await store.addTurnWithRun(A, first.id, 'A message that moves it up', 'run-1');
    await changed();
    await store.renameConversation(A, second.id, 'Second, renamed');
    await changed();
    await store.deleteConversation(A, first.id);
    await changed();
    // Nothing the list shows: the same version.
    await store.updateSettings(A, second.id, { systemMessage: 'Be brief.' });
    expect(await version(A)).toBe(seen.a.at(-1));
  });
});
