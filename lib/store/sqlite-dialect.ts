// The store on one SQLite file (better-sqlite3, WAL): what SQLite says differently (dialect.ts). One process owns
// the file and drives its runs, so there is no run bus. Kysely reaches the file through the driver below: one
// connection per file and process behind a mutex (a transaction holds it across its awaits, so nothing else slips
// into it), every statement prepared once per text. The store's queries (query.ts), the run log's appends and the
// Runs page's queries run their statements directly: at once inside a transaction, or when nothing holds the file.
import path from 'node:path';
import Database from 'better-sqlite3';
import {
  Kysely,
  SqliteDialect,
  sql,
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from 'kysely';
import { likeEscaped, type Db, type Dialect, type RunsSql } from './dialect';
import { StoreBusyError } from './errors';
import { newerSchemaError } from './migrations';
import type { Tables } from './tables';

// Another program may hold the file's write lock for a while (a `sqlite3` shell in a transaction, a backup). SQLite's
// own wait (busy_timeout) sleeps in the calling thread: the whole server would stand still for as long. So SQLite
// waits only a moment itself, and a statement still refused (SQLITE_BUSY, nothing done) is tried again after an
// asynchronous pause, the file let go meanwhile, until BUSY_WAIT_MS have passed: then StoreBusyError.
const BUSY_TIMEOUT_MS = 20;
const BUSY_WAIT_MS = 30_000;
/** Distinct statement texts kept prepared (the Runs page's query shapes are the most numerous). */
const MAX_STATEMENTS = 500;

/** The file's one connection in this process, shared by every store that opens it (a second handle would wait for
 *  the first's transaction synchronously, which can only end once this process goes on: never), behind a mutex. */
class Connection implements DatabaseConnection {
  private held = false;
  private readonly waiting: (() => void)[] = [];
  private readonly statements = new Map<string, Database.Statement>();
  users = 0;

  constructor(
    readonly handle: Database.Database,
    /** How long a statement refused by another program's lock is tried again (BUSY_WAIT_MS). */
    readonly busyWaitMs: number,
  ) {}

  lock(): Promise<void> {
    if (this.held) return new Promise((resolve) => this.waiting.push(resolve));
    this.held = true;
    return Promise.resolve();
  }

  unlock(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.held = false;
  }

  prepare(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      if (this.statements.size >= MAX_STATEMENTS) this.statements.clear();
      statement = this.handle.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  /** `fn` with the file to itself: at once when nothing holds it (it is synchronous), else after. A `fn` refused by
   *  another program's lock (nothing done) runs again once the lock may be gone (see BUSY_WAIT_MS). */
  async exclusive<T>(fn: () => T): Promise<T> {
    const held = async () => {
      await this.lock();
      try {
        return fn();
      } finally {
        this.unlock();
      }
    };
    try {
      return this.held ? await held() : fn();
    } catch (e) {
      return this.whenFree(e, held);
    }
  }

  /** `attempt` again after a pause each time it is refused by another program's lock (`refusal`, the first
   *  refusal), until the store's wait is over; anything else it throws is thrown. The file is not held meanwhile. */
  async whenFree<T>(refusal: unknown, attempt: () => Promise<T>): Promise<T> {
    if (!isBusy(refusal)) throw refusal;
    const start = performance.now();
    for (let pause = 10; ; pause = Math.min(pause * 2, 250)) {
      const waited = performance.now() - start;
      if (waited >= this.busyWaitMs) throw new StoreBusyError(waited + BUSY_TIMEOUT_MS, { cause: refusal });
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, this.busyWaitMs - waited)));
      try {
        return await attempt();
      } catch (e) {
        if (!isBusy(e)) throw e;
      }
    }
  }

  /** One statement, at once (the caller holds the file). */
  now<R>(text: string, parameters: readonly unknown[]): { rows: R[]; changes: number; id?: number | bigint } {
    const statement = this.prepare(text);
    const values = parameters.map(bindable);
    if (statement.reader) return { rows: statement.all(values) as R[], changes: 0 };
    const { changes, lastInsertRowid } = statement.run(values);
    return { rows: [], changes, id: lastInsertRowid };
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const run = async () => this.now<R>(query.sql, query.parameters);
    // The caller holds the file: it waits, holding it (a transaction's BEGIN lets go meanwhile: beginTransaction).
    const { rows, changes, id } = await run().catch((e: unknown) => this.whenFree(e, run));
    return { rows, numAffectedRows: BigInt(changes), insertId: id === undefined ? undefined : BigInt(id) };
  }

  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('The SQLite store does not stream query results.');
  }
}

