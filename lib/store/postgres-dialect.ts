// The store on PostgreSQL (node-postgres): what PostgreSQL says differently (dialect.ts). Several instances of the
// app may share the database: migrations wait for each other under an advisory lock, writers of one conversation
// lock its row, and the run bus (run-bus.ts) tells instances about each other's runs with LISTEN/NOTIFY on a
// connection of its own. Statements outside a transaction are named (parsed and planned once per connection);
// appending a run's events is one of them (a multi-row INSERT that checks the run and notifies followers at commit).
import pg from 'pg';
import {
  CompiledQuery,
  Kysely,
  OperationNodeTransformer,
  PostgresDialect,
  sql,
  type KyselyPlugin,
  type PrimitiveValueListNode,
  type ValueNode,
} from 'kysely';
import { likeEscaped, type Db, type Dialect, type RunsSql } from './dialect';
import { newerSchemaError } from './migrations';
import { EVENTS_CHANNEL } from './run-bus';
import type { Tables } from './tables';

export interface PostgresOptions {
  /** Connections in the pool (DATABASE_POOL_SIZE). */
  poolSize?: number;
}

/** bigint columns (times in ms, sizes, counts) as numbers: every one of them fits in a double. */
const TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)) as never,
};

/** A lock id of its own, so that only instances of this app opening the same database wait for each other. */
const MIGRATION_LOCK = 0x61677374; // "agst"
const RECONNECT_MAX_MS = 2_000;

/** PostgreSQL's text cannot hold U+0000: it is dropped from every string the store sends (JSON escapes it, so only
 *  plain text loses it: a title, a search word). */
function noNul<T>(v: T): T {
  if (typeof v === 'string') return (v.includes('\u0000') ? v.replaceAll('\u0000', '') : v) as T;
  return (Array.isArray(v) ? v.map(noNul) : v) as T;
}

class WithoutNul extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    return { ...node, value: noNul(node.value) };
  }
  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    return { ...node, values: node.values.map(noNul) };
  }
}

const WITHOUT_NUL: KyselyPlugin = {
  transformQuery: (args) => new WithoutNul().transformNode(args.node),
  transformResult: async (args) => args.result,
};

/** One batch of events, in one statement (one transaction): the run's row is locked for share (so it cannot be
 *  marked interrupted half way) and must be the owner's, running and held by this instance; the seqs follow the
 *  last stored one; the NOTIFY (sent at commit) says the new last seq. Answers how many rows went in. */
const APPEND = `WITH run AS (
    SELECT r.id FROM runs r JOIN turns t ON t.id = r.turn_id JOIN conversations c ON c.id = t.conversation_id
      WHERE r.id = $1 AND c.owner_id = $5 AND r.status = 'running' AND r.lease_holder = $4
      FOR SHARE OF r
  ), base AS (
    SELECT coalesce(max(seq), -1) AS seq FROM run_events WHERE run_id = $1
  ), added AS (
    INSERT INTO run_events (run_id, seq, type, json)
    SELECT run.id, base.seq + e.n, e.type, e.json
      FROM run, base, unnest($2::text[], $3::text[]) WITH ORDINALITY AS e(type, json, n)
    RETURNING seq
  )
  SELECT count(*)::integer AS added,
         CASE WHEN count(*) > 0 THEN pg_notify('${EVENTS_CHANNEL}', $1 || ' ' || max(seq)) END AS sent
    FROM added`;

