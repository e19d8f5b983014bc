import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from './schema.sql';
import { openSqliteStore } from './sqlite';
import type { ChatStore } from './types';

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
      expect((await upgraded.getConversation('c1'))?.title).toBe('Old chat');
      expect((await upgraded.addDocument({ conversationId: 'c1', hash: HASH, name: 'a.pdf', size: 1 })).state).toBe(
        'parsing',
      );
    } finally {
      await upgraded.close();
    }
  });
});