/** SQLITE_BUSY: another connection holds the lock this statement needs; nothing was done, so it may run again. */
function isBusy(e: unknown): boolean {
  return (e as { code?: unknown } | null)?.code === 'SQLITE_BUSY';
}

/** SQLite has no booleans: 1 and 0. U+0000 is dropped from text, as on PostgreSQL, so both answer alike. */
function bindable(v: unknown): unknown {
  if (typeof v === 'boolean') return Number(v);
  return typeof v === 'string' && v.includes('\u0000') ? v.replaceAll('\u0000', '') : v;
}

const OPEN = new Map<string, Connection>();

function connect(file: string, busyWaitMs: number): Connection {
  const handle = new Database(file);
  try {
    handle.pragma('journal_mode = WAL');
    handle.pragma('synchronous = NORMAL');
    handle.pragma('foreign_keys = ON');
    handle.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  } catch (e) {
    handle.close();
    throw e;
  }
  return new Connection(handle, busyWaitMs);
}

/** Opens (and creates) the file. `busyWaitMs`: how long a statement waits for a lock another program holds (the
 *  first opener of the file in this process decides). */
export function openSqliteDialect(file: string, opts: { busyWaitMs?: number } = {}): Dialect {
  const key = path.resolve(file);
  const connection = OPEN.get(key) ?? connect(key, opts.busyWaitMs ?? BUSY_WAIT_MS);
  OPEN.set(key, connection);
  connection.users++;
  const { handle } = connection;
  let closed = false;
  const raw = (c: DatabaseConnection, text: string) => c.executeQuery(CompiledQuery.raw(text)).then(() => {});
  const driver: Driver = {
    init: async () => {},
    acquireConnection: async () => {
      await connection.lock();
      return connection;
    },
    releaseConnection: async () => connection.unlock(),
    // A write transaction takes the file's write lock at once (IMMEDIATE): another process writing meanwhile would
    // otherwise make it fail half way instead of waiting its turn. While another program holds the lock, the file is
    // let go between attempts, so that this process's reads go on meanwhile.
    beginTransaction: async (_c, settings) => {
      const begin = settings.accessMode === 'read only' ? 'BEGIN' : 'BEGIN IMMEDIATE';
      try {
        connection.now(begin, []);
        return;
      } catch (e) {
        // Kysely holds the file from acquireConnection until releaseConnection: held again on the way out.
        connection.unlock();
        try {
          await connection.whenFree(e, async () => {
            await connection.lock();
            try {
              connection.now(begin, []);
            } catch (refused) {
              connection.unlock();
              throw refused;
            }
          });
        } catch (failed) {
          await connection.lock();
          throw failed;
        }
      }
    },
    commitTransaction: (c) => raw(c, 'COMMIT'),
    // SQLite ends a transaction itself on some errors (SQLITE_FULL, SQLITE_IOERR): a ROLLBACK then would fail with
    // "cannot rollback - no transaction is active" and hide the error that ended it (a full disk read as a fault).
    rollbackTransaction: async (c) => (handle.inTransaction ? raw(c, 'ROLLBACK') : undefined),
    // Kysely lets go of a driver only if it used it: close() lets go of the file.
    destroy: async () => {},
  };
  const db: Db = new Kysely<Tables>({
    dialect: new (class extends SqliteDialect {
      override createDriver(): Driver {
        return driver;
      }
    })({ database: handle }),
  });

  // The run's owner and state are checked, then one INSERT per event, all in one transaction (one commit however
  // many events); the seq is computed in the INSERT itself, so writers in other processes interleave safely.
  const append = handle.transaction((ownerId: string, runId: string, types: string[], json: string[]) => {
    const run = connection
      .prepare(
        `SELECT r.status FROM runs r JOIN turns t ON t.id = r.turn_id JOIN conversations c ON c.id = t.conversation_id
           WHERE r.id = ? AND c.owner_id = ?`,
      )
      .get(runId, ownerId) as { status: string } | undefined;
    if (run?.status !== 'running') return 0;
    const insert = connection.prepare(
      `INSERT INTO run_events (run_id, seq, type, json)
         VALUES (?, (SELECT coalesce(max(seq), -1) + 1 FROM run_events WHERE run_id = ?), ?, ?)`,
    );
    for (let i = 0; i < types.length; i++) insert.run(runId, runId, types[i], json[i]);
    return types.length;
  });

  const runs: RunsSql = {
    placeholder: () => '?',
    textId: 'rowid',
    // Words of three or more characters through the trigram index; shorter ones (a trigram needs three) by LIKE over
    // the indexed text, a scan.
    textMatch(words, params) {
      const long = words.filter((w) => [...w].length >= 3);
      const where: string[] = [];
      if (long.length) {
        where.push('run_text MATCH @match');
        params.match = long.map((w) => `"${w}"`).join(' ');
      }
      words
        .filter((w) => [...w].length < 3)
        .forEach((w, i) => {
          where.push(`body LIKE @like${i} ESCAPE '\\'`);
          params[`like${i}`] = `%${likeEscaped(w)}%`;
        });
      return where.join(' AND ');
    },
    drivingJoin: 'CROSS JOIN',
    jsonText: (column, key) => `json_extract(${column}, '$.${key}')`,
  };

  return {
    db,
    ddl: {
      dialect: 'sqlite',
      big: 'INTEGER',
      real: 'REAL',
      bool: 'INTEGER',
      // rowid = run_summaries.id; a virtual table is not reached by ON DELETE CASCADE, hence the trigger.
      runText: `
  CREATE VIRTUAL TABLE run_text USING fts5 (body, tokenize = 'trigram');
  CREATE TRIGGER run_summaries_drop_text AFTER DELETE ON run_summaries BEGIN
    DELETE FROM run_text WHERE rowid = old.id;
  END;`,
    },
    // Without interactive transactions: the accounts library's would not go through this mutex.
    auth: { type: 'sqlite', db, transactions: false },
    ord: 'rowid',
    rowLocks: false,
    // One level, as PostgreSQL's jsonb || (json_patch would merge deeper and drop nulls). Each value goes through ->
    // and back through json(), so that a true stays true (json_each reads it as 1).
    jsonMerge: (json, patch) => sql<never>`(SELECT json_group_object(key, json(value)) FROM (
      SELECT key, ${json} -> fullkey AS value FROM json_each(${json}) WHERE key NOT IN (SELECT key FROM json_each(${patch}))
      UNION ALL SELECT key, ${patch} -> fullkey FROM json_each(${patch})))`,
    // Inside a transaction this store holds the file already; else it waits its turn.
    run: <Row>(on: Db, text: string, parameters: readonly unknown[]) =>
      on.isTransaction
        ? Promise.resolve(connection.now<Row>(text, parameters))
        : connection.exclusive(() => connection.now<Row>(text, parameters)),

    // PRAGMA user_version counts the steps applied. One IMMEDIATE transaction, the version read inside it, so two
    // processes opening a new file at once cannot both apply a step.
    async migrate(steps, after) {
      const apply = handle.transaction(() => {
        const current = handle.pragma('user_version', { simple: true }) as number;
        if (current > steps.length) throw newerSchemaError(current);
        for (const step of steps.slice(current)) if (step.trim()) handle.exec(step);
        if (current < steps.length) handle.pragma(`user_version = ${steps.length}`);
      });
      const attempt = async () => apply.immediate();
      await attempt().catch((e: unknown) => connection.whenFree(e, attempt));
      await db.transaction().execute(after);
    },

    appendEvents: (ownerId, runId, types, json) =>
      connection.exclusive(() => append.immediate(ownerId, runId, types, json)),
    runs,
    // The file is closed once every store of this process that opened it is.
    close: async () => {
      if (closed) return;
      closed = true;
      await db.destroy();
      if (--connection.users) return;
      OPEN.delete(key);
      handle.close();
    },
  };
}
