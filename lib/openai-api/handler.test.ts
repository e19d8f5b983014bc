// The /v1 handler's answer to an error nobody expected while starting a run. No honest way was found to make the
// real chat service throw such an error with a path in it, so the service's start is made to throw as a failing
// disk would; the handler, the store and the rest of the app's context are the real ones.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyToolActor } from '../chat/actor';
import type { ChatService } from '../chat/service';
import { loadConfig } from '../config';
import { createAppContext, type AppContext } from '../server/context';
import { openSqliteStore } from '../store';
import { ownerScope } from '../store/owner';
import type { ChatStore } from '../store/types';
import { createCompletion } from './handler';

let store: ChatStore;
let ctx: AppContext;

beforeAll(async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'v1-handler-'));
  store = await openSqliteStore(path.join(dataDir, 'chat.db'));
  ctx = await createAppContext(loadConfig({ DATA_DIR: dataDir, OPENAI_API_KEY: 'k', OPENAI_MODEL: 'm' }), store);
});
afterAll(() => store.close());

describe('POST /v1/chat/completions, an unexpected error', () => {
  it('is answered without the server’s absolute paths, as a server action’s failure is', async () => {
    const failing = {
      sendMessages: () =>
        Promise.reject(new Error("ENOSPC: no space left on device, write '/srv/agent-studio/data/chat.db-wal'")),
    } as unknown as ChatService;
    const body = JSON.stringify({ model: 'fncall', messages: [{ role: 'user', content: 'hi' }] });
    const answer = await createCompletion(
      { ...ctx, chat: failing },
      everyToolActor(ownerScope('user-a')),
      body,
      'test-client',
    );
    const { error } = (await answer.json()) as { error: { message: string } };
    expect(error.message).toBe("ENOSPC: no space left on device, write '…/chat.db-wal'");
    expect(error.message).not.toContain('/srv/');
  });
});
