import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { makePdf, textPage } from '../../test/support/pdf-writer';
import { loadDocument } from './load';
import { parseDocumentBytes } from './parse';

let tmp: string;
const limits = { uploadMaxBytes: 10_000, unzippedMaxBytes: 1_000_000 };

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'load-'));
  return () => rm(tmp, { recursive: true, force: true });
});

describe('loadDocument', () => {
  it('parses once: the second load of the same bytes (under another name) comes from the cache by hash', async () => {
    const cacheDir = path.join(tmp, 'parsed');
    const file = path.join(tmp, 'a.pdf');
    await writeFile(file, makePdf([textPage('Cached', ['body text'])]));
    const first = await loadDocument(file, 'a.pdf', { limits, cacheDir });
    expect(first.kind).toBe('pdf');
    expect(await readdir(cacheDir)).toEqual([`${first.hash}.json`]);

    // Mark the cached copy: if the second load parsed again, the mark would be gone.
    const cacheFile = path.join(cacheDir, `${first.hash}.json`);
    const cached = JSON.parse(await readFile(cacheFile, 'utf8'));
    cached.doc.pages[0].paragraphs.push('from the cache');
    await writeFile(cacheFile, JSON.stringify(cached));
    const copy = path.join(tmp, 'copy.bin');
    await writeFile(copy, await readFile(file));
    const second = await loadDocument(copy, 'Renamed.pdf', { limits, cacheDir });
    expect(second.name).toBe('Renamed.pdf');
    expect(second.pages[0]!.paragraphs).toEqual(['Cached', 'body text', 'from the cache']);
  });

  it('gives each bad input its own readable error', async () => {
    const cases: [string, Buffer | string, string, RegExp][] = [
      ['empty.txt', '', 'empty', /^empty\.txt is empty \(0 bytes\)\.$/],
      ['big.txt', 'x'.repeat(10_001), 'too-large', /^big\.txt is 9\.8 KB, over the 9\.8 KB limit per file\.$/],
      ['blank.md', '\n\n   \n', 'empty', /^blank\.md has no text to read\.$/],
      ['fake.pdf', '%PDF-1.7\ngarbage', 'corrupt', /^fake\.pdf is a corrupt PDF/],
    ];
    for (const [name, body, code, message] of cases) {
      await writeFile(path.join(tmp, name), body);
      await expect(loadDocument(path.join(tmp, name), name, { limits, cacheDir: false })).rejects.toMatchObject({
        code,
        message: expect.stringMatching(message),
      });
    }
    await expect(loadDocument(path.join(tmp, 'missing.pdf'), 'missing.pdf', { limits })).rejects.toMatchObject({
      code: 'not-found',
      message: 'missing.pdf: the file cannot be read.',
    });
  });

  it('reads Chinese text saved as GBK, HTML and CSV through the whole pipeline, deciding each kind from the bytes', async () => {
    const gbk = Buffer.from('b8dbbfdac4eab6c8b1a8b8e6a3babcafd7b0cfe4cdcccdc2c1bfd4f6b3a4', 'hex');
    const files: [string, Buffer][] = [
      ['报告.txt', Buffer.concat([gbk, Buffer.from('\r\n\r\n'), gbk])],
      [
        'page.txt',
        Buffer.from('<!DOCTYPE html><html><head><title>潮汐表</title></head><body><p>高潮 06:12</p></body></html>'),
      ],
      ['data', Buffer.from('港口,吨\n潮镇,4200\n鸥岩,1300\n')],
    ];
    const docs = [];
    for (const [name, bytes] of files) {
      await writeFile(path.join(tmp, 'f'), bytes);
      docs.push(await loadDocument(path.join(tmp, 'f'), name, { limits, cacheDir: false }));
    }
    expect(docs.map((d) => [d.kind, d.title, d.pages])).toEqual([
      [
        'text',
        undefined,
        [{ page: 1, paragraphs: ['港口年度报告：集装箱吞吐量增长', '港口年度报告：集装箱吞吐量增长'] }],
      ],
      ['html', '潮汐表', [{ page: 1, paragraphs: ['高潮 06:12'] }]],
      ['csv', undefined, [{ page: 1, paragraphs: ['| 港口 | 吨 |\n| --- | --- |\n| 潮镇 | 4200 |\n| 鸥岩 | 1300 |'] }]],
    ]);
  });

  it('reads a CSV as a stream into exactly what its bytes read whole give, in any encoding it is sniffed in', async () => {
    const big = { uploadMaxBytes: 10 * 1024 * 1024, unzippedMaxBytes: 1_000_000 };
    // Over two pieces of 1 MB: a multi-byte character, a quoted line break and a doubled quote straddle the cuts.
    const row = (i: number) => `${i},"Café ${i}, ""quoted""","two\nlines",港口${i % 7}\n`;
    let text = 'n,name,note,port\n';
    for (let i = 0; text.length < 1.5 * 1024 * 1024; i++) text += row(i);
    const files: [string, Buffer][] = [
      ['utf8.csv', Buffer.from(text, 'utf8')],
      ['bom.csv', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text.slice(0, 200_000), 'utf8')])],
      ['utf16.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text.slice(0, 200_000), 'utf16le')])],
      ['latin1.csv', Buffer.from(text.slice(0, 300_000).replace(/港口/g, 'Port'), 'latin1')],
      // 港口,吨 / 潮镇,12,3 / 45,6 in GBK.
      ['gbk.csv', Buffer.from('b8dbbfdac4eab6c8b1a82cb6d60a31322c330a34352c360a', 'hex')],
      // Pairs of high bytes look like GBK, but 0xFF leads no GB18030 character: it is read as Windows-1252.
      ['not-gb.csv', Buffer.concat([Buffer.from('a,b\n'), Buffer.from([0xff, 0xa1, 0x2c, 0xff, 0xa2, 0x0a])])],
    ];
    for (const [name, bytes] of files) {
      const file = path.join(tmp, name);
      await writeFile(file, bytes);
      const streamed = await loadDocument(file, name, { limits: big, cacheDir: false });
      expect(streamed.kind).toBe('csv');
      expect(streamed).toEqual(await parseDocumentBytes(bytes, name, big));
    }
    const notGb = await loadDocument(path.join(tmp, 'not-gb.csv'), 'x.csv', { limits: big, cacheDir: false });
    expect(notGb.pages).toEqual([{ page: 1, paragraphs: ['| a | b |\n| --- | --- |\n| ÿ¡ | ÿ¢ |'] }]);
  });

  it('keeps a streamed CSV in the cache, written in pieces, and reads it back from there', async () => {
    const cacheDir = path.join(tmp, 'parsed');
    const file = path.join(tmp, 'tides.csv');
    await writeFile(file, 'port,high\nBrest,06:12\nTidewick,"07:40, 19:55"\n');
    const first = await loadDocument(file, 'tides.csv', { limits, cacheDir });
    const cached = JSON.parse(await readFile(path.join(cacheDir, `${first.hash}.json`), 'utf8'));
    expect(cached).toEqual({ version: 1, doc: JSON.parse(JSON.stringify(first)) });
    cached.doc.pages[0].paragraphs.push('from the cache');
    await writeFile(path.join(cacheDir, `${first.hash}.json`), JSON.stringify(cached));
    const again = await loadDocument(file, 'again.csv', { limits, cacheDir });
    expect(again.pages[0]!.paragraphs.at(-1)).toBe('from the cache');
  });
});
