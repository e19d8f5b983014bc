// Finding: a 45 MB CSV (under the 50 MB upload limit) took the server from 513 MB to 1,741 MB resident while it was
// parsed (all its rows as string arrays, then copies of them), and SheetJS held about seven bytes per byte of an
// .xlsx's sheet XML: one upload within the limits could exhaust a small server. Delimited files and .xlsx sheets are
// now read as streams in the parse worker (lib/documents/load.ts, parse/delimited.ts, parse/xlsx.ts). Here the
// largest CSV the limit allows, and an .xlsx of 120 MB of sheet XML (SheetJS: ~850 MB), are uploaded to the built
// app while the resident memory of its whole process group is followed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadAndParse, writeLargeCsv, writeLargeXlsx } from '../support/large-documents';
import { startApp, type App } from './support/app';

/** A bound on memory, not on time: the goal for the largest file the limits allow. */
const MAX_GROWTH_MB = 600;

let app: App;
let dir: string;
const results: string[] = [];
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'parse-memory-'));
  app = await startApp({ env: { UPLOAD_BYTES_PER_DAY: String(10 * 1024 ** 3) } });
});
afterAll(async () => {
  console.log(`\nRSS growth of the app while parsing (peak over the level before, MB):\n${results.join('\n')}\n`);
  await app?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('parsing the largest uploads the limits allow', () => {
  it('a 49 MB CSV costs the server less than 600 MB', { timeout: 180_000 }, async () => {
    const file = path.join(dir, 'sales.csv');
    writeLargeCsv(file, 49);
    const r = await uploadAndParse(app.url, app.pid, file);
    results.push(`49 MB CSV: +${r.growthMb.toFixed(0)} MB from ${r.baseMb.toFixed(0)} MB`);
    expect(r.detail.state).toBe('ready');
    expect(r.growthMb).toBeLessThan(MAX_GROWTH_MB);
  });

  it('an .xlsx of 120 MB of sheet XML costs the server less than 600 MB', { timeout: 300_000 }, async () => {
    const file = path.join(dir, 'sales.xlsx');
    writeLargeXlsx(file, 120);
    const r = await uploadAndParse(app.url, app.pid, file);
    results.push(`.xlsx of 120 MB of XML: +${r.growthMb.toFixed(0)} MB from ${r.baseMb.toFixed(0)} MB`);
    expect(r.detail.state).toBe('ready');
    expect(r.growthMb).toBeLessThan(MAX_GROWTH_MB);
  });
});
