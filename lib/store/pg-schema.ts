// The PostgreSQL database layout, one migration per version of migrations.ts (the same versions as SQLite's, in
// PostgreSQL's words). The table schema_migrations records the versions applied; every instance applies what is
// missing when it opens the store, all in one transaction under an advisory lock, so instances starting at once
// never apply a step twice. Append new steps; never edit old ones.
//
// Times are milliseconds since the epoch (bigint, read back as numbers), as on SQLite; `ord` columns keep insertion
// order where SQLite uses its rowid. Leases use the database's clock (timestamptz), so the instances' clocks never
// have to agree.
import type pg from 'pg';
import { newerSchemaError, SCHEMA_VERSION } from './migrations';

export const PG_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE conversations (
    id            text PRIMARY KEY,
    title         text NOT NULL,
    created_at    bigint NOT NULL,
    updated_at    bigint NOT NULL,
    settings_json text NOT NULL,
    -- lower-cased title + user messages + finished answers, kept current by the store for substring search
    search_text   text NOT NULL DEFAULT '',
    ord           bigint GENERATED ALWAYS AS IDENTITY
  );
  CREATE INDEX conversations_by_activity ON conversations (updated_at DESC, ord DESC);

  CREATE TABLE turns (
    id              text PRIMARY KEY,
    conversation_id text NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    seq             integer NOT NULL,
    content_json    text NOT NULL,
    search_text     text NOT NULL DEFAULT '',
    created_at      bigint NOT NULL,
    UNIQUE (conversation_id, seq)
  );

  CREATE TABLE runs (
    id          text PRIMARY KEY,
    turn_id     text NOT NULL REFERENCES turns (id) ON DELETE CASCADE,
    status      text NOT NULL,
    started_at  bigint NOT NULL,
    ended_at    bigint,
    error_json  text,
    -- lower-cased concatenated text-delta events, set once the run is no longer running
    answer_text text,
    ord         bigint GENERATED ALWAYS AS IDENTITY
  );
  CREATE INDEX runs_by_turn ON runs (turn_id, started_at, ord);
  CREATE INDEX runs_running ON runs (status) WHERE status = 'running';

  CREATE TABLE run_events (
    run_id text NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    seq    integer NOT NULL,
    type   text NOT NULL,
    json   text NOT NULL,
    PRIMARY KEY (run_id, seq)
  );
  `,
  `
  CREATE TABLE documents (
    id              text PRIMARY KEY,
    conversation_id text NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    hash            text NOT NULL,
    name            text NOT NULL,
    size            bigint NOT NULL,
    state           text NOT NULL,
    kind            text,
    pages           integer,
    title           text,
    error           text,
    created_at      bigint NOT NULL,
    ord             bigint GENERATED ALWAYS AS IDENTITY
  );
  CREATE INDEX documents_by_conversation ON documents (conversation_id, created_at, ord);
  CREATE INDEX documents_by_hash ON documents (hash);
  `,
  // 3: why a document cannot be read, as a code (DocumentError's), so the page can say it in the user's language.
  `
  ALTER TABLE documents ADD COLUMN error_code text;
  `,
  // 4: accounts. A conversation has an owner (what was written before belongs to the built-in local owner, until the
  // first admin takes it over); everything else in a conversation is its owner's. API keys, invites, and the
  // server's settings. (Users and sessions are the accounts library's own tables, lib/auth.)
  `
  ALTER TABLE conversations ADD COLUMN owner_id text NOT NULL DEFAULT 'local';
  DROP INDEX conversations_by_activity;
  CREATE INDEX conversations_by_owner ON conversations (owner_id, updated_at DESC, ord DESC);

  CREATE TABLE api_keys (
    id           text PRIMARY KEY,
    owner_id     text NOT NULL,
    name         text NOT NULL,
    prefix       text NOT NULL,
    -- sha256 of the key, hex; the key itself is shown once and never stored
    hash         text NOT NULL UNIQUE,
    created_at   bigint NOT NULL,
    last_used_at bigint,
    revoked_at   bigint,
    ord          bigint GENERATED ALWAYS AS IDENTITY
  );
  CREATE INDEX api_keys_by_owner ON api_keys (owner_id, created_at DESC, ord DESC);

  CREATE TABLE invites (
    id         text PRIMARY KEY,
    -- sha256 of the token in the link, hex
    hash       text NOT NULL UNIQUE,
    created_by text NOT NULL,
    created_at bigint NOT NULL,
    expires_at bigint NOT NULL,
    used_at    bigint,
    used_by    text,
    revoked_at bigint,
    ord        bigint GENERATED ALWAYS AS IDENTITY
  );

  CREATE TABLE server_settings (
    key        text PRIMARY KEY,
    value_json text NOT NULL
  );
  `,
  // 5: model connections added on the page (the API key encrypted; owner NULL = server-wide, else the user who added
  // it), and what servers taught about their models (connection_id is a saved connection's id or 'env', so no
  // foreign key: the store deletes a connection's rows with it).
  `
  CREATE TABLE model_connections (
    id                text PRIMARY KEY,
    owner_id          text,
    name              text NOT NULL,
    base_url          text NOT NULL,
    api_key_cipher    text,
    capabilities_json text NOT NULL DEFAULT '{}',
    created_at        bigint NOT NULL,
    updated_at        bigint NOT NULL,
    ord               bigint GENERATED ALWAYS AS IDENTITY
  );
  CREATE INDEX model_connections_by_owner ON model_connections (owner_id, created_at, ord);

  CREATE TABLE learned_capabilities (
    connection_id text NOT NULL,
    model         text NOT NULL,
    hints_json    text NOT NULL,
    PRIMARY KEY (connection_id, model)
  );
  `,
  // 6: agents a user saved, each its owner's; the definition as JSON (lib/store/types.ts AgentDefinition).
  `
  CREATE TABLE agents (
    id              text PRIMARY KEY,
    owner_id        text NOT NULL,
    name            text NOT NULL,
    definition_json text NOT NULL,
    created_at      bigint NOT NULL,
    updated_at      bigint NOT NULL,
    ord             bigint GENERATED ALWAYS AS IDENTITY
  );
  CREATE INDEX agents_by_owner ON agents (owner_id);
  `,
  // 7: the Runs page's index (pg-run-index.ts), as SQLite's: a summary row per finished run, its tool calls and
  // model calls, and the text a search looks in (user message, answer, tool arguments and results) under a pg_trgm
  // GIN index, so that ILIKE finds substrings in any script (FTS5's trigram tokenizer on SQLite). Written when a run
  // finishes; runs finished before this step are indexed when an instance next opens the store.
  `
  CREATE EXTENSION IF NOT EXISTS pg_trgm;

  CREATE TABLE run_summaries (
    id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    run_id            text NOT NULL UNIQUE REFERENCES runs (id) ON DELETE CASCADE,
    conversation_id   text NOT NULL,
    -- the conversation's owner, copied so that a query counts and filters without a join (kept in step by the store)
    owner_id          text NOT NULL,
    started_at        bigint NOT NULL,
    outcome           text NOT NULL,
    agent             text,
    model             text,
    llm_calls         integer NOT NULL,
    tool_calls        integer NOT NULL,
    failed_tool_calls integer NOT NULL,
    prompt_tokens     bigint NOT NULL,
    completion_tokens bigint NOT NULL,
    duration_ms       bigint NOT NULL
  );
  CREATE INDEX run_summaries_by_owner ON run_summaries (owner_id, started_at DESC);
  CREATE INDEX run_summaries_by_outcome ON run_summaries (owner_id, outcome, started_at DESC);
  CREATE INDEX run_summaries_by_model ON run_summaries (owner_id, model, started_at DESC);
  CREATE INDEX run_summaries_by_agent ON run_summaries (owner_id, agent, started_at DESC);
  CREATE INDEX run_summaries_failed ON run_summaries (owner_id, started_at DESC) WHERE failed_tool_calls > 0;

  CREATE TABLE run_tool_calls (
    summary_id  bigint NOT NULL REFERENCES run_summaries (id) ON DELETE CASCADE,
    name        text NOT NULL,
    ok          boolean NOT NULL,
    duration_ms double precision NOT NULL
  );
  CREATE INDEX run_tool_calls_by_run ON run_tool_calls (summary_id);
  CREATE INDEX run_tool_calls_by_name ON run_tool_calls (name, ok, summary_id);

  CREATE TABLE run_llm_calls (
    summary_id        bigint NOT NULL REFERENCES run_summaries (id) ON DELETE CASCADE,
    model             text NOT NULL,
    prompt_tokens     bigint NOT NULL,
    completion_tokens bigint NOT NULL,
    ttft_ms           double precision
  );
  CREATE INDEX run_llm_calls_by_run ON run_llm_calls (summary_id);

  CREATE TABLE run_text (
    summary_id bigint PRIMARY KEY REFERENCES run_summaries (id) ON DELETE CASCADE,
    body       text NOT NULL
  );
  CREATE INDEX run_text_trigrams ON run_text USING gin (body gin_trgm_ops);
  `,
  // 8: the instance driving a run holds a lease on it, renewed by its heartbeat; a run whose lease ran out is marked
  // interrupted by whichever instance sees it first. Stops and tool decisions for a run go to the instance that
  // drives it through run_controls (a NOTIFY says which row to read; the answer comes back the same way).
  `
  ALTER TABLE runs ADD COLUMN lease_holder text;
  ALTER TABLE runs ADD COLUMN lease_until timestamptz;

  CREATE TABLE run_controls (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    run_id       text NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    holder       text NOT NULL,
    sender       text NOT NULL,
    message_json text NOT NULL,
    answer       text,
    created_at   timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX run_controls_unanswered ON run_controls (holder) WHERE answer IS NULL;
  `,
  // 9: the documents a saved agent always has, one row per agent and content hash, rewritten with the definition, so
  // that a file an agent holds is its owner's (ownsUpload) and its bytes stay while one holds them.
  `
  CREATE TABLE agent_documents (
    agent_id text NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    owner_id text NOT NULL,
    hash     text NOT NULL,
    PRIMARY KEY (agent_id, hash)
  );
  CREATE INDEX agent_documents_by_hash ON agent_documents (hash, owner_id);
  `,
  // 10: prices and context lengths set per model on a connection (lib/llm/cost.ts ModelRates, by model name, "*" for
  // all), and what each indexed run cost (NULL: no price was set when it ran, as for every run indexed before).
  `
  ALTER TABLE model_connections ADD COLUMN rates_json text NOT NULL DEFAULT '{}';
  ALTER TABLE run_summaries ADD COLUMN cost double precision;
  `,
  // 11: the messages an ended run added (foldEvents of its log, JSON), written as it ends; NULL while it runs, and for
  // a run that ended before this version until its conversation's history is next read.
  `
  ALTER TABLE runs ADD COLUMN messages_json text;
  `,
  // 12: a run's summary now counts its child runs' model calls, tokens, cost and tool calls (a Router's helpers, a
  // GroupChat's members); the summaries of runs that had children are dropped here and indexed again on open.
  `
  DELETE FROM run_summaries WHERE run_id IN (SELECT DISTINCT run_id FROM run_events WHERE type = 'child');
  `,
];

if (PG_MIGRATIONS.length !== SCHEMA_VERSION)
  throw new Error(`pg-schema.ts has ${PG_MIGRATIONS.length} migrations for ${SCHEMA_VERSION} schema versions`);

/** A lock id of its own, so that only instances of this app opening the same database wait for each other. */
const MIGRATION_LOCK = 0x61677374; // "agst"

/** Brings the database up to the newest schema and returns that version. `after` runs in the same transaction,
 *  under the same lock (the Runs index's back-fill: instances starting at once index each run once). */
export async function migratePostgres(
  pool: pg.Pool,
  after?: (client: pg.PoolClient) => Promise<unknown>,
): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version    integer PRIMARY KEY,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const { rows } = await client.query<{ v: number | null }>('SELECT max(version) AS v FROM schema_migrations');
    const current = rows[0]?.v ?? 0;
    if (current > PG_MIGRATIONS.length) throw newerSchemaError(current);
    for (let v = current + 1; v <= PG_MIGRATIONS.length; v++) {
      await client.query(PG_MIGRATIONS[v - 1]!);
      await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [v]);
    }
    await after?.(client);
    await client.query('COMMIT');
    return PG_MIGRATIONS.length;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}
