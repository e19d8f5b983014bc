// The chat application's server side, as one process-wide service over the store.
import { getStore } from '../store';
import { ChatService } from './service';

export { ChatService, titleFrom, type StartedRun } from './service';
export { browserFeed, forBrowser, storedForBrowser } from './feed';

export function getChatService(): ChatService {
  const g = globalThis as { __agentStudioChat?: ChatService };
  return (g.__agentStudioChat ??= new ChatService(getStore()));
}
