// Processes under a given process, read from /proc (Linux). The host's own check that a sandbox left nothing
// running: it does not rely on anything inside the sandbox.
import { readdir, readFile } from 'node:fs/promises';

/** pid → parent pid of every live process visible in /proc (zombies, already dead, are left out). */
async function parents(): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  const entries = await readdir('/proc').catch(() => [] as string[]);
  await Promise.all(
    entries
      .filter((e) => /^\d+$/.test(e))
      .map(async (e) => {
        const stat = await readFile(`/proc/${e}/stat`, 'latin1').catch(() => undefined);
        if (!stat) return;
        // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
        const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        if (state !== 'Z' && state !== 'X' && Number.isInteger(Number(ppid))) out.set(Number(e), Number(ppid));
      }),
  );
  return out;
}

/** Every descendant of `root` (children, their children, …), nearest first. */
export async function descendantsOf(root: number): Promise<number[]> {
  const tree = await parents();
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of tree) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const out: number[] = [];
  const queue = [...(children.get(root) ?? [])];
  while (queue.length) {
    const pid = queue.shift()!;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** SIGKILLs every descendant of `root` except `keep`, until none is left (or after a few rounds); the count killed. */
export async function killDescendants(root: number, keep: ReadonlySet<number>): Promise<number> {
  let killed = 0;
  for (let round = 0; round < 20; round++) {
    const extra = (await descendantsOf(root)).filter((pid) => !keep.has(pid));
    if (!extra.length) break;
    for (const pid of extra) {
      try {
        process.kill(pid, 'SIGKILL');
        killed++;
      } catch {
        // already gone
      }
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  return killed;
}
