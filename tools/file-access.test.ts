import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ToolContext } from './base-tool';
import {
  BaseToolWithFileAccess,
  defaultWorkDir,
  safeFileName,
  stagedFileName,
  stageFiles as stageWith,
} from './file-access';
import { runTool } from './run-tool';
import { toolSettings } from './settings';
import { loadConfig } from '../lib/config';

/** The tool settings of the environment as the test left it (WEB_FETCH_ALLOW_PRIVATE, DATA_DIR), made as a
 *  composition root makes them. */
const envSettings = () => toolSettings(loadConfig());
const stageFiles: typeof stageWith = (sources, workDir, opts = {}) =>
  stageWith(sources, workDir, { settings: envSettings(), ...opts });

let server: Server;
let base: string;
let tmp: string;

// The test server is on loopback, which the SSRF guard refuses by default: allowed here, refused in the last test.
const savedAllow = process.env.WEB_FETCH_ALLOW_PRIVATE;
beforeAll(async () => {
  process.env.WEB_FETCH_ALLOW_PRIVATE = '1';
  server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === '/files/report.txt') return res.end('hello report');
    if (url === '/files/..%2F..%2Fetc%2Fpasswd') return res.end('not really passwd');
    if (url === '/') return res.end('index');
    if (url === '/big-declared') {
      res.setHeader('content-length', '1000');
      return res.end('x'.repeat(1000));
    }
    if (url === '/big-streamed') {
      res.write('x'.repeat(60));
      setTimeout(() => res.end('x'.repeat(60)), 10);
      return;
    }
    if (url === '/slow') return; // never answers
    res.statusCode = 404;
    res.end('nope');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  if (savedAllow === undefined) delete process.env.WEB_FETCH_ALLOW_PRIVATE;
  else process.env.WEB_FETCH_ALLOW_PRIVATE = savedAllow;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'stage-'));
  return () => rm(tmp, { recursive: true, force: true });
});