/** Opens a pool on `url` (postgres://…). */
export function openPostgresDialect(url: string, opts: PostgresOptions = {}): Dialect {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.poolSize ?? 10,
    types: TYPES,
    application_name: 'agent-studio',
  });
  // An idle connection that breaks (a database restart) is dropped from the pool; the next query opens another.
  pool.on('error', (e) => console.error(`[store] a PostgreSQL connection failed: ${e.message}`));
  const db: Db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }), plugins: [WITHOUT_NUL] });

  const names = new Map<string, string>();
  const statementName = (text: string) => {
    let name = names.get(text);
    if (!name) names.set(text, (name = `s_${names.size}`));
    return name;
  };
  const runs: RunsSql = {
    placeholder: (i) => `$${i}`,
    textId: 'summary_id',
    // ILIKE over the indexed text, which the pg_trgm GIN index serves (words under three characters have no trigram
    // and are checked row by row, as on SQLite).
    textMatch(words, params) {
      return words
        .map((w, i) => {
          params[`like${i}`] = `%${likeEscaped(w)}%`;
          return `body ILIKE @like${i}`;
        })
        .join(' AND ');
    },
    drivingJoin: 'JOIN',
    jsonText: (column, key) => `(${column}::jsonb ->> '${key}')`,
  };

  const listen: Dialect['listen'] = async (name, channels, notified, resumed) => {
    let closed = false;
    let client: pg.Client | undefined;
    const connect = async (attempt: number): Promise<void> => {
      const c = new pg.Client({ connectionString: url, application_name: `agent-studio listener ${name}` });
      c.on('notification', (msg) => notified(msg.channel, msg.payload ?? ''));
      c.on('error', () => undefined); // 'end' follows; reconnecting is done there
      try {
        await c.connect();
        for (const channel of channels) await c.query(`LISTEN "${channel}"`);
      } catch (e) {
        await c.end().catch(() => undefined);
        if (closed) return;
        if (attempt === 0) throw e; // the first connection: the store fails to open
        await new Promise((r) => setTimeout(r, Math.min(RECONNECT_MAX_MS, 100 * 2 ** attempt)));
        return connect(attempt + 1);
      }
      client = c;
      c.once('end', () => {
        if (closed) return;
        console.error('[store] the PostgreSQL listener connection dropped; reconnecting');
        listener.ready = connect(1);
      });
      if (attempt > 0) resumed();
    };
    const listener = {
      ready: connect(0),
      async stop() {
        closed = true;
        await client?.end().catch(() => undefined);
      },
    };
    await listener.ready;
    return listener;
  };

  return {
    db,
    ddl: {
      dialect: 'postgres',
      big: 'bigint',
      real: 'double precision',
      bool: 'boolean',
      // ILIKE finds substrings in any script through the trigram index (FTS5's trigram tokenizer on SQLite).
      runText: `
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
  CREATE TABLE run_text (
    summary_id bigint PRIMARY KEY REFERENCES run_summaries (id) ON DELETE CASCADE,
    body       text NOT NULL
  );
  CREATE INDEX run_text_trigrams ON run_text USING gin (body gin_trgm_ops);`,
    },
    auth: { type: 'postgres', db, transactions: true },
    ord: 'ord',
    rowLocks: true,
    jsonMerge: (json, patch) => sql<never>`(${json}::jsonb || ${patch}::jsonb)::text`,
    // Outside a transaction, a named statement (parsed and planned once per connection of the pool); inside one, on
    // the transaction's connection.
    async run<Row>(on: Db, text: string, parameters: readonly unknown[]) {
      const values = parameters.map(noNul);
      if (on.isTransaction) {
        const result = await on.executeQuery<Row>(CompiledQuery.raw(text, values));
        return { rows: result.rows, changes: Number(result.numAffectedRows ?? 0) };
      }
      const result = await pool.query<Row & pg.QueryResultRow>({ name: statementName(text), text, values });
      return { rows: result.rows, changes: result.rowCount ?? 0 };
    },

    // The table schema_migrations records the versions applied; every instance applies what is missing when it opens
    // the store, all in one transaction under an advisory lock, so instances starting at once never apply a step
    // twice (nor index a run twice: `after` runs under the same lock).
    async migrate(steps, after) {
      await db.transaction().execute(async (tx) => {
        await sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`.execute(tx);
        await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
                    version    integer PRIMARY KEY,
                    applied_at timestamptz NOT NULL DEFAULT now()
                  )`.execute(tx);
        const { rows } = await sql<{ v: number | null }>`SELECT max(version) AS v FROM schema_migrations`.execute(tx);
        const current = rows[0]?.v ?? 0;
        if (current > steps.length) throw newerSchemaError(current);
        for (let v = current + 1; v <= steps.length; v++) {
          if (steps[v - 1]!.trim()) await sql.raw(steps[v - 1]!).execute(tx);
          await sql`INSERT INTO schema_migrations (version) VALUES (${v})`.execute(tx);
        }
        await after(tx);
      });
    },

    async appendEvents(ownerId, runId, types, json, holder) {
      const { rows } = await pool.query<{ added: number }>({
        name: 'append_events',
        text: APPEND,
        values: [runId, types, json, holder, ownerId],
      });
      return rows[0]?.added ?? 0;
    },
    runs,
    listen,
    // Kysely ends a pool it has used; the pool is ended here too, used or not (the hot paths go to it directly).
    close: async () => {
      await db.destroy();
      if (!pool.ended) await pool.end();
    },
  };
}
