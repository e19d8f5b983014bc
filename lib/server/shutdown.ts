// What this process does with SIGTERM and SIGINT (a deploy, docker stop, Ctrl-C): before anything else lets it go,
// the runs it drives are marked interrupted and stopped, and, on a database several instances share, its leases are
// released, so no page waits for a lease to run out to hear that those runs are over. Then the signal goes to
// whoever handled it before (`next start` drains its requests and exits), or, with nobody, ends the process as it
// would have. A kill -9 gets none of this: another instance marks those runs when their lease runs out.
import { processWide } from '../config/process-wide';

export interface ShutdownSteps {
  /** Marks and stops every run this process drives (LiveRuns.interruptAll). */
  interruptRuns(): Promise<number>;
  /** Gives up what is left (the run bus: heartbeat stopped, leases released). */
  release?(): Promise<void>;
}

/** How long the runs get to store their last events and stop before the signal goes on regardless. */
export const SHUTDOWN_WAIT_MS = 5_000;

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

let current: ShutdownSteps | undefined;

/** Makes `steps` what the next SIGTERM or SIGINT runs first (once per process; a later call replaces the steps). */
export function onShutdown(steps: ShutdownSteps): void {
  current = steps;
  processWide('shutdown-hooks', () => {
    for (const signal of SIGNALS) {
      // The handlers there were before ours (next start's) run after our steps, not beside them: theirs exits.
      const before = process.listeners(signal);
      process.removeAllListeners(signal);
      let started = false;
      const handler = () => {
        if (started) return; // a second signal while shutting down: the first one's steps are under way
        started = true;
        void runSteps(signal).finally(() => {
          if (before.length) for (const listener of before) listener(signal);
          else {
            process.removeListener(signal, handler);
            process.kill(process.pid, signal);
          }
        });
      };
      // `on`, not `once`: handlers added later (the MCP manager's) see ours still there and leave the exit to us.
      process.on(signal, handler);
    }
    return true;
  });
}

async function runSteps(signal: NodeJS.Signals): Promise<void> {
  const steps = current;
  if (!steps) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waited = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), SHUTDOWN_WAIT_MS)));
  try {
    const outcome = await Promise.race([steps.interruptRuns(), waited]);
    if (outcome === 'timeout') console.error(`[shutdown] ${signal}: runs still stopping after ${SHUTDOWN_WAIT_MS} ms`);
    else if (outcome > 0) console.error(`[shutdown] ${signal}: ${outcome} run(s) marked interrupted`);
    await steps.release?.();
  } catch (e) {
    console.error(`[shutdown] ${signal}: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    clearTimeout(timer);
  }
}
