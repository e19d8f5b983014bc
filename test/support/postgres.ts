// A real PostgreSQL server for the tests: `npm test` (scripts/test-all.sh) starts a throwaway cluster
// (scripts/pg-cluster.sh) and passes its URL in TEST_DATABASE_URL, with EXPECT_POSTGRES=1. Each test file makes its
// own databases in it (freshDatabase), so files running at once never see each other's rows.
//
// Without TEST_DATABASE_URL the PostgreSQL tests are skipped, visibly (vitest counts them as skipped); when
// PostgreSQL was expected (EXPECT_POSTGRES=1, as npm test and CI set it) they fail instead, saying why.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const POSTGRES_URL = process.env.TEST_DATABASE_URL;

/** The reason the PostgreSQL tests cannot run here, or undefined when they can. Throws when they were expected. */
export function postgresMissing(): string | undefined {
  if (POSTGRES_URL) return undefined;
  const why =
    'TEST_DATABASE_URL is not set, so there is no PostgreSQL server to test against. `npm test` starts one ' +
    '(scripts/test-all.sh); by hand: `scripts/pg-cluster.sh start` prints a directory and a URL, then ' +
    '`TEST_DATABASE_URL=<url> npx vitest run …` and `scripts/pg-cluster.sh stop <directory>`.';
  if (process.env.EXPECT_POSTGRES === '1') throw new Error(`PostgreSQL was expected (EXPECT_POSTGRES=1), but ${why}`);
  return why;
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** An empty database of its own in the test cluster (or in the server at `server`, a test's own). */
export async function freshDatabase(prefix = 't', server = POSTGRES_URL): Promise<TestDatabase> {
  if (!server) throw new Error(postgresMissing() ?? 'no PostgreSQL');
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await admin(server, `CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    // FORCE ends connections a test left open (a killed app's pool).
    drop: () => admin(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

async function admin(server: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** One query on a database, outside the store (to look at what it wrote). */
export async function queryRows<T>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** A PostgreSQL server of the test's own (scripts/pg-cluster.sh), which it may stop and start again. */
export interface OwnPostgres {
  url: string;
  /** pg_ctl stop -m fast: every connection is cut and new ones are refused; the data stays. */
  pause(): void;
  /** Starts it again on the same port. */
  resume(): void;
  remove(): void;
}

export function ownPostgres(): OwnPostgres {
  const script = fileURLToPath(new URL('../../scripts/pg-cluster.sh', import.meta.url));
  const [dir, url] = execFileSync(script, ['start'], { encoding: 'utf8' }).trim().split(' ') as [string, string];
  return {
    url,
    pause: () => execFileSync(script, ['pause', dir]),
    resume: () => execFileSync(script, ['resume', dir]),
    remove: () => execFileSync(script, ['stop', dir]),
  };
}
