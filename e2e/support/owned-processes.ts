// Servers a spec starts itself run in process groups of their own, so that one SIGKILL takes a whole server. That
// also puts them beyond the Playwright worker's own end: a test that times out before its `finally` (or a worker that
// is killed) would leave its server running, adopted by init, holding its port and its files for the rest of the run.
// Each group started here dies with the worker that started it: when the worker exits, and, should the worker be
// killed outright, by a watcher that waits on a pipe only the worker holds open.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

/** The process groups (the id of each group's first process) started by this worker and still running. */
const running = new Set<number>();

function killGroup(group: number): void {
  try {
    process.kill(-group, 'SIGKILL');
  } catch {
    // already gone
  }
}

process.on('exit', () => {
  for (const group of running) killGroup(group);
});

/** `spawn` in a process group of its own that ends with this worker, however the worker ends. */
export function spawnOwned(command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  const group = child.pid;
  if (group === undefined) return child; // not started: its 'error' event says why
  running.add(group);
  // The pipe's end is closed by the kernel when the worker goes, even by SIGKILL: `read` then returns.
  const watcher = spawn('sh', ['-c', `read line; kill -KILL -${group} 2>/dev/null`], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  watcher.unref();
  watcher.stdin?.on('error', () => {}); // nothing is written to it; a closed pipe is no failure of the test's
  (watcher.stdin as unknown as { unref(): void } | null)?.unref();
  child.once('exit', () => {
    running.delete(group);
    watcher.kill('SIGKILL');
    // What the group's first process started dies with it, not after it.
    killGroup(group);
  });
  return child;
}
