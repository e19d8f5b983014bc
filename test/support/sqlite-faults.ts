// Real faults under a SQLite store: another program holding the file's write lock (a `sqlite3` shell in a
// transaction), and a small tmpfs whose disk can be filled (the suite runs as root).
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A `sqlite3` shell holding the file's write lock (BEGIN IMMEDIATE) until release(). */
export async function holdWriteLock(file: string): Promise<{ release(): Promise<void> }> {
  const shell: ChildProcessWithoutNullStreams = spawn('sqlite3', [file]);
  let out = '';
  await new Promise<void>((resolve, reject) => {
    shell.once('error', reject);
    shell.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes('locked-now')) resolve();
    });
    shell.stdin.write("BEGIN IMMEDIATE;\nSELECT 'locked-now';\n");
  });
  return {
    release: () =>
      new Promise<void>((resolve) => {
        shell.once('exit', () => resolve());
        shell.stdin.end('COMMIT;\n');
      }),
  };
}

/** A tmpfs of `sizeMb` mounted for a test: fill() takes all its free space but 4 KB (to free with unfill()), and
 *  unmount() ends it. */
export function mountTmpfs(sizeMb: number, prefix: string) {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', dir]);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`This test mounts a ${sizeMb} MB tmpfs and needs root: ${(e as Error).message}`);
  }
  const filler = path.join(dir, 'filler');
  return {
    dir,
    fill() {
      const { bavail, bsize } = statfsSync(dir);
      writeFileSync(filler, Buffer.alloc(bavail * bsize - 4096));
    },
    unfill() {
      rmSync(filler, { force: true });
    },
    unmount() {
      execFileSync('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
