// The parse pool with real worker threads and the real parsers: bounded, in order, errors carried back with their
// code, and a parse that takes too long stops its worker and fails alone.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { makePdf, textPage } from '../../test/support/pdf-writer';
import { ParsePool, readablePageOffThread } from './parse-pool';
import { DocumentError } from './types';

const dir = mkdtempSync(path.join(tmpdir(), 'parse-pool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, bytes: string | Uint8Array): string {
  const p = path.join(dir, name);
  writeFileSync(p, bytes);
  return p;
}

let pool: ParsePool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe('ParsePool', () => {
  it('parses in worker threads, never more at once than its size, and answers each parse in full', async () => {
    pool = new ParsePool(2);
    const paths = Array.from({ length: 6 }, (_, i) =>
      file(`doc-${i}.pdf`, makePdf([textPage(`Document number ${i}`, ['A second line of text.'])])),
    );
    const most = { workers: 0 };
    const parses = paths.map((p) => pool!.parse(p, path.basename(p), { cacheDir: false }));
    const watch = setInterval(() => (most.workers = Math.max(most.workers, pool!.workers)), 1);
    const docs = await Promise.all(parses);
    clearInterval(watch);
    expect(most.workers).toBeLessThanOrEqual(2);
    expect(pool.workers).toBeGreaterThan(0);
    expect(docs.map((d) => [d.kind, d.name, d.pages[0]!.paragraphs.join(' ')])).toEqual(
      paths.map((p, i) => ['pdf', path.basename(p), expect.stringContaining(`Document number ${i}`)]),
    );
  }, 60_000);

  it('carries a parser error back as a DocumentError with its code', async () => {
    pool = new ParsePool(1);
    const err = await pool.parse(file('broken.pdf', '%PDF-1.7\nnot really a pdf'), 'broken.pdf').catch((e) => e);
    expect(err).toBeInstanceOf(DocumentError);
    expect(err.code).toBe('corrupt');
    expect(err.message).toMatch(/^broken\.pdf is a corrupt PDF/);
  }, 60_000);

  it('gives up a parse that takes too long: its worker is stopped, and only that document fails', async () => {
    pool = new ParsePool(1, { timeoutMs: 1 });
    const pdf = file('slow.pdf', makePdf([textPage('x', ['y'])]));
    const results = await Promise.allSettled([pool.parse(pdf, 'slow.pdf'), pool.parse(pdf, 'second.pdf')]);
    expect(results.map((r) => (r.status === 'rejected' ? r.reason.message : 'parsed'))).toEqual([
      'slow.pdf took longer than 0 s to parse.',
      'second.pdf took longer than 0 s to parse.',
    ]);
    expect(pool.workers).toBe(0); // each timed-out worker was stopped, none is left running
  }, 60_000);

  it('reads a web page in a worker: its title and readable text', async () => {
    pool = new ParsePool(1);
    const paragraph = '<p>The quick brown fox jumps over the lazy dog, again and again, for the reader.</p>';
    const page = await pool.readablePage(
      `<html><head><title>Foxes</title></head><body><nav>Home | About</nav><article>${paragraph.repeat(8)}</article></body></html>`,
    );
    expect(page.title).toBe('Foxes');
    expect(page.text).toContain('The quick brown fox jumps over the lazy dog');
    expect(pool.workers).toBe(1);
  }, 60_000);

  it('gives up a page Readability cannot read in time (its worker is stopped); the page is read as plain text', async () => {
    // 2,000 nested blocks (30 KB): Readability took over a minute on it, on the server's main thread.
    const depth = 2_000;
    const hostile = `<html><body>${'<div>word '.repeat(depth)}<p>The page's own words.</p>${'</div>'.repeat(depth)}</body></html>`;
    pool = new ParsePool(1);
    const err = await pool.readablePage(hostile, 500).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe('The page took longer than 1 s to parse.');
    expect(pool.workers).toBe(0);
    const page = await readablePageOffThread(hostile, 500);
    expect(page.text).toContain("The page's own words.");
    expect(page.text.split('\n')).toHaveLength(depth + 1);
  }, 60_000);
});
