// The versions of the database layout, oldest first: one list for both databases, each step's SQL written once in
// the words both understand, with the few that differ taken from the dialect (`Ddl`: sqlite-dialect.ts,
// postgres-dialect.ts). The dialect records how many steps a database has had (SQLite: PRAGMA user_version;
// PostgreSQL: the schema_migrations table), applies the missing ones in one transaction under a lock when the store
// opens, and refuses a database newer than this list. Append new steps; never edit old ones (a database made before
// this list was written once went through the same steps, in each database's own words).
export interface Ddl {
  readonly dialect: 'sqlite' | 'postgres';
  /** 64-bit integers (times in ms, sizes, token counts): SQLite's INTEGER, PostgreSQL's bigint. */
  readonly big: string;
  /** Floating point: REAL, double precision. */
  readonly real: string;
  /** A yes or no: INTEGER (0 or 1), boolean. */
  readonly bool: string;
  /** Step 7's full-text index of run_text (FTS5 with trigrams; pg_trgm under a GIN index). */
  readonly runText: string;
}

/** PostgreSQL's words only (SQLite keeps insertion order in its rowid, where PostgreSQL has an `ord` column). */
const pg = (d: Ddl, s: string) => (d.dialect === 'postgres' ? s : '');
const lite = (d: Ddl, s: string) => (d.dialect === 'sqlite' ? s : '');
const ord = (d: Ddl) => pg(d, ', ord bigint GENERATED ALWAYS AS IDENTITY');

