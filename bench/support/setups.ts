// How a load benchmark's servers are started: one `next start` on SQLite, one on PostgreSQL, or two instances on
// one PostgreSQL database sharing one DATA_DIR. The benchmarks only see the URLs (conversations go round-robin over
// them) and the process groups they measure.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_DIR, startApp, type AppOptions, type AppProcess } from './app';

export interface RunningServers {
  /** Base URLs of the app instances. */
  urls: string[];
  /** Process-group leaders of the app instances, to measure (CPU, RSS); the first one's main thread too. */
  pids: number[];
  /** The database server's parent processes, measured with their children, when the setup runs one (PostgreSQL's
   *  postmaster). */
  databasePids: number[];
  stop(): Promise<void>;
}

export interface ServerSetup {
  describe: string;
  start(modelUrl: string, opts?: Pick<AppOptions, 'env' | 'nodeArgs'>): Promise<RunningServers>;
}

function running(
  apps: AppProcess[],
  extra: { databasePids?: number[]; stop?: () => Promise<void> } = {},
): RunningServers {
  return {
    urls: apps.map((a) => a.url),
    pids: apps.map((a) => a.pid),
    databasePids: extra.databasePids ?? [],
    async stop() {
      for (const app of apps) await app.stop();
      await extra.stop?.();
    },
  };
}

interface Cluster {
  url: string;
  /** The postmaster, which leads its own process group (pg_ctl starts it in a session of its own). */
  pid: number;
  stop(): void;
}

const PG_CLUSTER = path.join(REPO_DIR, 'scripts', 'pg-cluster.sh');

/** A throwaway PostgreSQL cluster (scripts/pg-cluster.sh), durable as a real one is (fsync on). */
function startCluster(): Cluster {
  const [dir, url] = execFileSync(PG_CLUSTER, ['start'], { env: { ...process.env, PG_DURABLE: '1' } })
    .toString()
    .trim()
    .split(' ') as [string, string];
  const pid = Number(readFileSync(path.join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  return { url, pid, stop: () => execFileSync(PG_CLUSTER, ['stop', dir]) };
}

/** `count` instances on one new PostgreSQL cluster, sharing one data directory (uploads, parse cache, work dirs). */
async function onPostgres(count: number, modelUrl: string, opts: Pick<AppOptions, 'env' | 'nodeArgs'> = {}) {
  const cluster = startCluster();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'agent-studio-bench-shared-'));
  const apps: AppProcess[] = [];
  const stopCluster = async () => {
    cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < count; i++)
      apps.push(await startApp(modelUrl, { ...opts, dataDir, env: { ...opts.env, DATABASE_URL: cluster.url } }));
  } catch (e) {
    for (const app of apps) await app.stop();
    await stopCluster();
    throw e;
  }
  return running(apps, { databasePids: [cluster.pid], stop: stopCluster });
}

export const SETUPS: Record<string, ServerSetup> = {
  'sqlite-1': {
    describe: 'one instance (next start), SQLite in its data directory',
    start: async (modelUrl, opts) => running([await startApp(modelUrl, opts)]),
  },
  'pg-1': {
    describe: 'one instance (next start) on a local PostgreSQL cluster (fsync on)',
    start: (modelUrl, opts) => onPostgres(1, modelUrl, opts),
  },
  'pg-2': {
    describe: 'two instances (next start) on one local PostgreSQL cluster (fsync on), one shared DATA_DIR',
    start: (modelUrl, opts) => onPostgres(2, modelUrl, opts),
  },
};
