// Ownership at the store: every method that takes an id or lists answers for its owner only, so B reads A's objects
// as unknown, whatever the id; what the local owner had goes whole to the first admin.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../protocol/events';
import { LOCAL_OWNER_ID, ownerScope, storageRoot } from './owner';
import { openSqliteStore } from './sqlite';
import type { ChatStore } from './types';

const A = ownerScope('user-a');
const B = ownerScope('user-b');
const HASH = 'a'.repeat(64);
const delta: AgentEvent = { type: 'text-delta', runId: 'run-a', iteration: 1, t: 1, text: 'secret answer' };

let dir: string;
let store: ChatStore;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ownership-'));
  store = openSqliteStore(path.join(dir, 'chat.db'));
});
afterEach(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A's conversation with a finished run, a document, and an API key. */
async function aliceHas() {
  const conversation = await store.createConversation(A, { title: 'Alice secret plans' });
  const turn = await store.addTurn(A, conversation.id, 'the plan');
  await store.startRun(A, turn.id, 'run-a');
  await store.appendEvent(A, 'run-a', delta);
  await store.finishRun(A, 'run-a', 'answered');
  const document = await store.addDocument(A, {
    conversationId: conversation.id,
    hash: HASH,
    name: 'plan.pdf',
    size: 3,
  });
  const key = await store.createApiKey(A, { name: 'ci', prefix: 'as_abc', hash: 'f'.repeat(64) });
  const connection = await store.addConnection(A, {
    name: 'Lab',
    baseURL: 'http://127.0.0.1:9/v1',
    apiKeyCipher: 'v1:x',
  });
  return { conversation, turn, document, key, connection };
}

describe('ownership at the store', () => {
  it('answers B about none of A’s objects: each read is unknown, each change refused, each list empty', async () => {
    const { conversation, turn, document, key, connection } = await aliceHas();

    expect(await store.getConversation(B, conversation.id)).toBeUndefined();
    expect(await store.listConversations(B)).toEqual([]);
    expect(await store.listConversations(B, 'secret')).toEqual([]);
    expect(await store.getTurn(B, turn.id)).toBeUndefined();
    expect(await store.getRun(B, 'run-a')).toBeUndefined();
    expect(await store.listRuns(B, turn.id)).toEqual([]);
    expect(await store.getDocument(B, document.id)).toBeUndefined();
    expect(await store.listDocuments(B, conversation.id)).toEqual([]);
    expect(await store.ownsUpload(B, HASH)).toBe(false);
    expect(await store.listApiKeys(B)).toEqual([]);
    expect(await store.listConnections(B)).toEqual([]);
    expect(await store.getConnection(B, connection.id)).toBeUndefined();

    const unknown = /Unknown (conversation|turn|run|document) id/;
    await expect(store.listTurns(B, conversation.id)).rejects.toThrow(unknown);
    await expect(store.getRunEvents(B, 'run-a')).rejects.toThrow(unknown);
    await expect(store.renameConversation(B, conversation.id, 'mine now')).rejects.toThrow(unknown);
    await expect(store.updateSettings(B, conversation.id, { systemMessage: 'x' })).rejects.toThrow(unknown);
    await expect(store.addTurn(B, conversation.id, 'injected')).rejects.toThrow(unknown);
    await expect(store.deleteTurnsFrom(B, conversation.id, 0)).rejects.toThrow(unknown);
    await expect(store.startRun(B, turn.id, 'run-b')).rejects.toThrow(unknown);
    await expect(store.appendEvent(B, 'run-a', delta)).rejects.toThrow(unknown);
    await expect(store.finishRun(B, 'run-a', 'error')).rejects.toThrow(unknown);
    await expect(
      store.addDocument(B, { conversationId: conversation.id, hash: HASH, name: 'x', size: 1 }),
    ).rejects.toThrow(unknown);
    await expect(store.updateDocument(B, document.id, { state: 'error', error: 'x' })).rejects.toThrow(unknown);
    expect(await store.removeDocument(B, document.id)).toBeUndefined();
    expect(await store.revokeApiKey(B, key.id)).toBe(false);
    await expect(store.updateConnection(B, connection.id, { name: 'mine' })).rejects.toThrow(/Unknown connection id/);
    await expect(store.updateConnection(null, connection.id, { name: 'mine' })).rejects.toThrow(/Unknown connection/);
    expect(await store.removeConnection(B, connection.id)).toBe(false);
    expect(await store.removeConnection(null, connection.id)).toBe(false);
    await expect(store.deleteConversation(B, conversation.id)).rejects.toThrow(unknown);

    // Nothing of A's changed.
    expect(await store.getConnection(A, connection.id)).toMatchObject({ name: 'Lab', ownerId: 'user-a' });
    expect((await store.getConversation(A, conversation.id))?.title).toBe('Alice secret plans');
    expect(await store.getRunEvents(A, 'run-a')).toEqual([delta]);
    expect((await store.listTurns(A, conversation.id)).map((t) => t.turn.content)).toEqual(['the plan']);
    expect((await store.getDocument(A, document.id))?.name).toBe('plan.pdf');
    expect((await store.listApiKeys(A))[0]?.revokedAt).toBeUndefined();
  });

  it('keeps the same bytes once and owned twice: each owner sees their record, the count covers both', async () => {
    const { document } = await aliceHas();
    const mine = await store.createConversation(B);
    const theirs = await store.addDocument(B, { conversationId: mine.id, hash: HASH, name: 'same.pdf', size: 3 });
    expect(await store.ownsUpload(B, HASH)).toBe(true);
    expect(await store.countDocumentsWithHash(HASH)).toBe(2);
    await store.removeDocument(A, document.id);
    expect(await store.ownsUpload(A, HASH)).toBe(false);
    expect(await store.getDocument(B, theirs.id)).toBeDefined();
    expect(await store.countDocumentsWithHash(HASH)).toBe(1);
  });

  it('gives the first admin what the local owner had, and nothing of anyone else', async () => {
    const local = ownerScope(LOCAL_OWNER_ID);
    const old = await store.createConversation(local, { title: 'from before accounts' });
    const { conversation } = await aliceHas();
    expect(await store.adoptLocalData(B)).toBe(1);
    expect((await store.listConversations(B)).map((c) => c.id)).toEqual([old.id]);
    expect(await store.listConversations(local)).toEqual([]);
    expect((await store.listConversations(A)).map((c) => c.id)).toEqual([conversation.id]);
    expect(await store.adoptLocalData(B)).toBe(0);
  });

  it('keeps each owner’s storage-tool keys in a folder of their own; the local owner’s stay where they were', () => {
    expect(storageRoot('/data', ownerScope(LOCAL_OWNER_ID))).toBe('/data/storage');
    expect(storageRoot('/data', A)).toBe('/data/users/user-a/storage');
    expect(storageRoot('/data', ownerScope('../../etc'))).toBe(
      `/data/users/${Buffer.from('../../etc').toString('base64url')}/storage`,
    );
  });

  it('finds an API key by its hash only, and a revoked key says so; invites are used once', async () => {
    const { key } = await aliceHas();
    expect((await store.apiKeyByHash('f'.repeat(64)))?.ownerId).toBe('user-a');
    expect(await store.apiKeyByHash('e'.repeat(64))).toBeUndefined();
    expect(await store.revokeApiKey(A, key.id)).toBe(true);
    expect((await store.apiKeyByHash('f'.repeat(64)))?.revokedAt).toBeGreaterThan(0);

    const now = Date.now();
    await store.createInvite({ hash: 'i1', createdBy: 'user-a', expiresAt: now + 1000 });
    const old = await store.createInvite({ hash: 'i2', createdBy: 'user-a', expiresAt: now - 1 });
    expect((await store.listOpenInvites(now)).map((i) => i.expiresAt)).toEqual([now + 1000]);
    expect(await store.claimInvite('i2', 'user-c', now)).toBe(false); // expired
    expect(await store.claimInvite('i1', 'user-c', now)).toBe(true);
    expect(await store.claimInvite('i1', 'user-d', now)).toBe(false); // single use
    expect(await store.openInvite('i1', now)).toBeUndefined();
    expect(await store.revokeInvite(old.id)).toBe(true);
  });

  it('keeps the server’s settings, with defaults: sign-up by invite, no code_interpreter or web tools for users', async () => {
    expect(await store.serverSettings()).toEqual({
      signUp: 'invite',
      userTools: { codeInterpreter: false, web: false },
    });
    await store.updateServerSettings({ signUp: 'open', userTools: { codeInterpreter: true, web: false } });
    expect(await store.serverSettings()).toEqual({ signUp: 'open', userTools: { codeInterpreter: true, web: false } });
  });
});