/** Each step's SQL, in the words of the database it runs on. Times are ms since the epoch; JSON is text. */
export const MIGRATIONS: readonly ((d: Ddl) => string)[] = [
  // 1: conversations, turns, runs and their events
  (d) => `
  CREATE TABLE conversations (id text PRIMARY KEY, title text NOT NULL, created_at ${d.big} NOT NULL,
    updated_at ${d.big} NOT NULL, settings_json text NOT NULL, search_text text NOT NULL DEFAULT ''${ord(d)});
  CREATE INDEX conversations_by_activity ON conversations (updated_at DESC${pg(d, ', ord DESC')});
  CREATE TABLE turns (id text PRIMARY KEY,
    conversation_id text NOT NULL REFERENCES conversations (id) ON DELETE CASCADE, seq integer NOT NULL,
    content_json text NOT NULL, search_text text NOT NULL DEFAULT '', created_at ${d.big} NOT NULL,
    UNIQUE (conversation_id, seq));
  CREATE TABLE runs (id text PRIMARY KEY, turn_id text NOT NULL REFERENCES turns (id) ON DELETE CASCADE,
    status text NOT NULL, started_at ${d.big} NOT NULL, ended_at ${d.big}, error_json text, answer_text text${ord(d)});
  CREATE INDEX runs_by_turn ON runs (turn_id, started_at${pg(d, ', ord')});
  ${d.dialect === 'sqlite' ? 'CREATE INDEX runs_by_status ON runs (status);' : "CREATE INDEX runs_running ON runs (status) WHERE status = 'running';"}
  CREATE TABLE run_events (run_id text NOT NULL REFERENCES runs (id) ON DELETE CASCADE, seq integer NOT NULL,
    type text NOT NULL, json text NOT NULL, PRIMARY KEY (run_id, seq))${lite(d, ' WITHOUT ROWID')};`,
  // 2: documents uploaded to a conversation (the bytes are files under DATA_DIR/files, by hash)
  (d) => `
  CREATE TABLE documents (id text PRIMARY KEY,
    conversation_id text NOT NULL REFERENCES conversations (id) ON DELETE CASCADE, hash text NOT NULL,
    name text NOT NULL, size ${d.big} NOT NULL, state text NOT NULL, kind text, pages integer, title text, error text,
    created_at ${d.big} NOT NULL${ord(d)});
  CREATE INDEX documents_by_conversation ON documents (conversation_id, created_at${pg(d, ', ord')});
  CREATE INDEX documents_by_hash ON documents (hash);`,
  // 3: why a document cannot be read, as a code (so the page can say it in the user’s language)
  () => 'ALTER TABLE documents ADD COLUMN error_code text;',
  // 4: accounts: conversations have an owner (what was written before is the built-in local owner's, until the first
  // admin takes it over); API keys (sha256 hashes), invites and the server settings. Users and sessions are the
  // accounts library's own tables (lib/auth).
  (d) => `
  ALTER TABLE conversations ADD COLUMN owner_id text NOT NULL DEFAULT 'local';
  DROP INDEX conversations_by_activity;
  CREATE INDEX conversations_by_owner ON conversations (owner_id, updated_at DESC${pg(d, ', ord DESC')});
  CREATE TABLE api_keys (id text PRIMARY KEY, owner_id text NOT NULL, name text NOT NULL, prefix text NOT NULL,
    hash text NOT NULL UNIQUE, created_at ${d.big} NOT NULL, last_used_at ${d.big}, revoked_at ${d.big}${ord(d)});
  CREATE INDEX api_keys_by_owner ON api_keys (owner_id, created_at DESC${pg(d, ', ord DESC')});
  CREATE TABLE invites (id text PRIMARY KEY, hash text NOT NULL UNIQUE, created_by text NOT NULL,
    created_at ${d.big} NOT NULL, expires_at ${d.big} NOT NULL, used_at ${d.big}, used_by text,
    revoked_at ${d.big}${ord(d)});
  CREATE TABLE server_settings (key text PRIMARY KEY, value_json text NOT NULL);`,
  // 5: model connections added on the page (owner NULL: server-wide), and what servers taught about their models
  // (connection_id: a saved connection's id or 'env', so no foreign key: the store deletes a connection's rows).
  (d) => `
  CREATE TABLE model_connections (id text PRIMARY KEY, owner_id text, name text NOT NULL, base_url text NOT NULL,
    api_key_cipher text, capabilities_json text NOT NULL DEFAULT '{}', created_at ${d.big} NOT NULL,
    updated_at ${d.big} NOT NULL${ord(d)});
  CREATE INDEX model_connections_by_owner ON model_connections (owner_id, created_at${pg(d, ', ord')});
  CREATE TABLE learned_capabilities (connection_id text NOT NULL, model text NOT NULL, hints_json text NOT NULL,
    PRIMARY KEY (connection_id, model))${lite(d, ' WITHOUT ROWID')};`,
  // 6: agents a user saved
  (d) => `
  CREATE TABLE agents (id text PRIMARY KEY, owner_id text NOT NULL, name text NOT NULL,
    definition_json text NOT NULL, created_at ${d.big} NOT NULL, updated_at ${d.big} NOT NULL${ord(d)});
  ${pg(d, 'CREATE INDEX agents_by_owner ON agents (owner_id);')}`,
  // 7: the Runs page's index (run-index.ts): a summary per ended run (owner_id copied from its conversation), its
  // tool and model calls, and the text a search looks in. Runs that ended before it are indexed at the next open.
  (d) => `
  CREATE TABLE run_summaries (
    id ${d.dialect === 'sqlite' ? 'INTEGER PRIMARY KEY' : 'bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY'},
    run_id text NOT NULL UNIQUE REFERENCES runs (id) ON DELETE CASCADE, conversation_id text NOT NULL,
    owner_id text NOT NULL, started_at ${d.big} NOT NULL, outcome text NOT NULL, agent text, model text,
    llm_calls integer NOT NULL, tool_calls integer NOT NULL, failed_tool_calls integer NOT NULL,
    prompt_tokens ${d.big} NOT NULL, completion_tokens ${d.big} NOT NULL, duration_ms ${d.big} NOT NULL);
  CREATE INDEX run_summaries_by_owner ON run_summaries (owner_id, started_at DESC);
  CREATE INDEX run_summaries_by_outcome ON run_summaries (owner_id, outcome, started_at DESC);
  CREATE INDEX run_summaries_by_model ON run_summaries (owner_id, model, started_at DESC);
  CREATE INDEX run_summaries_by_agent ON run_summaries (owner_id, agent, started_at DESC);
  CREATE INDEX run_summaries_failed ON run_summaries (owner_id, started_at DESC) WHERE failed_tool_calls > 0;
  CREATE TABLE run_tool_calls (summary_id ${d.big} NOT NULL REFERENCES run_summaries (id) ON DELETE CASCADE,
    name text NOT NULL, ok ${d.bool} NOT NULL, duration_ms ${d.real} NOT NULL);
  CREATE INDEX run_tool_calls_by_run ON run_tool_calls (summary_id);
  CREATE INDEX run_tool_calls_by_name ON run_tool_calls (name, ok, summary_id);
  CREATE TABLE run_llm_calls (summary_id ${d.big} NOT NULL REFERENCES run_summaries (id) ON DELETE CASCADE,
    model text NOT NULL, prompt_tokens ${d.big} NOT NULL, completion_tokens ${d.big} NOT NULL, ttft_ms ${d.real});
  CREATE INDEX run_llm_calls_by_run ON run_llm_calls (summary_id);
  ${d.runText}`,
  // 8: runs leased by the instance that drives them (several instances on one database; nothing on SQLite, where one
  // process drives every run): a run whose lease ran out is marked interrupted by whichever instance sees it first;
  // stops and tool decisions go to the instance that drives a run through run_controls (run-bus.ts).
  (d) =>
    pg(
      d,
      `
  ALTER TABLE runs ADD COLUMN lease_holder text;
  ALTER TABLE runs ADD COLUMN lease_until timestamptz;
  CREATE TABLE run_controls (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    run_id text NOT NULL REFERENCES runs (id) ON DELETE CASCADE, holder text NOT NULL, sender text NOT NULL,
    message_json text NOT NULL, answer text, created_at timestamptz NOT NULL DEFAULT now());
  CREATE INDEX run_controls_unanswered ON run_controls (holder) WHERE answer IS NULL;`,
    ),
  // 9: the documents a saved agent always has (its knowledge), from its definition: a file an agent holds is its
  // owner's (ownsUpload), and its bytes stay while an agent holds them (countDocumentsWithHash)
  (d) => `
  CREATE TABLE agent_documents (agent_id text NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    owner_id text NOT NULL, hash text NOT NULL, PRIMARY KEY (agent_id, hash))${lite(d, ' WITHOUT ROWID')};
  CREATE INDEX agent_documents_by_hash ON agent_documents (hash, owner_id);`,
  // 10: prices and context lengths per model on a connection, and what each indexed run cost (NULL: no price set)
  (d) => `
  ALTER TABLE model_connections ADD COLUMN rates_json text NOT NULL DEFAULT '{}';
  ALTER TABLE run_summaries ADD COLUMN cost ${d.real};`,
  // 11: the messages each ended run added (foldEvents of its log), so that a conversation's history is read without
  // its events; NULL while it runs, and for a run that ended before, until its conversation's history is read
  () => 'ALTER TABLE runs ADD COLUMN messages_json text;',
  // 12: a run's summary counts its child runs' calls (a Router's helpers, a GroupChat's members): the summaries of
  // runs that had children are dropped, and indexed again at open
  () => "DELETE FROM run_summaries WHERE run_id IN (SELECT DISTINCT run_id FROM run_events WHERE type = 'child');",
  // 13: vector search's chunk vectors (chunk-vectors.ts), per embedding model, document content and page size: the
  // `count` vectors of `dims` float32s each, packed. Keyed by content, not by upload: shared as the bytes are. (IF NOT
  // EXISTS: a database set back to an older version, as a test of step 12 does, runs it again.)
  (d) => `
  CREATE TABLE IF NOT EXISTS chunk_vectors (embedder text NOT NULL, hash text NOT NULL, page_size integer NOT NULL,
    dims integer NOT NULL, count integer NOT NULL, vectors ${d.dialect === 'sqlite' ? 'blob' : 'bytea'} NOT NULL,
    created_at ${d.big} NOT NULL, PRIMARY KEY (embedder, hash, page_size))${lite(d, ' WITHOUT ROWID')};
  CREATE INDEX IF NOT EXISTS chunk_vectors_by_hash ON chunk_vectors (hash);`,
  // 14: what the accounts' limits count (lib/auth/limits.ts: failed sign-ins, wrong setup codes, sign-ups), in the
  // database so that the instances sharing it count the same attempts and a restart forgets none; `key` is a hash of
  // what is counted (an address, an account), never the address or the email (IF NOT EXISTS: as step 13's)
  (d) => `
  CREATE TABLE IF NOT EXISTS auth_attempts (kind text NOT NULL, key text NOT NULL, at ${d.big} NOT NULL);
  CREATE INDEX IF NOT EXISTS auth_attempts_by_key ON auth_attempts (kind, key, at);`,
  // 15: the messages kept for a run that did not answer (failed, stopped, its server gone) may hold a tool call with
  // no result, which the next request's model refuses: dropped, they are folded again (each such call answered) when
  // their conversation's history is next read
  () => "UPDATE runs SET messages_json = NULL WHERE status <> 'answered' AND messages_json IS NOT NULL;",
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export function newerSchemaError(current: number): Error {
  return new Error(
    `The database is at schema version ${current}, newer than this app knows (${SCHEMA_VERSION}); upgrade the app.`,
  );
}
