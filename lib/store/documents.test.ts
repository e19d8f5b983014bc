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
  it("records an upload as parsing, then ready with its pages, and lists a conversation's documents in order", async () => {
    const c = await store.createConversation(OWNER);
    const a = await store.addDocument(OWNER, { conversationId: c.id, hash: HASH, name: 'report.pdf', size: 1234 });
    expect(a).toMatchObject({ conversationId: c.id, name: 'report.pdf', size: 1234, state: 'parsing' });
    expect(a.ref).toBe(`files/${HASH}/report.pdf`);
    const b = await store.addDocument(OWNER, { conversationId: c.id, hash: 'b'.repeat(64), name: 'x.txt', size: 3 });
    await store.updateDocument(OWNER, a.id, { state: 'ready', kind: 'pdf', pages: 12, title: 'Annual report' });
    await store.updateDocument(OWNER, b.id, { state: 'error', error: 'x.txt is empty (0 bytes).' });
    expect((await store.listDocuments(OWNER, c.id)).map((d) => [d.name, d.state, d.pages ?? d.error])).toEqual([
      ['report.pdf', 'ready', 12],
      ['x.txt', 'error', 'x.txt is empty (0 bytes).'],
    ]);
    expect(await store.getDocument(OWNER, a.id)).toMatchObject({ kind: 'pdf', title: 'Annual report' });
    expect(await store.listDocuments(OWNER, (await store.createConversation(OWNER)).id)).toEqual([]);
  });

  it('removes a record and counts the records sharing the same bytes', async () => {
    const c1 = await store.createConversation(OWNER);
    const c2 = await store.createConversation(OWNER);
    const a = await store.addDocument(OWNER, { conversationId: c1.id, hash: HASH, name: 'a.pdf', size: 1 });
    await store.addDocument(OWNER, { conversationId: c2.id, hash: HASH, name: 'same-bytes.pdf', size: 1 });
    expect(await store.countDocumentsWithHash(HASH)).toBe(2);
    expect((await store.removeDocument(OWNER, a.id))?.name).toBe('a.pdf');
    expect(await store.removeDocument(OWNER, a.id)).toBeUndefined();
    expect(await store.countDocumentsWithHash(HASH)).toBe(1);
  });

  it('refuses a document for an unknown conversation, and drops documents with their conversation', async () => {
    await expect(store.addDocument(OWNER, { conversationId: 'nope', hash: HASH, name: 'a', size: 1 })).rejects.toThrow(
      'Unknown conversation id "nope".',
    );
    const c = await store.createConversation(OWNER);
    await store.addDocument(OWNER, { conversationId: c.id, hash: HASH, name: 'a.pdf', size: 1 });
    await store.deleteConversation(OWNER, c.id);
    expect(await store.countDocumentsWithHash(HASH)).toBe(0);
    await expect(store.updateDocument(OWNER, 'nope', { state: 'error', error: 'x' })).rejects.toThrow(
      'Unknown document id "nope".',
    );
  });

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
