// What a deleted user leaves behind goes with them: their conversations (runs stopped first; uploaded files and
// tools' work directories with them, as when they delete one), hence every model choice stored with those
// conversations (a local GGUF or any other); their saved agents; their own model connections (with what their
// servers taught, and their encrypted keys); their API keys (revoked); the storage tool's keys. Nothing is
// reassigned. The server-wide things (the admin's connections, the GGUF files of DATA_DIR/models) are nobody's own
// and stay.
import { rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import type { LiveRuns } from '../chat/live-runs';
import { storageRoot, type OwnerScope } from '../store/owner';
import type { ChatStore } from '../store/types';
import type { DocumentService } from '../uploads/service';

export interface RemovedUserData {
  conversations: number;
  agents: number;
  connections: number;
  apiKeys: number;
}

export async function removeUserData(
  deps: { store: ChatStore; runs: LiveRuns; uploads: DocumentService; dataDir: string },
  owner: OwnerScope,
): Promise<RemovedUserData> {
  const { store, runs, uploads } = deps;
  const conversations = await store.listConversations(owner);
  for (const c of conversations) {
    await runs.stopConversation(owner, c.id);
    await uploads.deleteConversation(owner, c.id);
  }
  // All at once: one by one, a GroupChat's last member could not go before the group.
  const agents = await store.deleteAllAgents(owner);
  // listConnections shows the server-wide ones too: only the user's own go.
  const connections = (await store.listConnections(owner)).filter((c) => c.ownerId === owner.ownerId);
  for (const c of connections) await store.removeConnection(owner, c.id);
  const keys = (await store.listApiKeys(owner)).filter((k) => !k.revokedAt);
  for (const k of keys) await store.revokeApiKey(owner, k.id);
  const storage = storageRoot(deps.dataDir, owner);
  await rm(storage, { recursive: true, force: true });
  await rmdir(path.dirname(storage)).catch(() => undefined); // their folder, once nothing else is in it
  return {
    conversations: conversations.length,
    agents,
    connections: connections.length,
    apiKeys: keys.length,
  };
}
