// The store's tables as Kysely sees them: one row type per table, the same on SQLite and PostgreSQL (migrations.ts
// makes them). Times are milliseconds since the epoch; JSON is kept as text (Json<T>: what it holds). Where only one
// database has a column it says so. Adding a column: a migration step, then its field here. The records the store
// answers with are these rows' (Entity), where they are the same.
import type { Generated } from 'kysely';
import type { CapabilityHints } from '../llm/capabilities';
import type { ModelRates } from '../llm/cost';
import type { ContentItem, Message } from '../llm/schema';
import type { AgentKind, RunStatus } from '../protocol/enums';
import type { ErrorInfo } from '../protocol/events';

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
    /** 0, 1, 2... in conversation order. */
    seq: number;
    /** The user's message: text, or content items (text plus files). */
    content_json: Json<string | ContentItem[]>;
    search_text: string;
    created_at: number;
  };
  runs: {
    id: string;
    turn_id: string;
    status: RunStatus;
    started_at: number;
    ended_at: number | null;
    error_json: Json<ErrorInfo> | null;
    /** Lower-cased text of its answer, set when it ends. */
    answer_text: string | null;
    /** The messages it added (foldEvents of its log), set when it ends. */
    messages_json: Json<Message[]> | null;
    /** PostgreSQL: the instance that drives it, and until when (the database's clock). */
    lease_holder: string | null;
    lease_until: Date | null;
  };
  run_events: { run_id: string; seq: number; type: string; json: string };
  /** An uploaded file's record. The bytes live under DATA_DIR/files/<hash>. */
  documents: {
    id: string;
    conversation_id: string;
    /** sha256 of the bytes, hex. */
    hash: string;
    /** The sanitised file name. */
    name: string;
    size: number;
    state: 'parsing' | 'ready' | 'error';
    /** What the bytes turned out to be, once parsed. */
    kind: string | null;
    pages: number | null;
    title: string | null;
    /** Why it cannot be read (state 'error'), in English, as the model is told. */
    error: string | null;
    /** The same as a code (lib/documents DocumentError's, or 'unreadable'), for the page to say in its language. */
    error_code: string | null;
    created_at: number;
  };
  api_keys: {
    id: string;
    owner_id: string;
    name: string;
    /** The first characters of the key, to tell keys apart in a list. */
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
  auth_attempts: { kind: string; key: string; at: number };
  model_connections: {
    id: string;
    /** null: server-wide. */
    owner_id: string | null;
    name: string;
    base_url: string;
    api_key_cipher: string | null;
    /** What the user set per model name; the key "*" holds what they set for every model of the connection. */
    capabilities_json: Json<Record<string, CapabilityHints>>;
    /** Prices and context lengths the user set, per model name ("*": every model of the connection). */
    rates_json: Json<Record<string, ModelRates>>;
    created_at: number;
    updated_at: number;
  };
  /** connection_id: a saved connection's id, or 'env'. */
  learned_capabilities: { connection_id: string; model: string; hints_json: Json<CapabilityHints> };
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
    /** How it ended (a run still going is not indexed). */
    outcome: Exclude<RunStatus, 'running'>;
    agent: AgentKind | null;
    model: string | null;
    llm_calls: number;
    tool_calls: number;
    failed_tool_calls: number;
    prompt_tokens: number;
    completion_tokens: number;
    duration_ms: number;
    /** What the run cost at the prices it ran with (NULL: no price was set for its model). */
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

/** A JSON column's text, typed with what it holds (query.ts toJson makes it, fromRow parses it back). */
export type Json<T> = string & { readonly [JSON_OF]: T };
declare const JSON_OF: unique symbol;

type Camel<S> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
type Field<K> = K extends `${infer Name}_json` ? Camel<Name> : Camel<K>;
type Value<V> = V extends Json<infer T> ? T : V;

/** The record a row reads as (query.ts fromRow): camelCase fields; `<name>_json` columns as `<name>`, parsed; a NULL column is
 *  an absent field. */
export type Entity<Row> = {
  [K in keyof Row as null extends Row[K] ? never : Field<K>]: Value<Row[K]>;
} & { [K in keyof Row as null extends Row[K] ? Field<K> : never]?: Value<Exclude<Row[K], null>> };
