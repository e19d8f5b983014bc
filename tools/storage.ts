// `storage`: Qwen-Agent's key-value tool, one file per key under a root directory that no key may leave.
import { mkdir, readdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BaseTool, type ToolContext } from './base-tool';
import { ToolArgumentsError } from './errors';
import { registerTool } from './registry';
import { settingsOf } from './settings';

export class KeyNotExistsError extends Error {
  override name = 'KeyNotExistsError';
}

type Operation = 'put' | 'get' | 'delete' | 'scan';

async function statOrUndefined(p: string) {
  try {
    return await stat(p);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

async function listFiles(dir: string, prefix: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const out: string[] = [];
  for (const entry of entries) {
    const rel = `${prefix}/${entry.name}`;
    if (entry.isDirectory()) out.push(...(await listFiles(path.join(dir, entry.name), rel)));
    else if (entry.isFile()) out.push(rel);
  }
  return out;
}

export class StorageTool extends BaseTool {
  name = 'storage';
  description =
    'A small persistent key-value store for text. Keys look like file paths (e.g. /notes/todo). ' +
    "put saves a value under a key, get reads it, delete removes it, scan lists every 'key: value' under a folder key.";
  parameters = {
    type: 'object',
    properties: {
      operate: {
        type: 'string',
        enum: ['put', 'get', 'delete', 'scan'],
        description: 'What to do: put, get, delete or scan.',
      },
      key: {
        type: 'string',
        default: '/',
        description:
          'Path-like key identifying the value; choose clear, unique paths when saving. Defaults to the root, /.',
      },
      value: { type: 'string', description: 'The text to save; only for put.' },
    },
    required: ['operate'],
  };

  /** cfg.root (or upstream's cfg.storage_root_path), else <dataDir>/storage (the settings' DATA_DIR). */
  rootIn(dataDir: string): string {
    const configured = this.cfg.root ?? this.cfg.storage_root_path;
    return path.resolve(typeof configured === 'string' ? configured : path.join(dataDir, 'storage'));
  }

  /** The key without its leading '/', and the file it maps to; rejects keys that would leave the root. */
  resolveKey(key: string, root: string): { key: string; file: string } {
    const rel = key.startsWith('/') ? key.slice(1) : key;
    const invalid = () =>
      new ToolArgumentsError(
        `Invalid key '${key}': keys are paths inside the store; '..' segments, absolute paths and backslashes are not allowed.`,
      );
    if (/[\u0000-\u001f\u007f\\]/.test(rel) || path.isAbsolute(rel) || /^[A-Za-z]:/.test(rel)) throw invalid();
    if (rel.split('/').includes('..')) throw invalid();
    const file = path.resolve(root, rel);
    if (file !== root && !file.startsWith(root + path.sep)) throw invalid();
    return { key: rel, file };
  }

  async call(params: string, ctx?: Pick<ToolContext, 'settings'>): Promise<string> {
    const args = this.parseArgs<{ operate: Operation; key?: string; value?: string }>(params);
    const root = this.rootIn(settingsOf(ctx).dataDir);
    const { key, file } = this.resolveKey(args.key ?? '/', root);
    switch (args.operate) {
      case 'put':
        if (typeof args.value !== 'string') throw new ToolArgumentsError('The put operation requires a value.');
        return this.put(key, file, args.value);
      case 'get':
        return this.get(key, file);
      case 'delete':
        return this.delete(key, file);
      default:
        return this.scan(key, file, root);
    }
  }

  private async put(key: string, file: string, value: string): Promise<string> {
    if (!key || key.endsWith('/'))
      throw new ToolArgumentsError('The put operation needs a key that names an entry, e.g. /notes/todo.');
    if ((await statOrUndefined(file))?.isDirectory()) throw new Error(`Put Failed: ${key} is a folder`);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, value, 'utf8');
    return `Successfully saved ${key}.`;
  }

  private async get(key: string, file: string): Promise<string> {
    const info = await statOrUndefined(file);
    if (!info) throw new KeyNotExistsError(`Get Failed: ${key} does not exist`);
    if (info.isDirectory()) throw new Error(`Get Failed: ${key || '/'} is a folder; use scan to list it`);
    return readFile(file, 'utf8');
  }

  private async delete(key: string, file: string): Promise<string> {
    const info = await statOrUndefined(file);
    if (!info) return `Delete Failed: ${key} does not exist`;
    if (info.isDirectory()) return `Delete Failed: ${key || '/'} is a folder`;
    await unlink(file);
    return `Successfully deleted ${key}`;
  }

  private async scan(key: string, file: string, root: string): Promise<string> {
    await mkdir(root, { recursive: true });
    const info = await statOrUndefined(file);
    if (!info) return `Scan Failed: ${key} does not exist.`;
    if (!info.isDirectory()) return 'Scan Failed: The scan operation requires passing in a folder path as the key.';
    const keys = await listFiles(file, '');
    const lines = await Promise.all(keys.map(async (k) => `${k}: ${await readFile(path.join(file, k), 'utf8')}`));
    return lines.join('\n');
  }
}

registerTool('storage')(StorageTool);
