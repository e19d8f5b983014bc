// The store suite's part for model connections and saved agents (called from describeChatStore in store-suite.ts,
// so it runs against every store): what is kept and read back, who sees what, and what goes with what.
import { describe, expect, it } from 'vitest';
import type { CapabilityHints } from '../../lib/llm/capabilities';
import { LOCAL_OWNER_ID, ownerScope } from '../../lib/store/owner';
import type { AgentDefinition, ChatStore, SavedAgent } from '../../lib/store/types';

const A = ownerScope('user-a');
const B = ownerScope('user-b');

function agent(name: string, extra: Partial<AgentDefinition> = {}): AgentDefinition {
  return {
    name,
    description: `${name} helps`,
    avatar: '🤖',
    kind: 'assistant',
    systemMessage: `You are ${name}.`,
    tools: ['code_interpreter'],
    generateCfg: { temperature: 0.3, max_tokens: 512 },
    suggestions: ['Hi'],
    members: [],
    ...extra,
  };
}

function definitionOf({ id: _id, createdAt: _c, updatedAt: _u, ...definition }: SavedAgent): AgentDefinition {
  return definition;
}

export function describeModelStores(open: () => Promise<ChatStore>, reopen: () => Promise<ChatStore>): void {
  describe('model connections', () => {
    it('keeps a connection whole, lists the server-wide ones and the owner’s own oldest first, and replaces each given field', async () => {
      const store = await open();
      const shared = await store.addConnection(null, {
        name: 'Office',
        baseURL: 'http://127.0.0.1:9/v1',
        apiKeyCipher: null,
      });
      const mine = await store.addConnection(A, {
        name: 'Lab',
        baseURL: 'http://127.0.0.1:8/v1',
        apiKeyCipher: 'v1:secret',
        capabilities: { 'qwen-vl': { vision: true }, '*': { tools: false } },
        rates: { '*': { contextLength: 32768 }, 'qwen-max': { pricing: { inputPerMTok: 1.6, outputPerMTok: 6.4 } } },
      });
      await store.addConnection(B, { name: 'Bob’s', baseURL: 'http://127.0.0.1:7/v1', apiKeyCipher: null });
      expect(shared).toMatchObject({ ownerId: null, name: 'Office', apiKeyCipher: null, capabilities: {}, rates: {} });
      expect(mine).toMatchObject({
        ownerId: 'user-a',
        apiKeyCipher: 'v1:secret',
        rates: { '*': { contextLength: 32768 }, 'qwen-max': { pricing: { inputPerMTok: 1.6, outputPerMTok: 6.4 } } },
      });
      expect(mine.createdAt).toBe(mine.updatedAt);

      expect((await store.listConnections(A)).map((c) => c.name)).toEqual(['Office', 'Lab']);
      expect((await store.listConnections(B)).map((c) => c.name)).toEqual(['Office', 'Bob’s']);
      expect(await store.getConnection(B, shared.id)).toEqual(shared);

      const renamed = await store.updateConnection(A, mine.id, { name: 'Lab 2', capabilities: { x: { tools: true } } });
      expect(renamed).toMatchObject({
        name: 'Lab 2',
        baseURL: 'http://127.0.0.1:8/v1',
        apiKeyCipher: 'v1:secret',
        capabilities: { x: { tools: true } },
      });
      expect(renamed.updatedAt).toBeGreaterThan(mine.updatedAt);
      expect(renamed.rates).toEqual(mine.rates); // not given: kept
      const priced = await store.updateConnection(A, mine.id, {
        rates: { '*': { pricing: { inputPerMTok: 0.5, outputPerMTok: 2 }, contextLength: 8192 } },
      });
      expect(priced).toMatchObject({ name: 'Lab 2', capabilities: { x: { tools: true } } });
      expect(priced.rates).toEqual({ '*': { pricing: { inputPerMTok: 0.5, outputPerMTok: 2 }, contextLength: 8192 } });
      expect((await store.updateConnection(A, mine.id, { apiKeyCipher: null })).apiKeyCipher).toBeNull();
      await store.updateConnection(null, shared.id, { baseURL: 'http://127.0.0.1:10/v1' });

      const again = await reopen();
      expect(await again.getConnection(A, mine.id)).toMatchObject({
        name: 'Lab 2',
        apiKeyCipher: null,
        rates: { '*': { pricing: { inputPerMTok: 0.5, outputPerMTok: 2 }, contextLength: 8192 } },
      });
      expect((await again.getConnection(A, shared.id))?.baseURL).toBe('http://127.0.0.1:10/v1');
    });

    it('lets only the owner change their connection, and only the server scope a server-wide one', async () => {
      const store = await open();
      const shared = await store.addConnection(null, { name: 'Office', baseURL: 'http://h/v1', apiKeyCipher: null });
      const mine = await store.addConnection(A, { name: 'Lab', baseURL: 'http://l/v1', apiKeyCipher: 'v1:x' });

      expect(await store.getConnection(B, mine.id)).toBeUndefined();
      expect(await store.listConnections(B)).toEqual([shared]);
      await expect(store.updateConnection(B, mine.id, { name: 'mine' })).rejects.toThrow(
        `Unknown connection id "${mine.id}".`,
      );
      await expect(store.updateConnection(null, mine.id, { name: 'mine' })).rejects.toThrow(/Unknown connection id/);
      await expect(store.updateConnection(A, shared.id, { name: 'mine' })).rejects.toThrow(/Unknown connection id/);
      expect(await store.removeConnection(B, mine.id)).toBe(false);
      expect(await store.removeConnection(null, mine.id)).toBe(false);
      expect(await store.removeConnection(A, shared.id)).toBe(false);
      expect(await store.getConnection(A, mine.id)).toEqual(mine);
      expect(await store.getConnection(A, shared.id)).toEqual(shared);

      expect(await store.removeConnection(A, mine.id)).toBe(true);
      expect(await store.removeConnection(A, mine.id)).toBe(false);
      expect(await store.removeConnection(null, shared.id)).toBe(true);
      expect(await store.listConnections(A)).toEqual([]);
    });

    it('merges what a server taught per model, and forgets it with its connection only', async () => {
      const store = await open();
      const lab = await store.addConnection(A, { name: 'Lab', baseURL: 'http://l/v1', apiKeyCipher: null });
      const other = await store.addConnection(A, { name: 'Other', baseURL: 'http://o/v1', apiKeyCipher: null });
      expect(await store.learnedCapabilities(lab.id)).toEqual({});

      await store.learnCapabilities(lab.id, 'qwen', { tools: false });
      await store.learnCapabilities(lab.id, 'qwen', { vision: true });
      await store.learnCapabilities(lab.id, 'qwen', { tools: true });
      await store.learnCapabilities(lab.id, 'llama', { tools: false });
      await store.learnCapabilities(other.id, 'qwen', { reasoning: true });
      await store.learnCapabilities('env', 'qwen', { tools: false });
      expect(await store.learnedCapabilities(lab.id)).toEqual({
        qwen: { tools: true, vision: true },
        llama: { tools: false },
      });

      expect(await store.removeConnection(A, lab.id)).toBe(true);
      expect(await store.learnedCapabilities(lab.id)).toEqual({});
      expect(await store.learnedCapabilities(other.id)).toEqual({ qwen: { reasoning: true } });
      expect(await store.learnedCapabilities('env')).toEqual({ qwen: { tools: false } });
    });

    it('merges a lesson one level deep, the same on both databases, whatever the values', async () => {
      // Hints are flat (one boolean per capability): a lesson replaces what it names, whole, and keeps the rest. The
      // values below are no hints; they show that neither database merges deeper or drops a null.
      const store = await open();
      const learn = (hints: object) => store.learnCapabilities('env', 'qwen', hints as CapabilityHints);
      await learn({ tools: true, limits: { images: 1, audio: 2 } });
      await learn({ limits: { images: 3 }, vision: null });
      expect(await store.learnedCapabilities('env')).toEqual({
        qwen: { tools: true, limits: { images: 3 }, vision: null },
      });
    });
  });

  describe('saved agents', () => {
    it('keeps an agent’s definition whole, lists the owner’s by name (case aside), updates and deletes it', async () => {
      const store = await open();
      const helper = await store.createAgent(A, agent('helper'));
      const group = await store.createAgent(
        A,
        agent('Team', { kind: 'groupchat', members: [helper.id], selection: 'round_robin', maxRound: 4 }),
      );
      await store.createAgent(A, agent('alpha'));
      const second = await store.createAgent(A, agent('Alpha'));
      expect(group).toMatchObject({
        ...agent('Team', { kind: 'groupchat', members: [helper.id], selection: 'round_robin', maxRound: 4 }),
        id: group.id,
      });
      expect(group.createdAt).toBe(group.updatedAt);
      expect(await store.getAgent(A, helper.id)).toEqual(helper);
      // by lower-cased name, then oldest first
      expect((await store.listAgents(A)).map((a) => a.name)).toEqual(['alpha', 'Alpha', 'helper', 'Team']);

      const changed = await store.updateAgent(A, second.id, agent('zed', { tools: [], fncallMode: 'qwen' }));
      expect(changed).toMatchObject({ id: second.id, name: 'zed', tools: [], fncallMode: 'qwen' });
      expect(changed.createdAt).toBe(second.createdAt);
      expect(changed.updatedAt).toBeGreaterThan(second.updatedAt);
      expect((await store.listAgents(A)).map((a) => a.name)).toEqual(['alpha', 'helper', 'Team', 'zed']);

      expect(await store.deleteAgent(A, second.id)).toBe(true);
      expect(await store.deleteAgent(A, second.id)).toBe(false);
      await expect(store.updateAgent(A, second.id, agent('x'))).rejects.toThrow(`Unknown agent id "${second.id}".`);
      expect((await (await reopen()).listAgents(A)).map((a) => a.name)).toEqual(['alpha', 'helper', 'Team']);
    });

    it('takes a deleted agent out of the owner’s Routers and GroupChats at once, and keeps one that is the only member', async () => {
      const store = await open();
      const ada = await store.createAgent(A, agent('Ada'));
      const ben = await store.createAgent(A, agent('Ben'));
      const team = await store.createAgent(A, agent('Team', { kind: 'groupchat', members: [ada.id, ben.id] }));
      const desk = await store.createAgent(A, agent('Desk', { kind: 'router', members: [ben.id, team.id, ben.id] }));
      const solo = await store.createAgent(A, agent('Solo', { kind: 'router', members: [ada.id] }));
      // B's row naming A's agent (the store takes members as given; the service refuses another's id): never touched.
      const hers = await store.createAgent(B, agent('Hers', { kind: 'router', members: [ben.id, ada.id] }));

      // Ada is Solo's only member: nothing changes, and the refusal names who holds her.
      await expect(store.deleteAgent(A, ada.id)).rejects.toMatchObject({
        status: 409,
        code: 'agent-only-member',
        values: { name: 'Ada', holders: 'Solo' },
      });
      expect(await store.getAgent(A, ada.id)).toEqual(ada);
      expect(await store.getAgent(A, team.id)).toEqual(team);

      // Ben leaves Team and Desk (every time Desk named him), with the rest of their definitions as they were.
      expect(await store.deleteAgent(A, ben.id)).toBe(true);
      const after = await reopen();
      expect(await after.getAgent(A, team.id)).toMatchObject({ ...definitionOf(team), members: [ada.id] });
      expect(await after.getAgent(A, desk.id)).toMatchObject({ ...definitionOf(desk), members: [team.id] });
      expect((await after.getAgent(A, desk.id))!.updatedAt).toBeGreaterThan(desk.updatedAt);
      expect(await after.getAgent(A, solo.id)).toEqual(solo);
      expect(await after.getAgent(B, hers.id)).toEqual(hers);

      // B deleting (or trying to) changes none of A's.
      expect(await after.deleteAgent(B, ada.id)).toBe(false);
      expect(await after.deleteAgent(B, hers.id)).toBe(true);
      expect((await after.listAgents(A)).map((a) => [a.name, a.members.length])).toEqual([
        ['Ada', 0],
        ['Desk', 1],
        ['Solo', 1],
        ['Team', 1],
      ]);

      // A deleted user's agents all go, whoever holds whom; nobody else's.
      await after.createAgent(B, agent('Other'));
      expect(await after.deleteAllAgents(A)).toBe(4);
      expect(await after.listAgents(A)).toEqual([]);
      expect((await after.listAgents(B)).map((a) => a.name)).toEqual(['Other']);
    });

    it('answers B about none of A’s agents, and gives the first admin the local owner’s', async () => {
      const store = await open();
      const hers = await store.createAgent(A, agent('secret'));
      expect(await store.getAgent(B, hers.id)).toBeUndefined();
      expect(await store.listAgents(B)).toEqual([]);
      await expect(store.updateAgent(B, hers.id, agent('mine'))).rejects.toThrow(/Unknown agent id/);
      expect(await store.deleteAgent(B, hers.id)).toBe(false);
      expect(await store.getAgent(A, hers.id)).toEqual(hers);

      const local = ownerScope(LOCAL_OWNER_ID);
      const old = await store.createAgent(local, agent('from before accounts'));
      await store.adoptLocalData(B);
      expect(await store.listAgents(local)).toEqual([]);
      expect((await store.listAgents(B)).map((a) => a.id)).toEqual([old.id]);
      expect((await store.listAgents(A)).map((a) => a.id)).toEqual([hers.id]);
    });

    it('makes the files an agent holds its owner’s and keeps their bytes held until no agent holds them', async () => {
      const store = await open();
      const doc = (hash: string) => ({ hash, name: `${hash}.md`, size: 3 });
      const held = await store.createAgent(A, agent('librarian', { documents: [doc('h1'), doc('h2')] }));
      expect(await store.ownsUpload(A, 'h1')).toBe(true);
      expect(await store.ownsUpload(B, 'h1')).toBe(false);
      expect(await store.countDocumentsWithHash('h2')).toBe(1);

      await store.updateAgent(A, held.id, agent('librarian', { documents: [doc('h2')] }));
      expect(await store.ownsUpload(A, 'h1')).toBe(false);
      expect(await store.countDocumentsWithHash('h1')).toBe(0);
      await store.createAgent(A, agent('second', { documents: [doc('h2')] }));
      expect(await store.countDocumentsWithHash('h2')).toBe(2);

      await store.deleteAgent(A, held.id);
      expect(await store.countDocumentsWithHash('h2')).toBe(1);
      await expect(store.updateAgent(B, held.id, agent('x', { documents: [doc('h3')] }))).rejects.toThrow(
        /Unknown agent id/,
      );
      expect(await store.ownsUpload(B, 'h3')).toBe(false);

      const local = ownerScope(LOCAL_OWNER_ID);
      await store.createAgent(local, agent('old', { documents: [doc('h4')] }));
      await store.adoptLocalData(B);
      expect(await store.ownsUpload(B, 'h4')).toBe(true);
      expect(await store.ownsUpload(local, 'h4')).toBe(false);
    });
  });
}
