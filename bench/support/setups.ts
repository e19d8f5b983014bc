// How a load benchmark's servers are started: one `next start` on SQLite today. A setup on PostgreSQL, or several
// instances behind one database, is another entry here (start them, return their URLs and process ids); the
// benchmarks only see the URLs (conversations go round-robin over them) and the process groups they measure.
import { startApp, type AppOptions, type AppProcess } from './app';

export interface RunningServers {
  /** Base URLs of the app instances. */
  urls: string[];
  /** Process-group leaders to measure (CPU, RSS): every instance, and a database server if the setup runs one. */
  pids: number[];
  stop(): Promise<void>;
}

export interface ServerSetup {
  describe: string;
  start(modelUrl: string, opts?: Pick<AppOptions, 'env' | 'nodeArgs'>): Promise<RunningServers>;
}

function running(apps: AppProcess[], extra: { pids?: number[]; stop?: () => Promise<void> } = {}): RunningServers {
  return {
    urls: apps.map((a) => a.url),
    pids: [...apps.map((a) => a.pid), ...(extra.pids ?? [])],
    async stop() {
      for (const app of apps) await app.stop();
      await extra.stop?.();
    },
  };
}

export const SETUPS: Record<string, ServerSetup> = {
  'sqlite-1': {
    describe: 'one instance (next start), SQLite in its data directory',
    start: async (modelUrl, opts) => running([await startApp(modelUrl, opts)]),
  },
  // 'pg-1': one instance with DATABASE_URL pointing at a throwaway PostgreSQL cluster (its postmaster in `pids`).
  // 'pg-2': two instances on that cluster sharing one DATA_DIR (startApp's `dataDir`).
};
