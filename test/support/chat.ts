// The chat service as the app builds it (lib/server/context.ts), over a test's own store and agents.
import type { AgentEvent } from '../../lib/agent';
import type { AgentFactory } from '../../lib/chat/agents';
import type { ChatService } from '../../lib/chat/service';
import { loadConfig } from '../../lib/config';
import { createAppContext, type AppContext } from '../../lib/server/context';
import type { OwnerScope } from '../../lib/store/owner';
import type { ChatStore } from '../../lib/store/types';

export function chatContext(
  store: ChatStore,
  agents: AgentFactory,
  env: Record<string, string> = {},
): Promise<AppContext> {
  return createAppContext(loadConfig({ DATA_DIR: env.DATA_DIR ?? process.env.DATA_DIR, ...env }), store, { agents });
}

/** Every event of the owner's run in progress, from its first (attached now, read when the caller reads). */
export function follow(
  chat: ChatService,
  owner: OwnerScope,
  runId: string,
  opts?: Parameters<ChatService['runs']['follow']>[2],
): AsyncGenerator<AgentEvent> {
  const attached = chat.runs.follow(owner, runId, opts);
  return (async function* () {
    const events = await attached;
    if (!events) throw new Error(`run ${runId} is not in progress`);
    yield* events;
  })();
}

export async function drain(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}
