// A server action, and the agent import, on a full disk (a 24 MB tmpfs holding the SQLite store, filled; the suite
// runs as root). Before, the page was told SQLite's "database or disk is full", or "Something went wrong" as if it
// were a fault to look up. Now it is told in words, coded for its language: "The server's disk is full: nothing was
// saved. Try again once space is freed." (507, as an upload on a full disk), and once space is freed the same action
// goes through. Answered as the actions answer (app/actions/action-error.ts failure, what `attempt` returns).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { failure } from '../../app/actions/action-error';
import { AGENT_EXPORT_SCHEMA, importAgent, saveAgentDefinition, saveImportedAgent } from '../../lib/chat/saved-agents';
import { openSqliteStore } from '../../lib/store';
import { ownerScope } from '../../lib/store/owner';
import type { ChatStore } from '../../lib/store/types';
import { mountTmpfs } from '../support/sqlite-faults';

const OWNER = ownerScope('owner-a');
const DISK_FULL = "The server's disk is full: nothing was saved. Try again once space is freed.";

let disk: ReturnType<typeof mountTmpfs>;
let store: ChatStore;

beforeAll(async () => {
  disk = mountTmpfs(24, 'action-disk-full-');
  store = await openSqliteStore(`${disk.dir}/agent-studio.db`);
});
afterAll(async () => {
  await store?.close();
  disk?.unmount();
});

/** What an action doing `fn` answers: its value, or its failure as the page gets it. */
async function attempt<T>(fn: () => Promise<T>) {
  try {
    return { ok: true as const, value: await fn() };
  } catch (e) {
    return failure(e);
  }
}

const exported = (name: string) =>
  JSON.stringify({ schema: AGENT_EXPORT_SCHEMA, agent: { name, kind: 'fncall', instructions: 'x'.repeat(8000) } });

describe('an action on a full disk', () => {
  it('saving an agent and importing one say the disk is full, in words and coded; once freed they go through', async () => {
    const log: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void log.push(a.map(String).join(' ')));
    disk.fill();
    try {
      const saved = await attempt(() =>
        saveAgentDefinition(store, OWNER, undefined, { name: 'Heron', kind: 'fncall', instructions: 'y'.repeat(8000) }),
      );
      expect(saved).toEqual({ ok: false, error: DISK_FULL, status: 507, code: 'disk-full' });
      const imported = await attempt(async () =>
        saveImportedAgent(store, OWNER, (await importAgent(store, OWNER, exported('Egret'))).definition),
      );
      expect(imported).toEqual({ ok: false, error: DISK_FULL, status: 507, code: 'disk-full' });
      // The server's owner reads what happened in the log.
      expect(log.filter((l) => /found the disk full: SqliteError: database or disk is full/.test(l))).toHaveLength(2);
    } finally {
      disk.unfill();
      vi.restoreAllMocks();
    }
    const again = await attempt(async () =>
      saveImportedAgent(store, OWNER, (await importAgent(store, OWNER, exported('Egret'))).definition),
    );
    expect(again).toMatchObject({ ok: true, value: { agent: { name: 'Egret' } } });
    expect((await store.listAgents(OWNER)).map((a) => a.name)).toEqual(['Egret']);
  });
});
