// What differs between the two databases the store runs on, and nothing more. Each aggregate (conversations.ts,
// runs.ts, run-index.ts, documents.ts, connections.ts, agents.ts, accounts.ts) is written once with Kysely over
// `db`, and asks its Dialect only where the SQL truly differs: sqlite-dialect.ts (better-sqlite3, one process) and
// postgres-dialect.ts (node-postgres; instances sharing the database, told about each other's runs by LISTEN/NOTIFY).
import type { Kysely, RawBuilder } from 'kysely';
import type { Ddl } from './migrations';
import type { Tables } from './tables';

/** The store's database, or one transaction on it. Code that runs inside a transaction takes it as `db` and uses
 *  nothing else: on SQLite another query would wait for the transaction's end, which waits for it. */
export type Db = Kysely<Tables>;

export type Params = Record<string, string | number>;

/** Where lib/auth keeps users and sessions: the store's own database, through the store's own Kysely (on SQLite,
 *  its queries then wait their turn behind the store's transactions). `transactions`: whether the accounts library
 *  may open its own (not on SQLite: a query of its made outside one while it is open would wait for it forever). */
export interface AuthDatabase {
  type: 'sqlite' | 'postgres';
  db: Db;
  transactions: boolean;
}

export interface Dialect {
  readonly db: Db;
  /** The words of the migrations that differ (migrations.ts). */
  readonly ddl: Ddl;
  readonly auth: AuthDatabase;

  /** The column that keeps insertion order where times tie: SQLite's rowid, PostgreSQL's `ord`. */
  readonly ord: 'rowid' | 'ord';
  /** SELECT … FOR UPDATE, which serialises one row's writers across instances (PostgreSQL). A SQLite write
   *  transaction holds the whole file already, and SQLite has no such clause. */
  readonly rowLocks: boolean;
  /** The JSON object in `json` (text) with `patch` (text) merged over it one level deep (each key of `patch` replaces
   *  that key's value whole), as text. */
  jsonMerge<T extends string>(json: RawBuilder<T>, patch: RawBuilder<T>): RawBuilder<T>;

  /** Runs compiled SQL on `db` (the store's database or a transaction on it) as a statement prepared once per
   *  text: how the store's queries (query.ts) run. */
  run<Row>(db: Db, sql: string, parameters: readonly unknown[]): Promise<{ rows: Row[]; changes: number }>;

  /** Applies the migration steps the database lacks in one transaction under a lock, then `after` in a
   *  transaction under the same lock; throws when the database is newer than `steps`. */
  migrate(steps: readonly string[], after: (db: Db) => Promise<unknown>): Promise<void>;

  /** Hot path: appends a run's events (JSON already made) after the last one, in one transaction, if the run is
   *  the owner's, running, and (with a run bus) held by `holder`. Resolves with how many went in: all or none. */
  appendEvents(ownerId: string, runId: string, types: string[], json: string[], holder?: string): Promise<number>;

  readonly runs: RunsSql;

  /** How instances sharing the database tell each other about runs (PostgreSQL's LISTEN/NOTIFY; run-bus.ts): listens
   *  on the channels over a connection of its own (`name` tells it apart among the server's); after a drop, connects
   *  again and calls `resumed`. Resolves once listening; rejects when the first connection fails. Absent on SQLite. */
  readonly listen?: (
    name: string,
    channels: string[],
    notified: (channel: string, payload: string) => void,
    resumed: () => void,
  ) => Promise<Listener>;

  close(): Promise<void>;
}

/** The SQL of the Runs page's queries that differs. The queries are built as text with named parameters (@name)
 *  and run as statements prepared once per text, because a page of the list costs well under a millisecond and a
 *  query builder's work per call would show (bench/runs-page.ts). */
export interface RunsSql {
  /** The text of the i-th (from 1) positional parameter: `?`, `$i`. */
  placeholder(i: number): string;
  /** The column of run_text that holds the summary's id. */
  readonly textId: 'rowid' | 'summary_id';
  /** The condition on run_text that every word is in its body, as a substring, case aside; its parameters are
   *  added to `params`. */
  textMatch(words: string[], params: Params): string;
  /** A join whose left side drives (SQLite's CROSS JOIN; PostgreSQL's planner picks by itself). */
  readonly drivingJoin: string;
  /** The text of a key of the JSON object in a text column. */
  jsonText(column: string, key: string): string;
}

export interface Listener {
  /** Settles once listening (again, after a drop). */
  readonly ready: Promise<void>;
  stop(): Promise<void>;
}

/** A word as a LIKE pattern's literal text (with ESCAPE '\\', the default on PostgreSQL). */
export function likeEscaped(word: string): string {
  return word.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The same order on both databases: by UTF-16 code units (PostgreSQL would sort by its locale). */
export function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
