// bench/blob-upload: an upload (saveUpload: hash, size check, store) of a large file into DATA_DIR alone against
// the same with S3 set (s3rver on loopback: the file also goes to the bucket), and the first read on an instance
// with an empty DATA_DIR (downloaded from the bucket), alternating round by round in one process. Prints the median
// time of each, the median per-round ratio against DATA_DIR alone, and how far the process's RSS rose above its
// level before the round at most: streamed, it stays far below the file's size.
// Run: npm run bench:blob-upload [-- --rounds 5 --mb 64]
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { saveUpload, uploadedFile } from '../lib/documents/storage';
import { startS3 } from '../test/support/s3';

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) || fallback : fallback;
};
const ROUNDS = arg('rounds', 5);
const MB = arg('mb', 64);
const CHUNK = 64 * 1024;

async function* body(seed: Buffer): AsyncIterable<Uint8Array> {
  for (let sent = 0; sent < MB * 1024 * 1024; sent += CHUNK) {
    const chunk = Buffer.from(seed);
    chunk.writeUInt32BE(sent / CHUNK, 0); // every upload different bytes: no dedupe by hash
    yield chunk;
  }
}

/** Milliseconds and the highest RSS rise (MB) while `task` runs. */
async function measure(task: () => Promise<unknown>): Promise<{ ms: number; rssMb: number }> {
  global.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const started = performance.now();
  await task();
  const ms = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { ms, rssMb: (peak - base) / 1024 / 1024 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const s3 = await startS3('bench');
  const dirs: string[] = [];
  const dir = async () => {
    const d = await mkdtemp(path.join(os.tmpdir(), 'bench-blob-'));
    dirs.push(d);
    return d;
  };
  const rows = { local: [] as number[], s3: [] as number[], read: [] as number[], ratio: [] as number[] };
  let rss = { local: 0, s3: 0, read: 0 };
  const opts = async () => ({ dataDir: await dir(), maxBytes: MB * 1024 * 1024 + 1, name: 'big.bin' });
  try {
    for (let round = 0; round < ROUNDS + 1; round++) {
      const seed = randomBytes(CHUNK);
      for (const k of Object.keys(s3.env)) delete process.env[k];
      const local = await measure(async () => saveUpload(body(seed), await opts()));
      Object.assign(process.env, s3.env);
      let hash = '';
      seed[8] = (seed[8]! + 1) % 256;
      const remote = await measure(async () => (hash = (await saveUpload(body(seed), await opts())).hash));
      const fresh = await dir();
      const read = await measure(() => uploadedFile(fresh, hash));
      if (round === 0) continue; // warm-up
      rows.local.push(local.ms);
      rows.s3.push(remote.ms);
      rows.read.push(read.ms);
      rows.ratio.push(remote.ms / local.ms);
      rss = {
        local: Math.max(rss.local, local.rssMb),
        s3: Math.max(rss.s3, remote.rssMb),
        read: Math.max(rss.read, read.rssMb),
      };
    }
  } finally {
    await s3.close();
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  }
  console.log(`${MB} MB upload, ${ROUNDS} rounds (medians):`);
  console.log(
    `  DATA_DIR only        ${median(rows.local).toFixed(0)} ms   RSS rise at most ${rss.local.toFixed(1)} MB`,
  );
  console.log(`  DATA_DIR + S3        ${median(rows.s3).toFixed(0)} ms   RSS rise at most ${rss.s3.toFixed(1)} MB`);
  console.log(`  first read elsewhere ${median(rows.read).toFixed(0)} ms   RSS rise at most ${rss.read.toFixed(1)} MB`);
  console.log(`  S3 / DATA_DIR only   ${median(rows.ratio).toFixed(2)}×`);
}

void main();
