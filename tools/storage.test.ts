import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ToolRunResult } from './run-tool';
import { runTool } from './run-tool';
import { StorageTool } from './storage';
import { TOOL_REGISTRY } from './registry';

const ctx = { files: [], lang: 'en' as const, messages: [] };
let parent: string;
let root: string;
let store: StorageTool;

beforeEach(async () => {
  parent = await mkdtemp(path.join(os.tmpdir(), 'kv-'));
  root = path.join(parent, 'root');
  store = new StorageTool({ root });
  return () => rm(parent, { recursive: true, force: true });
});

const run = (args: Record<string, unknown>): Promise<ToolRunResult> => runTool(store, JSON.stringify(args), ctx);
const text = async (args: Record<string, unknown>) => (await run(args)).content;

describe('storage', () => {
  it('is registered', () => {
    expect(TOOL_REGISTRY.get('storage')).toBe(StorageTool);
  });

  it('puts and gets a value under a path-like key, one file per key', async () => {
    expect(await text({ operate: 'put', key: '/notes/todo', value: 'buy milk' })).toBe(
      'Successfully saved notes/todo.',
    );
    expect(await text({ operate: 'get', key: '/notes/todo' })).toBe('buy milk');
    expect(await readFile(path.join(root, 'notes', 'todo'), 'utf8')).toBe('buy milk');
  });

  it('overwrites on a second put and keeps non-ASCII text', async () => {
    await run({ operate: 'put', key: 'k', value: 'one' });
    await run({ operate: 'put', key: 'k', value: '二' });
    expect(await text({ operate: 'get', key: 'k' })).toBe('二');
  });

  it('reports a missing key on get as an error the model reads', async () => {
    const result = await run({ operate: 'get', key: '/nope' });
    expect(result.ok).toBe(false);
    expect(result.content).toContain('KeyNotExistsError: Get Failed: nope does not exist');
  });

  it('deletes a key, and says when there is nothing to delete', async () => {
    await run({ operate: 'put', key: '/a', value: '1' });
    expect(await text({ operate: 'delete', key: '/a' })).toBe('Successfully deleted a');
    expect(await text({ operate: 'delete', key: '/a' })).toBe('Delete Failed: a does not exist');
    expect((await run({ operate: 'get', key: '/a' })).ok).toBe(false);
  });

  it('scans every key: value pair under a folder, sorted, with keys relative to it', async () => {
    await run({ operate: 'put', key: '/users/bob/age', value: '40' });
    await run({ operate: 'put', key: '/users/alice/age', value: '30' });
    await run({ operate: 'put', key: '/other', value: 'x' });
    expect(await text({ operate: 'scan', key: '/users' })).toBe('/alice/age: 30\n/bob/age: 40');
    expect(await text({ operate: 'scan' })).toBe('/other: x\n/users/alice/age: 30\n/users/bob/age: 40');
  });

  it('explains scans of a missing key or a single entry', async () => {
    await run({ operate: 'put', key: '/a', value: '1' });
    expect(await text({ operate: 'scan', key: '/missing' })).toBe('Scan Failed: missing does not exist.');
    expect(await text({ operate: 'scan', key: '/a' })).toBe(
      'Scan Failed: The scan operation requires passing in a folder path as the key.',
    );
  });

  it('scans an empty store without failing', async () => {
    expect(await run({ operate: 'scan', key: '/' })).toEqual({ ok: true, content: '' });
  });

  it('needs a value for put and a known operation', async () => {
    const noValue = await run({ operate: 'put', key: '/a' });
    expect(noValue.ok === false && noValue.error.kind).toBe('invalid-arguments');
    expect(noValue.content).toContain('The put operation requires a value.');
    expect(await text({ operate: 'list' })).toContain("property 'operate' must be one of: put, get, delete, scan");
  });

  it('refuses a get or put on a folder', async () => {
    await run({ operate: 'put', key: '/dir/x', value: '1' });
    expect(await text({ operate: 'get', key: '/dir' })).toContain('Get Failed: dir is a folder; use scan to list it');
    expect(await text({ operate: 'put', key: '/dir', value: '2' })).toContain('Put Failed: dir is a folder');
    expect(await text({ operate: 'put', key: '/', value: '2' })).toContain('needs a key that names an entry');
  });

  it('never lets a key leave the root', async () => {
    await writeFile(path.join(parent, 'secret'), 'top secret');
    const attempts = [
      '../secret',
      '/../secret',
      'a/../../secret',
      '//etc/passwd',
      '..',
      'a\\..\\..\\secret',
      'C:/Windows',
      'a\u0000b',
    ];
    for (const key of attempts) {
      for (const operate of ['get', 'put', 'delete', 'scan']) {
        const result = await run({ operate, key, value: 'pwned' });
        expect(result.ok, `${operate} ${JSON.stringify(key)}`).toBe(false);
        expect(result.content).toContain(`Invalid key '${key}'`);
      }
    }
    expect(await readFile(path.join(parent, 'secret'), 'utf8')).toBe('top secret');
    expect(await readdir(parent)).toEqual(['secret']);
  });

  it("defaults its root to the settings' <DATA_DIR>/storage", () => {
    expect(new StorageTool().rootIn(parent)).toBe(path.join(parent, 'storage'));
    expect(new StorageTool({ storage_root_path: root }).rootIn(parent)).toBe(root);
  });
});
