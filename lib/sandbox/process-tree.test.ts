import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { descendantsOf, killDescendants } from './process-tree';

describe('processes under a process', () => {
  it('finds children and grandchildren, and kills all but the ones kept', async () => {
    // sh → (sleep, sh → sleep): two children and a grandchild.
    const root = spawn('sh', ['-c', 'sleep 30 & sh -c "sleep 30 & wait" & wait'], { stdio: 'ignore' });
    try {
      await expect.poll(async () => (await descendantsOf(root.pid!)).length).toBe(3);
      // Keep the root's own sleep: a leaf, so killing the others cannot end it (keeping the inner sh would not do:
      // its `wait` returns once its sleep is killed, and it exits).
      const keep = await directChildSleep(root.pid!);
      expect(await killDescendants(root.pid!, new Set([keep]))).toBeGreaterThanOrEqual(1);
      expect(await descendantsOf(root.pid!)).toEqual([keep]);
    } finally {
      root.kill('SIGKILL');
    }
  });
});

async function directChildSleep(root: number): Promise<number> {
  for (const pid of await descendantsOf(root)) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const [comm, rest] = [
      stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
      stat.slice(stat.lastIndexOf(')') + 2),
    ];
    if (comm === 'sleep' && Number(rest.split(' ')[1]) === root) return pid;
  }
  throw new Error(`no sleep directly under ${root}`);
}
