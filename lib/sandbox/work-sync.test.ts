import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostPathOf, receiveFile, removeFile } from './work-sync';

async function* bytes(text: string) {
  yield Buffer.from(text);
}

describe("the host's copy of the sandbox's files", () => {
  const root = mkdtempSync(path.join(tmpdir(), 'work-sync-'));
  const work = path.join(root, 'work');
  mkdirSync(work);

  it('takes only plain relative names', () => {
    expect(hostPathOf(work, 'a/b.csv')).toBe(path.join(work, 'a', 'b.csv'));
    for (const bad of ['', '/etc/passwd', '../x', 'a/../../x', 'a//b', './a', 'a\\b', 'a\0b', 'a/b/c/d/e/f/g/h'])
      expect(hostPathOf(work, bad), JSON.stringify(bad)).toBeUndefined();
  });

  it('stores a file, creating its directories, and leaves no temporary file behind', async () => {
    expect(await receiveFile(work, 'out/chart.png', bytes('png'))).toBe(true);
    expect(readFileSync(path.join(work, 'out', 'chart.png'), 'utf8')).toBe('png');
    expect(readdirSync(path.join(work, 'out'))).toEqual(['chart.png']);
  });

  it('never follows a symlink: one in place of a directory refuses the file, one in place of the file is replaced', async () => {
    const outside = path.join(root, 'outside');
    mkdirSync(outside);
    symlinkSync(outside, path.join(work, 'linked'));
    expect(await receiveFile(work, 'linked/evil.txt', bytes('x'))).toBe(false);
    expect(existsSync(path.join(outside, 'evil.txt'))).toBe(false);

    const target = path.join(root, 'target.txt');
    writeFileSync(target, 'original');
    symlinkSync(target, path.join(work, 'upload.csv'));
    expect(await receiveFile(work, 'upload.csv', bytes('new'))).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('original');
    expect(lstatSync(path.join(work, 'upload.csv')).isFile()).toBe(true);
  });

  it('removes only regular files', async () => {
    writeFileSync(path.join(work, 'gone.txt'), 'x');
    await removeFile(work, 'gone.txt');
    expect(existsSync(path.join(work, 'gone.txt'))).toBe(false);
    await removeFile(work, 'linked');
    expect(lstatSync(path.join(work, 'linked')).isSymbolicLink()).toBe(true);
    await removeFile(work, '../outside');
    expect(existsSync(path.join(root, 'outside'))).toBe(true);
  });
});
