import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalBlobStore } from '../blob';
import { artifactResponse } from './artifact-response';
import { artifactUrl, isInlineImage, mimeOf, resolveInside, snapshotDir, writtenFiles } from './files';
import { formatOutcome } from './format';

describe('work directory files', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'sandbox-files-'));
  const work = path.join(root, 'work');
  mkdirSync(path.join(work, 'out'), { recursive: true });
  writeFileSync(path.join(work, 'a.txt'), 'a');
  writeFileSync(path.join(root, 'secret.txt'), 'secret');
  symlinkSync(path.join(root, 'secret.txt'), path.join(work, 'link.txt'));

  it('lists files that are new or changed since the snapshot', async () => {
    const before = await snapshotDir(work);
    writeFileSync(path.join(work, 'out', 'plot.png'), 'png');
    writeFileSync(path.join(work, 'a.txt'), 'changed');
    expect(writtenFiles(before, await snapshotDir(work))).toEqual([
      { name: 'a.txt', bytes: 7 },
      { name: 'out/plot.png', bytes: 3 },
    ]);
  });

  it('resolves only paths inside the directory (no .., no symlink out)', async () => {
    expect(await resolveInside(work, ['a.txt'])).toBe(path.join(work, 'a.txt'));
    expect(await resolveInside(work, ['..', 'secret.txt'])).toBeUndefined();
    expect(await resolveInside(work, ['out/../../secret.txt'])).toBeUndefined();
    expect(await resolveInside(work, ['link.txt'])).toBeUndefined();
    expect(await resolveInside(work, ['missing'])).toBeUndefined();
    expect(await resolveInside(work, [])).toBeUndefined();
  });

  it('serves only files inside the directory (no .., no symlink out)', async () => {
    const serve = (segments: string[]) => artifactResponse(new LocalBlobStore(root), 'work/', segments);
    const ok = await serve(['out', 'plot.png']);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('png');
    for (const bad of [
      ['..', 'secret.txt'],
      ['out/../../secret.txt'],
      ['link.txt'],
      ['missing'],
      [],
      ['x'.repeat(2000)],
    ])
      expect((await serve(bad)).status, bad.join('/')).toBe(404);
  });

  it('types files by name and shows only raster images inline', () => {
    expect(mimeOf('plot.PNG')).toBe('image/png');
    expect(mimeOf('data.csv')).toBe('text/csv; charset=utf-8');
    expect(mimeOf('blob')).toBe('application/octet-stream');
    expect(isInlineImage('image/png')).toBe(true);
    expect(isInlineImage('image/svg+xml')).toBe(false);
    expect(artifactUrl('c 1', 'out/a b.png')).toBe('/api/artifacts/c%201/out/a%20b.png');
  });
});

describe('formatOutcome', () => {
  const empty = { text: '', cut: 0 };
  it('says "Finished execution." when nothing was printed or returned', () => {
    expect(formatOutcome({ kind: 'done', stdout: empty, stderr: empty, result: null })).toBe('Finished execution.');
  });
  it('notes how much output was cut', () => {
    const out = formatOutcome({ kind: 'done', stdout: { text: 'abc', cut: 10 }, stderr: empty, result: null });
    expect(out).toBe('stdout:\n\n```\nabc\n[… output cut: 10 more characters not shown]\n```');
  });
  it('explains timeouts and memory overruns, and that the interpreter restarted', () => {
    expect(formatOutcome({ kind: 'timeout', timeoutMs: 30_000 })).toContain(
      'Timeout: Code execution exceeded the time limit.\n```\n\nThe limit is 30 s. The interpreter was restarted',
    );
    expect(formatOutcome({ kind: 'memory', limitMb: 700 })).toContain('MemoryError');
  });
});
