// bench/parse-memory: what the largest uploads the limits allow cost the server in memory. A CSV just under
// UPLOAD_MAX_BYTES (50 MB) and an .xlsx whose sheet XML is just under UNZIP_MAX_BYTES (200 MB) are uploaded to the
// built app (`next start`, its parse worker threads in the same process) through POST /api/files, and parsed; the
// resident memory of the app's whole process group (VmRSS of each process, from /proc, every 20 ms) is followed
// from just before the upload until the document reads ready. Prints each file's peak growth over the level before
// it, the goal (600 MB), and the time to ready. BENCH_APP_DIR measures another checkout's build (an A/B).
// Run: npm run bench:parse-memory [-- --csv-mb 49 --xlsx-mb 190 --only csv|xlsx]
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { uploadAndParse, writeLargeCsv, writeLargeXlsx } from '../test/support/large-documents';
import { APP_DIR, ensureBuild, machineLoad, startApp, startModelServer } from './support/app';
import { flag } from './support/flags';

const CSV_MB = Number(flag('csv-mb', '49'));
const XLSX_MB = Number(flag('xlsx-mb', '190'));
const ONLY = flag('only', '');
const GOAL_MB = 600;

async function main() {
  console.log(`parse-memory: ${APP_DIR}; ${machineLoad()}`);
  ensureBuild();
  const dir = mkdtempSync(path.join(tmpdir(), 'parse-memory-'));
  const files: string[] = [];
  if (ONLY !== 'xlsx') {
    files.push(path.join(dir, 'sales.csv'));
    writeLargeCsv(files.at(-1)!, CSV_MB);
  }
  if (ONLY !== 'csv') {
    files.push(path.join(dir, 'sales.xlsx'));
    writeLargeXlsx(files.at(-1)!, XLSX_MB);
  }
  const model = await startModelServer();
  const app = await startApp(model.url, { env: { UPLOAD_BYTES_PER_DAY: String(10 * 1024 ** 3) } });
  try {
    for (const file of files) {
      const mb = statSync(file).size / 2 ** 20;
      const r = await uploadAndParse(app.url, app.pid, file);
      console.log(
        `${path.basename(file)} (${mb.toFixed(1)} MB${file.endsWith('.xlsx') ? `, ${XLSX_MB} MB of sheet XML` : ''}): ` +
          `${r.detail.state}${r.detail.pages ? `, ${r.detail.pages} page(s)` : ''}${r.detail.error ? ` (${r.detail.error})` : ''} ` +
          `in ${(r.ms / 1000).toFixed(1)} s; the app went from ${r.baseMb.toFixed(0)} MB up by ${r.growthMb.toFixed(0)} MB ` +
          `at most (goal < ${GOAL_MB} MB: ${(r.growthMb / GOAL_MB).toFixed(2)}×)`,
      );
    }
  } finally {
    await app.stop();
    await model.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
