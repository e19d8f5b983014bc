// The SQLite database layout, one migration per version of migrations.ts. PRAGMA user_version records how many have
// run, so opening an older file brings it up to date and opening a current one does nothing. Append new steps; never
// edit old ones.
import type Database from 'better-sqlite3';
import { newerSchemaError, SCHEMA_VERSION } from './migrations';

export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE conversations (
    id            TEXT PRIMARY KEY,
    title         TEXT NOT NULL,
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL,
    settings_json TEXT NOT NULL,
    -- lower-cased title + user messages + finished answers, kept current by the store for substring search
    search_text   TEXT NOT NULL DEFAULT ''
  );
  CREATE INDEX conversations_by_activity ON conversations (updated_at DESC);

  CREATE TABLE turns (
    id              TEXT PRIMARY KEY,
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    seq             INTEGER NOT NULL,
    content_json    TEXT NOT NULL,
    search_text     TEXT NOT NULL DEFAULT '',
    created_at      INTEGER NOT NULL,
    UNIQUE (conversation_id, seq)
  );

  CREATE TABLE runs (
    id          TEXT PRIMARY KEY,
    turn_id     TEXT NOT NULL REFERENCES turns (id) ON DELETE CASCADE,
    status      TEXT NOT NULL,
    started_at  INTEGER NOT NULL,
    ended_at    INTEGER,
    error_json  TEXT,
    -- lower-cased concatenated text-delta events, set once the run is no longer running
    answer_text TEXT
  );
  CREATE INDEX runs_by_turn ON runs (turn_id, started_at);
  CREATE INDEX runs_by_status ON runs (status);

  CREATE TABLE run_events (
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    seq    INTEGER NOT NULL,
    type   TEXT NOT NULL,
    json   TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
  ) WITHOUT ROWID;
  `,
  // 2: documents uploaded to a conversation (the bytes are files under DATA_DIR/files, by hash).
  `
  CREATE TABLE documents (
    id              TEXT PRIMARY KEY,
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    hash            TEXT NOT NULL,
    name            TEXT NOT NULL,
    size            INTEGER NOT NULL,
    state           TEXT NOT NULL,
    kind            TEXT,
    pages           INTEGER,
    title           TEXT,
    error           TEXT,
    created_at      INTEGER NOT NULL
  );
  CREATE INDEX documents_by_conversation ON documents (conversation_id, created_at);
  CREATE INDEX documents_by_hash ON documents (hash);
  `,
  // 3: why a document cannot be read, as a code (DocumentError's), so the page can say it in the user's language.
  `
  ALTER TABLE documents ADD COLUMN error_code TEXT;
  `,
  // 4: accounts. A conversation has an owner (what was written before belongs to the built-in local owner, until the
  // first admin takes it over); everything else in a conversation is its owner's. API keys, invites, and the
  // server's settings. (Users and sessions are the accounts library's own tables, lib/auth.)
  `
  ALTER TABLE conversations ADD COLUMN owner_id TEXT NOT NULL DEFAULT 'local';
  DROP INDEX conversations_by_activity;
  CREATE INDEX conversations_by_owner ON conversations (owner_id, updated_at DESC);

  CREATE TABLE api_keys (
    id           TEXT PRIMARY KEY,
    owner_id     TEXT NOT NULL,
    name         TEXT NOT NULL,
    prefix       TEXT NOT NULL,
    -- sha256 of the key, hex; the key itself is shown once and never stored
    hash         TEXT NOT NULL UNIQUE,
    created_at   INTEGER NOT NULL,
    last_used_at INTEGER,
    revoked_at   INTEGER
  );
  CREATE INDEX api_keys_by_owner ON api_keys (owner_id, created_at DESC);

  CREATE TABLE invites (
    id         TEXT PRIMARY KEY,
    -- sha256 of the token in the link, hex
    hash       TEXT NOT NULL UNIQUE,
    created_by TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at    INTEGER,
    used_by    TEXT,
    revoked_at INTEGER
  );

  CREATE TABLE server_settings (
    key        TEXT PRIMARY KEY,
    value_json TEXT NOT NULL
  );
  `,
  // 5: model connections added on the page (the API key encrypted; owner NULL = server-wide, else the user who added
  // it), and what servers taught about their models.
  `
  CREATE TABLE model_connections (
    id                TEXT PRIMARY KEY,
    owner_id          TEXT,
    name              TEXT NOT NULL,
    base_url          TEXT NOT NULL,
    api_key_cipher    TEXT,
    capabilities_json TEXT NOT NULL DEFAULT '{}',
    created_at        INTEGER NOT NULL,
    updated_at        INTEGER NOT NULL
  );
  CREATE INDEX model_connections_by_owner ON model_connections (owner_id, created_at);

  -- what a server taught about one of its models (a 400 to a tools request); connection_id is a saved connection's
  -- id or 'env', so no foreign key (the store deletes a connection's rows with it)
  CREATE TABLE learned_capabilities (
    connection_id TEXT NOT NULL,
    model         TEXT NOT NULL,
    hints_json    TEXT NOT NULL,
    PRIMARY KEY (connection_id, model)
  ) WITHOUT ROWID;
  `,
  // 6: agents a user saved (the Agents section), each its owner's; the definition as JSON (lib/store/types.ts
  // AgentDefinition).
  `
  CREATE TABLE agents (
    id              TEXT PRIMARY KEY,
    owner_id        TEXT NOT NULL,
    name            TEXT NOT NULL,
    definition_json TEXT NOT NULL,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL
  );
  `,
  // 7: the Runs page's index (lib/store/run-index.ts): a summary row per finished run, its tool calls and model
  // calls, and a full-text index (FTS5, trigram: substrings in any script) over its user message, answer, tool
  // arguments and results. Written when a run finishes; runs finished before this step are indexed at the next open.
  `
  CREATE TABLE run_summaries (
    id                INTEGER PRIMARY KEY,
    run_id            TEXT NOT NULL UNIQUE REFERENCES runs (id) ON DELETE CASCADE,
    conversation_id   TEXT NOT NULL,
    -- the conversation's owner, copied so that a query counts and filters without a join (kept in step by the store)
    owner_id          TEXT NOT NULL,
    started_at        INTEGER NOT NULL,
    outcome           TEXT NOT NULL,
    agent             TEXT,
    model             TEXT,
    llm_calls         INTEGER NOT NULL,
    tool_calls        INTEGER NOT NULL,
    failed_tool_calls INTEGER NOT NULL,
    prompt_tokens     INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    duration_ms       INTEGER NOT NULL
  );
  CREATE INDEX run_summaries_by_owner ON run_summaries (owner_id, started_at DESC);
  CREATE INDEX run_summaries_by_outcome ON run_summaries (owner_id, outcome, started_at DESC);
  CREATE INDEX run_summaries_by_model ON run_summaries (owner_id, model, started_at DESC);
  CREATE INDEX run_summaries_by_agent ON run_summaries (owner_id, agent, started_at DESC);
  CREATE INDEX run_summaries_failed ON run_summaries (owner_id, started_at DESC) WHERE failed_tool_calls > 0;

  CREATE TABLE run_tool_calls (
    summary_id  INTEGER NOT NULL REFERENCES run_summaries (id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    ok          INTEGER NOT NULL,
    duration_ms REAL NOT NULL
  );
  CREATE INDEX run_tool_calls_by_run ON run_tool_calls (summary_id);
  CREATE INDEX run_tool_calls_by_name ON run_tool_calls (name, ok, summary_id);

  CREATE TABLE run_llm_calls (
    summary_id        INTEGER NOT NULL REFERENCES run_summaries (id) ON DELETE CASCADE,
    model             TEXT NOT NULL,
    prompt_tokens     INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    ttft_ms           REAL
  );
  CREATE INDEX run_llm_calls_by_run ON run_llm_calls (summary_id);

  -- rowid = run_summaries.id; a virtual table is not reached by ON DELETE CASCADE, hence the trigger
  CREATE VIRTUAL TABLE run_text USING fts5 (body, tokenize = 'trigram');
  CREATE TRIGGER run_summaries_drop_text AFTER DELETE ON run_summaries BEGIN
    DELETE FROM run_text WHERE rowid = old.id;
  END;
  `,
  // 8: leases are for several instances on one database; one process drives every run of a SQLite file.
  '',
  // 9: the documents a saved agent always has (its knowledge), one row per agent and content hash, kept by the store
  // from the definition's \`documents\` so that a file an agent holds is its owner's (ownsUpload) and its bytes stay
  // while an agent holds them (countDocumentsWithHash).
  `
  CREATE TABLE agent_documents (
    agent_id TEXT NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    owner_id TEXT NOT NULL,
    hash     TEXT NOT NULL,
    PRIMARY KEY (agent_id, hash)
  ) WITHOUT ROWID;
  CREATE INDEX agent_documents_by_hash ON agent_documents (hash, owner_id);
  `,
  // 10: prices and context lengths set per model on a connection (lib/llm/cost.ts ModelRates, by model name, "*" for
  // all), and what each indexed run cost (NULL: no price was set when it ran, as for every run indexed before).
  `
  ALTER TABLE model_connections ADD COLUMN rates_json TEXT NOT NULL DEFAULT '{}';
  ALTER TABLE run_summaries ADD COLUMN cost REAL;
  `,
  // 11: the messages an ended run added (foldEvents of its log, JSON), written as it ends; NULL while it runs, and for
  // a run that ended before this version until its conversation's history is next read.
  `
  ALTER TABLE runs ADD COLUMN messages_json TEXT;
  `,
  // 12: a run's summary now counts its child runs' model calls, tokens, cost and tool calls (a Router's helpers, a
  // GroupChat's members); the summaries of runs that had children are dropped here and indexed again on open.
  `
  DELETE FROM run_summaries WHERE run_id IN (SELECT DISTINCT run_id FROM run_events WHERE type = 'child');
  `,
];

if (MIGRATIONS.length !== SCHEMA_VERSION)
  throw new Error(`schema.sql.ts has ${MIGRATIONS.length} migrations for ${SCHEMA_VERSION} schema versions`);

/** Brings the file up to the newest schema and returns that version. One IMMEDIATE transaction, with the version
 *  read inside it, so two processes opening a new file at once cannot both apply the same step. */
export function migrate(db: Database.Database): number {
  db.transaction(() => {
    const current = db.pragma('user_version', { simple: true }) as number;
    if (current > MIGRATIONS.length) throw newerSchemaError(current);
    for (const step of MIGRATIONS.slice(current)) db.exec(step);
    if (current < MIGRATIONS.length) db.pragma(`user_version = ${MIGRATIONS.length}`);
  }).immediate();
  return MIGRATIONS.length;
}
