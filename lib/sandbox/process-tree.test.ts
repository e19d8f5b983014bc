import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { descendantsOf, killDescendants } from './process-tree';

describe('processes under a process', () => {
  it('finds children and grandchildren, and kills all but the ones kept', async () => {
    // sh → (sleep, sh → sleep): two children and a grandchild.
    const root = spawn('sh', ['-c', 'sleep 30 & sh -c "sleep 30 & wait" & wait'], { stdio: 'ignore' });
    try {
      await expect.poll(async () => (await descendantsOf(root.pid!)).length).toBe(3);
      const [first] = await descendantsOf(root.pid!);
      expect(await killDescendants(root.pid!, new Set([first!]))).toBeGreaterThanOrEqual(1);
      expect(await descendantsOf(root.pid!)).toEqual([first]);
    } finally {
      root.kill('SIGKILL');
    }
  });
});
