// The store's tables as Kysely sees them: one row type per table, the same on SQLite and PostgreSQL (migrations.ts
// makes them). Times are milliseconds since the epoch; JSON is kept as text. Where only one database has a column it
// says so. Adding a column: a migration step, then its field here.
import type { Generated } from 'kysely';
import type { RunStatus } from '../protocol/enums';

export interface Tables {
  chunk_vectors: {
    embedder: string;
    hash: string;
    page_size: number;
    dims: number;
    count: number;
    /** `count` × `dims` little-endian float32s. */
    vectors: Uint8Array;
    created_at: number;
  };
  conversations: {
    id: string;
    owner_id: string;
    title: string;
    created_at: number;
    updated_at: number;
    settings_json: string;
    /** Lower-cased title, user messages and finished answers, kept current by the store for substring search. */
    search_text: string;
  };
  turns: {
    id: string;
    conversation_id: string;
    seq: number;
    content_json: string;
    search_text: string;
    created_at: number;
  };
  runs: {
    id: string;
    turn_id: string;
    status: RunStatus;
    started_at: number;
    ended_at: number | null;
    error_json: string | null;
    /** Lower-cased text of its answer, set when it ends. */
    answer_text: string | null;
    /** The messages it added (foldEvents of its log), set when it ends. */
    messages_json: string | null;
    /** PostgreSQL: the instance that drives it, and until when (the database's clock). */
    lease_holder: string | null;
    lease_until: Date | null;
  };
  run_events: { run_id: string; seq: number; type: string; json: string };
  documents: {
    id: string;
    conversation_id: string;
    hash: string;
    name: string;
    size: number;
    state: 'parsing' | 'ready' | 'error';
    kind: string | null;
    pages: number | null;
    title: string | null;
    error: string | null;
    error_code: string | null;
    created_at: number;
  };
  api_keys: {
    id: string;
    owner_id: string;
    name: string;
    prefix: string;
    /** sha256 of the key, hex: the key itself is never stored. */
    hash: string;
    created_at: number;
    last_used_at: number | null;
    revoked_at: number | null;
  };
  invites: {
    id: string;
    hash: string;
    created_by: string;
    created_at: number;
    expires_at: number;
    used_at: number | null;
    used_by: string | null;
    revoked_at: number | null;
  };
  server_settings: { key: string; value_json: string };
  model_connections: {
    id: string;
    /** null: server-wide. */
    owner_id: string | null;
    name: string;
    base_url: string;
    api_key_cipher: string | null;
    capabilities_json: string;
    rates_json: string;
    created_at: number;
    updated_at: number;
  };
  /** connection_id: a saved connection's id, or 'env'. */
  learned_capabilities: { connection_id: string; model: string; hints_json: string };
  agents: {
    id: string;
    owner_id: string;
    name: string;
    definition_json: string;
    created_at: number;
    updated_at: number;
  };
  agent_documents: { agent_id: string; owner_id: string; hash: string };
  run_summaries: {
    id: Generated<number>;
    run_id: string;
    conversation_id: string;
    /** The conversation's owner, copied so that the Runs page filters and counts without a join. */
    owner_id: string;
    started_at: number;
    outcome: string;
    agent: string | null;
    model: string | null;
    llm_calls: number;
    tool_calls: number;
    failed_tool_calls: number;
    prompt_tokens: number;
    completion_tokens: number;
    duration_ms: number;
    cost: number | null;
  };
  run_tool_calls: { summary_id: number; name: string; ok: boolean; duration_ms: number };
  run_llm_calls: {
    summary_id: number;
    model: string;
    prompt_tokens: number;
    completion_tokens: number;
    ttft_ms: number | null;
  };
  /** PostgreSQL: stops and tool decisions for a run, to the instance that drives it (run-bus.ts). */
  run_controls: {
    id: Generated<number>;
    run_id: string;
    holder: string;
    sender: string;
    message_json: string;
    answer: string | null;
    created_at: Generated<Date>;
  };
}