describe('safeFileName', () => {
  it('keeps ordinary names', () => {
    expect(safeFileName('report 2024.pdf')).toBe('report 2024.pdf');
    expect(safeFileName('报告.docx')).toBe('报告.docx');
  });

  it('removes separators, parent references, control characters and leading dots', () => {
    for (const evil of ['../../etc/passwd', '..\\..\\win.ini', 'a\u0000b.txt', '.bashrc', '..', '/']) {
      const name = safeFileName(evil);
      expect(name).not.toMatch(/[/\\\u0000-\u001f]/);
      expect(name).not.toContain('..');
      expect(name.startsWith('.')).toBe(false);
      expect(name.length).toBeGreaterThan(0);
    }
    expect(safeFileName('a\u0000b.txt')).toBe('ab.txt');
    expect(safeFileName('.bashrc')).toBe('bashrc');
  });

  it('removes bidirectional override and isolate controls (U+202A–U+202E, U+2066–U+2069)', () => {
    // "invoice\u202Efdp.exe" displays as "invoiceexe.pdf".
    expect(safeFileName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    const all = [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069].map((c) =>
      String.fromCharCode(c),
    );
    expect(safeFileName(`a${all.join('')}b.txt`)).toBe('ab.txt');
    expect(safeFileName('שלום.txt')).toBe('שלום.txt'); // right-to-left text itself stays
  });

  it('shortens very long names but keeps the extension', () => {
    const name = safeFileName('a'.repeat(500) + '.pdf');
    expect(name.length).toBe(200);
    expect(name.endsWith('.pdf')).toBe(true);
  });
});

describe('stagedFileName', () => {
  it('takes the decoded last path segment of a URL, or the host for a bare URL', () => {
    expect(stagedFileName('https://example.com/docs/My%20File.pdf?x=1')).toBe('My File.pdf');
    expect(stagedFileName('https://example.com/')).toBe('example.com');
  });

  it('cannot be steered out of the directory by an encoded traversal', () => {
    expect(stagedFileName('http://h/files/..%2F..%2Fetc%2Fpasswd')).toBe('_._etc_passwd');
  });

  it('takes the basename of local and Windows paths', () => {
    expect(stagedFileName('/tmp/a/b.txt')).toBe('b.txt');
    expect(stagedFileName('C:\\Users\\me\\c.csv')).toBe('c.csv');
    expect(stagedFileName('file:///tmp/with%20space.txt')).toBe('with space.txt');
  });
});

describe('stageFiles', () => {
  it('stages two files of one name apart: the later one numbered, never over the earlier', async () => {
    const [a, b] = [path.join(tmp, 'a'), path.join(tmp, 'b')];
    await mkdir(a);
    await mkdir(b);
    await writeFile(path.join(a, 'notes.txt'), 'at nine');
    await writeFile(path.join(b, 'notes.txt'), 'at ten');
    const long = 'n'.repeat(196) + '.txt';
    await writeFile(path.join(a, long), 'long one');
    await writeFile(path.join(b, long), 'long two');
    const work = path.join(tmp, 'work');
    const sources = [path.join(a, 'notes.txt'), path.join(b, 'notes.txt'), path.join(a, long), path.join(b, long)];
    const { files, errors } = await stageFiles(sources, work, { allowLocalPaths: true });
    expect(errors).toEqual([]);
    const names = files.map((f) => path.basename(f));
    expect(names.slice(0, 2)).toEqual(['notes.txt', 'notes (2).txt']);
    expect(await readFile(files[0]!, 'utf8')).toBe('at nine');
    expect(await readFile(files[1]!, 'utf8')).toBe('at ten');
    // A name as long as a staged name may be still gets its number, whole.
    expect(names[3]).toMatch(/^n+ \(2\)\.txt$/);
    expect(names[3]!.length).toBeLessThanOrEqual(200);
    expect(await readFile(files[3]!, 'utf8')).toBe('long two');
  });

  it('copies local files (plain and file://) and downloads URLs into the work dir', async () => {
    await writeFile(path.join(tmp, 'notes.txt'), 'my notes');
    await writeFile(path.join(tmp, 'data.csv'), 'a,b');
    const work = path.join(tmp, 'work');
    const result = await stageFiles(
      [path.join(tmp, 'notes.txt'), pathToFileURL(path.join(tmp, 'data.csv')).href, `${base}/files/report.txt`],
      work,
      { allowLocalPaths: true },
    );
    expect(result.errors).toEqual([]);
    expect(result.files).toEqual([
      path.join(work, 'notes.txt'),
      path.join(work, 'data.csv'),
      path.join(work, 'report.txt'),
    ]);
    expect(await readFile(path.join(work, 'report.txt'), 'utf8')).toBe('hello report');
    expect(await readFile(path.join(work, 'notes.txt'), 'utf8')).toBe('my notes');
  });

  it('keeps a traversal name inside the work dir', async () => {
    const work = path.join(tmp, 'deep', 'work');
    const { files, errors } = await stageFiles([`${base}/files/..%2F..%2Fetc%2Fpasswd`], work);
    expect(errors).toEqual([]);
    expect(files).toEqual([path.join(work, '_._etc_passwd')]);
    expect(await readdir(path.join(tmp, 'deep'))).toEqual(['work']);
  });

  it('stages a local file with a control character in its name under a clean name', async () => {
    const evil = path.join(tmp, 'a\u0001b.txt');
    await writeFile(evil, 'ctrl');
    const { files } = await stageFiles([evil], path.join(tmp, 'w'), { allowLocalPaths: true });
    expect(files).toEqual([path.join(tmp, 'w', 'ab.txt')]);
  });

  it('collects failures instead of throwing, and stages the rest', async () => {
    const work = path.join(tmp, 'work');
    await writeFile(path.join(tmp, 'ok.txt'), 'ok');
    const result = await stageFiles(
      [path.join(tmp, 'missing.txt'), `${base}/gone.pdf`, path.join(tmp, 'ok.txt'), tmp],
      work,
      { allowLocalPaths: true },
    );
    expect(result.files).toEqual([path.join(work, 'ok.txt')]);
    expect(result.errors).toHaveLength(3);
    expect(result.errors[0]).toBe(`${path.join(tmp, 'missing.txt')}: no such file`);
    expect(result.errors[1]).toBe(`${base}/gone.pdf: download failed with HTTP 404`);
    expect(result.errors[2]).toBe(`${tmp}: not a regular file`);
  });

  it('enforces the size cap from Content-Length and while streaming', async () => {
    const work = path.join(tmp, 'work');
    const result = await stageFiles([`${base}/big-declared`, `${base}/big-streamed`], work, { maxBytes: 100 });
    expect(result.files).toEqual([]);
    expect(result.errors).toEqual([
      `${base}/big-declared: file is larger than the 100-byte limit`,
      `${base}/big-streamed: file is larger than the 100-byte limit`,
    ]);
    expect(await readdir(work)).toEqual([]);
  });

  it('gives up on a download that takes too long', async () => {
    const result = await stageFiles([`${base}/slow`], path.join(tmp, 'work'), { timeoutMs: 150 });
    expect(result.errors).toEqual([`${base}/slow: timed out after 150 ms`]);
  });

  it('re-throws when the caller aborts', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    await expect(stageFiles([`${base}/slow`], path.join(tmp, 'work'), { signal: ac.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('refuses a loopback download under the default policy', async () => {
    delete process.env.WEB_FETCH_ALLOW_PRIVATE;
    try {
      const result = await stageFiles([`${base}/files/report.txt`], path.join(tmp, 'work'));
      expect(result.files).toEqual([]);
      expect(result.errors[0]).toMatch(/files\/report\.txt: Refused to fetch 127\.0\.0\.1: loopback address/);
    } finally {
      process.env.WEB_FETCH_ALLOW_PRIVATE = '1';
    }
  });

  it('uses the host name for a URL without a path', async () => {
    const { files } = await stageFiles([`${base}/`], path.join(tmp, 'work'));
    expect(files).toEqual([path.join(tmp, 'work', '127.0.0.1')]);
  });
});

class Reader extends BaseToolWithFileAccess {
  name = 'reader';
  description = 'Reads files.';
  parameters = { type: 'object', properties: {} };
  seen?: ToolContext;
  async call(_params: string, ctx: ToolContext): Promise<string> {
    this.seen = ctx;
    const texts = await Promise.all(ctx.files.map((f) => readFile(f, 'utf8')));
    return texts.join('|');
  }
}

describe('runTool with a file-aware tool', () => {
  it('stages files first; the tool sees staged paths, its work dir and the staging errors', async () => {
    await writeFile(path.join(tmp, 'a.txt'), 'A');
    const tool = new Reader();
    const work = path.join(tmp, 'work');
    const result = await runTool(tool, '{}', {
      files: [path.join(tmp, 'a.txt'), `${base}/files/report.txt`, `${base}/nope.txt`],
      workDir: work,
      lang: 'en',
      messages: [],
      settings: { ...envSettings(), allowLocalPaths: true }, // plain local paths, as the CLI stages them
    });
    expect(result).toEqual({ ok: true, content: 'A|hello report' });
    expect(tool.fileAccess).toBe(true);
    expect(tool.seen?.workDir).toBe(work);
    expect(tool.seen?.files).toEqual([path.join(work, 'a.txt'), path.join(work, 'report.txt')]);
    expect(tool.seen?.stagingErrors).toEqual([`${base}/nope.txt: download failed with HTTP 404`]);
  });

  it('defaults the work dir to <DATA_DIR>/work/<conversation>/<tool>, with a sanitised conversation id', async () => {
    expect(defaultWorkDir(tmp, 'reader', 'conv-1')).toBe(path.join(tmp, 'work', 'conv-1', 'reader'));
    expect(defaultWorkDir(tmp, 'reader')).toBe(path.join(tmp, 'work', 'default', 'reader'));
    const escaped = defaultWorkDir(tmp, 'reader', '../../outside');
    expect(escaped.startsWith(path.join(tmp, 'work') + path.sep)).toBe(true);
    const tool = new Reader();
    await writeFile(path.join(tmp, 'b.txt'), 'B');
    const settings = { ...toolSettings(loadConfig({ DATA_DIR: tmp })), allowLocalPaths: true };
    await runTool(tool, '', {
      files: [path.join(tmp, 'b.txt')],
      conversationId: 'c9',
      lang: 'en',
      messages: [],
      settings,
    });
    expect(tool.seen?.files).toEqual([path.join(tmp, 'work', 'c9', 'reader', 'b.txt')]);
  });

  it('uses cfg.work_dir when the context names none', () => {
    const tool = new Reader({ work_dir: path.join(tmp, 'cfg-dir') });
    expect(tool.workDirFor({})).toBe(path.join(tmp, 'cfg-dir'));
    expect(tool.workDirFor({ workDir: path.join(tmp, 'ctx-dir') })).toBe(path.join(tmp, 'ctx-dir'));
  });
});

describe('staging uploaded files and refusing other local paths', () => {
  const HASH = 'c'.repeat(64);
  let saved: string | undefined;
  beforeEach(() => {
    saved = process.env.DATA_DIR;
    process.env.DATA_DIR = tmp;
    return () => {
      if (saved === undefined) delete process.env.DATA_DIR;
      else process.env.DATA_DIR = saved;
    };
  });

  it('stages an upload reference (files/<sha256>/<name>) under its real name', async () => {
    await mkdir(path.join(tmp, 'files'), { recursive: true });
    await writeFile(path.join(tmp, 'files', HASH), 'uploaded bytes');
    const work = path.join(tmp, 'work');
    const { files, errors } = await stageFiles([`files/${HASH}/Annual report.pdf`], work);
    expect(errors).toEqual([]);
    expect(files).toEqual([path.join(work, 'Annual report.pdf')]);
    expect(await readFile(files[0]!, 'utf8')).toBe('uploaded bytes');
  });

  it('refuses a local path outside DATA_DIR/files unless asked, and says why', async () => {
    await writeFile(path.join(tmp, 'secret.txt'), 'secret');
    const work = path.join(tmp, 'work');
    for (const source of [path.join(tmp, 'secret.txt'), '/etc/passwd', `files/${HASH}/../../secret.txt`]) {
      const { files, errors } = await stageFiles([source], work);
      expect(files).toEqual([]);
      expect(errors).toEqual([
        `${source}: local paths outside the uploaded files are not staged; upload the file instead`,
      ]);
    }
    expect(await readdir(work)).toEqual([]);
    const allowed = await stageFiles([path.join(tmp, 'secret.txt')], work, { allowLocalPaths: true });
    expect(allowed.files).toEqual([path.join(work, 'secret.txt')]);
  });

  it('stages stored bytes only for their owner: another user’s, by reference or by path, read as removed', async () => {
    await mkdir(path.join(tmp, 'files'), { recursive: true });
    await writeFile(path.join(tmp, 'files', HASH), 'A’s bytes');
    const work = path.join(tmp, 'work');
    const notMine = { uploadAccess: async () => false };
    for (const source of [`files/${HASH}/a.pdf`, path.join(tmp, 'files', HASH)]) {
      const { files, errors } = await stageFiles([source], work, notMine);
      expect(files).toEqual([]);
      expect(errors).toEqual([`${source}: the uploaded file no longer exists (it was removed)`]);
    }
    expect(await readdir(work)).toEqual([]);
    const mine = await stageFiles([path.join(tmp, 'files', HASH)], work, { uploadAccess: async (h) => h === HASH });
    expect(mine.errors).toEqual([]);
  });

  it('says so when an uploaded file has been removed', async () => {
    const { errors } = await stageFiles([`files/${HASH}/gone.pdf`], path.join(tmp, 'work'));
    expect(errors).toEqual([`files/${HASH}/gone.pdf: the uploaded file no longer exists (it was removed)`]);
  });
});
