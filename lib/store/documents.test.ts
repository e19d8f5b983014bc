import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from './schema.sql';
import { openSqliteStore } from './sqlite';
import type { ChatStore } from './types';
import { LOCAL_OWNER_ID, ownerScope } from './owner';

const OWNER = ownerScope('owner-a');

let dir: string;
let store: ChatStore;
const HASH = 'a'.repeat(64);

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-store-'));
  store = openSqliteStore(path.join(dir, 'db.sqlite'));
});
afterEach(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('documents in the SQLite store', () => {
  it('brings a database made before documents existed up to date, keeping its conversations', async () => {
    const file = path.join(dir, 'old.sqlite');
    const old = new Database(file);
    old.exec(MIGRATIONS[0]!);
    old.pragma('user_version = 1');
    old
      .prepare(
        "INSERT INTO conversations (id, title, created_at, updated_at, settings_json) VALUES ('c1', 'Old chat', 1, 1, '{}')",
      )
      .run();
    await old.close();
    const upgraded = openSqliteStore(file);
    try {
      // What was written before accounts is the built-in local owner's.
      expect((await upgraded.getConversation(ownerScope(LOCAL_OWNER_ID), 'c1'))?.title).toBe('Old chat');
      expect(await upgraded.getConversation(OWNER, 'c1')).toBeUndefined();
      expect(
        (
          await upgraded.addDocument(ownerScope(LOCAL_OWNER_ID), {
            conversationId: 'c1',
            hash: HASH,
            name: 'a.pdf',
            size: 1,
          })
        ).state,
      ).toBe('parsing');
    } finally {
      await upgraded.close();
    }
  });
});
