// Runs per client: at most MAX_CONCURRENT_RUNS going at once and MAX_RUNS_PER_MINUTE started a minute (default 120,
// lib/config: enough for an API client's test run of quick calls). Every path that starts a run (the page's server
// actions, POST /api/chat, POST /v1/chat/completions) starts it through startLimited.
import type { HttpEnvConfig } from '../config';
import { RunLimiter } from './rate-limit';

/** The limits of a configuration; the composition root makes the process's one (AppContext.runLimits). */
export function runLimiter(c: Pick<HttpEnvConfig, 'maxConcurrentRuns' | 'maxRunsPerMinute'>): RunLimiter {
  return new RunLimiter({ maxConcurrent: c.maxConcurrentRuns, perMinute: c.maxRunsPerMinute });
}

/**
 * Starts a run for `client` if its limits allow, and frees the slot when the run ends (`ended`, the registry of runs
 * in progress says when). Throws RateLimitError (HTTP 429) when they do not; a run that fails to start does not
 * count.
 */
export async function startLimited<T extends { runId: string }>(
  limiter: RunLimiter,
  client: string,
  start: () => Promise<T>,
  ended: (runId: string) => Promise<void>,
): Promise<T> {
  const slot = limiter.acquire(client);
  let started: T;
  try {
    started = await start();
  } catch (e) {
    limiter.refund(client, slot);
    throw e;
  }
  void ended(started.runId).finally(() => slot.release());
  return started;
}

/** A model call made for the client outside a run (a GroupChatCreator draft, a simulated user's line) counts as one
 *  of its runs: it takes a slot while it lasts and counts in the minute. */
export async function callLimited<T>(limiter: RunLimiter, client: string, call: () => Promise<T>): Promise<T> {
  const slot = limiter.acquire(client);
  try {
    return await call();
  } finally {
    slot.release();
  }
}
