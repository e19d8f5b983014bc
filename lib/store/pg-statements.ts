// Every SQL statement the PostgreSQL store runs, by name: each is sent as a named (prepared) statement, parsed and
// planned once per connection of the pool. Rows come back in the shapes of statements.ts (the SQLite store's).
// Ownership as on SQLite: a statement that finds an object by id or lists takes the owner and joins up to the
// conversation's owner_id; the few without one say after which owned lookup they run (or why they are every owner's).
import type pg from 'pg';
import { COLUMNS as AGENT_COLUMNS } from './agents';
import { COLUMNS as CONNECTION_COLUMNS } from './connections';

const conversationColumns = 'id, title, created_at, updated_at, settings_json';
const turnColumns = 't.id, t.conversation_id, t.seq, t.content_json, t.created_at';
const runColumns = 'r.id, r.turn_id, r.status, r.started_at, r.ended_at, r.error_json';
const documentColumns =
  'd.id, d.conversation_id, d.hash, d.name, d.size, d.state, d.kind, d.pages, d.title, d.error, d.error_code, d.created_at';
/** The documents of conversations the owner has. */
const OWNED_DOCUMENTS = 'documents d JOIN conversations c ON c.id = d.conversation_id';
const OWNED_RUNS = 'runs r JOIN turns t ON t.id = r.turn_id JOIN conversations c ON c.id = t.conversation_id';

const KEY_COLUMNS = 'id, owner_id, name, prefix, created_at, last_used_at, revoked_at';
const INVITE_COLUMNS = 'id, created_by, created_at, expires_at, used_at, used_by, revoked_at';
/** An invite still usable at time $N. */
const OPEN_INVITE = 'used_at IS NULL AND revoked_at IS NULL AND expires_at > $N';

/** The channel that says a run's log grew (`<run id> <last seq>`) or that the run ended (`<run id> end`). */
export const EVENTS_CHANNEL = 'agent_studio_run_events';

export const PG_SQL = {
  insertConversation: `INSERT INTO conversations (id, owner_id, title, created_at, updated_at, settings_json, search_text)
                         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
  conversation: `SELECT ${conversationColumns} FROM conversations WHERE id = $1 AND owner_id = $2`,
  // Serialises the writers of one conversation (turn numbers, search text) across instances. With the owner ($2);
  // without one ($2 NULL) only for closing a run found by an owned lookup or by the lease sweep.
  lockConversation: `SELECT ${conversationColumns} FROM conversations
                       WHERE id = $1 AND ($2::text IS NULL OR owner_id = $2) FOR UPDATE`,
  listAll: `SELECT ${conversationColumns} FROM conversations WHERE owner_id = $1 ORDER BY updated_at DESC, ord DESC`,
  // The words come as one array so a single prepared statement serves any number of them.
  listMatching: `SELECT ${conversationColumns} FROM conversations c
                   WHERE owner_id = $1
                     AND NOT EXISTS (SELECT 1 FROM unnest($2::text[]) w WHERE strpos(c.search_text, w) = 0)
                   ORDER BY updated_at DESC, ord DESC`,
  // After an owned lookup in the same transaction.
  rename: 'UPDATE conversations SET title = $1 WHERE id = $2',
  setSettings: 'UPDATE conversations SET settings_json = $1 WHERE id = $2',
  touch: 'UPDATE conversations SET updated_at = $1 WHERE id = $2',
  deleteConversation: 'DELETE FROM conversations WHERE id = $1 AND owner_id = $2',
  adoptConversations: 'UPDATE conversations SET owner_id = $1 WHERE owner_id = $2',
  // After an owned lookup in the same transaction (or for a run being closed by the sweep).
  rebuildSearch: `UPDATE conversations SET search_text = $2::text
                      || E'\\n' || coalesce((SELECT string_agg(search_text, E'\\n' ORDER BY seq)
                                             FROM turns WHERE conversation_id = $1), '')
                      || E'\\n' || coalesce((SELECT string_agg(r.answer_text, E'\\n' ORDER BY r.ord)
                                             FROM runs r JOIN turns t ON t.id = r.turn_id
                                             WHERE t.conversation_id = $1 AND r.answer_text IS NOT NULL), '')
                    WHERE id = $1`,

  insertTurn: `INSERT INTO turns (id, conversation_id, seq, content_json, search_text, created_at)
                 VALUES ($1, $2, (SELECT coalesce(max(seq), -1) + 1 FROM turns WHERE conversation_id = $2), $3, $4, $5)
                 RETURNING id, conversation_id, seq, content_json, created_at`,
  turn: `SELECT ${turnColumns} FROM turns t JOIN conversations c ON c.id = t.conversation_id
           WHERE t.id = $1 AND c.owner_id = $2`,
  // After an owned conversation lookup (these three).
  turnsOf: `SELECT ${turnColumns} FROM turns t WHERE t.conversation_id = $1 ORDER BY t.seq`,
  deleteTurnsFrom: 'DELETE FROM turns WHERE conversation_id = $1 AND seq >= $2',

  // The instance that starts a run holds its lease from the start.
  insertRun: `INSERT INTO runs (id, turn_id, status, started_at, lease_holder, lease_until)
                VALUES ($1, $2, 'running', $3, $4, now() + $5::integer * interval '1 millisecond')`,
  /** Whether any owner has a run with this id (run ids are made by the server; a clash is a bug, not a leak). */
  runExists: 'SELECT id FROM runs WHERE id = $1',
  run: `SELECT ${runColumns} FROM ${OWNED_RUNS} WHERE r.id = $1 AND c.owner_id = $2`,
  runLease: `SELECT r.status, r.lease_holder FROM ${OWNED_RUNS} WHERE r.id = $1 AND c.owner_id = $2`,
  // For the run bus, which is handed only runs found by an owned lookup (lib/chat/shared-live-runs.ts).
  leaseOf: 'SELECT status, lease_holder FROM runs WHERE id = $1',
  runsOfTurn: `SELECT ${runColumns} FROM ${OWNED_RUNS} WHERE r.turn_id = $1 AND c.owner_id = $2
                 ORDER BY r.started_at, r.ord`,
  // After an owned conversation lookup (these two); the second also for the run bus, which checks first.
  runsOfConversation: `SELECT ${runColumns} FROM runs r JOIN turns t ON t.id = r.turn_id
                         WHERE t.conversation_id = $1 ORDER BY r.started_at, r.ord`,
  runningOfConversation: `SELECT r.id FROM runs r JOIN turns t ON t.id = r.turn_id
                            WHERE t.conversation_id = $1 AND r.status = 'running'`,
  // After an owned conversation lookup; the update also of a run being closed.
  historyRuns: `SELECT r.id, r.turn_id, r.status, r.messages_json FROM runs r JOIN turns t ON t.id = r.turn_id
                  WHERE t.conversation_id = $1 ORDER BY r.started_at, r.ord`,
  keepRunMessages: `UPDATE runs SET messages_json = $1 WHERE id = $2 AND status <> 'running'`,
  // Of a run found by an owned lookup, or by the lease sweep (every owner's).
  conversationOfRun: `SELECT c.id, c.title FROM ${OWNED_RUNS} WHERE r.id = $1`,
  // JSON is taken apart in the store, not here: PostgreSQL's JSON operators refuse a \\u0000 in a string.
  textDeltas: `SELECT json FROM run_events WHERE run_id = $1 AND type = 'text-delta' ORDER BY seq`,
  // Only the lease holder may finish a running run ($6); without a holder (start-up maintenance, the sweep) only a
  // run whose lease ran out.
  finishRun: `UPDATE runs SET status = $1, ended_at = $2, error_json = $3, answer_text = $4, lease_until = NULL
                WHERE id = $5 AND status = 'running'
                  AND CASE WHEN $6::text IS NULL THEN lease_until IS NULL OR lease_until < now()
                           ELSE lease_holder = $6 END`,
  notifyEnded: `SELECT pg_notify('${EVENTS_CHANNEL}', id || ' end') FROM unnest($1::text[]) AS id`,
  // Runs whose lease ran out (their instance stopped renewing it); finishRun checks again as it closes each.
  expiredRuns: `SELECT id FROM runs WHERE status = 'running' AND (lease_until IS NULL OR lease_until < now())`,
  renewLeases: `UPDATE runs SET lease_until = now() + $3::integer * interval '1 millisecond'
                  WHERE id = ANY($1::text[]) AND status = 'running' AND lease_holder = $2`,
  releaseLeases: `UPDATE runs SET lease_until = now() WHERE lease_holder = $1 AND status = 'running'`,

  /**
   * One batch of events, in one statement (one transaction): the run's row is locked for share (so it cannot be
   * marked interrupted half way) and must be running and held by this instance; the seqs follow the last stored
   * one; the NOTIFY (sent at commit) says the new last seq. Answers how many rows went in.
   */
  appendEvents: `WITH run AS (
                   SELECT r.id FROM ${OWNED_RUNS}
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
                   FROM added`,
  // After an owned run lookup.
  eventsOf: 'SELECT json FROM run_events WHERE run_id = $1 ORDER BY seq',
  // The run's status and its events after a seq, read in one snapshot: once it reads as ended, every event is there.
  tail: `SELECT r.status, e.seq, e.json FROM runs r LEFT JOIN run_events e ON e.run_id = r.id AND e.seq > $2
           WHERE r.id = $1 ORDER BY e.seq`,

  insertControl: `WITH c AS (
                    INSERT INTO run_controls (run_id, holder, sender, message_json) VALUES ($1, $2, $3, $4) RETURNING id
                  )
                  SELECT id, pg_notify($5, 'control ' || id) FROM c`,
  control: 'SELECT run_id, message_json FROM run_controls WHERE id = $1 AND holder = $2 AND answer IS NULL',
  answerControl: `WITH c AS (UPDATE run_controls SET answer = $2 WHERE id = $1 RETURNING id, sender)
                  SELECT pg_notify($3 || c.sender, 'answer ' || c.id) FROM c`,
  controlAnswer: 'SELECT answer FROM run_controls WHERE id = $1',
  deleteControl: 'DELETE FROM run_controls WHERE id = $1',
  unansweredControls: 'SELECT id FROM run_controls WHERE holder = $1 AND answer IS NULL ORDER BY id',
  // Controls nobody will read any more: their run is over.
  dropStaleControls: `DELETE FROM run_controls c USING runs r
                        WHERE r.id = c.run_id AND r.status <> 'running' AND c.created_at < now() - interval '1 minute'`,

  insertDocument: `INSERT INTO documents AS d (id, conversation_id, hash, name, size, state, created_at)
                     SELECT $1, id, $3, $4, $5, 'parsing', $6 FROM conversations WHERE id = $2 AND owner_id = $7
                     RETURNING ${documentColumns}`,
  document: `SELECT ${documentColumns} FROM ${OWNED_DOCUMENTS} WHERE d.id = $1 AND c.owner_id = $2`,
  documentsOf: `SELECT ${documentColumns} FROM ${OWNED_DOCUMENTS} WHERE d.conversation_id = $1 AND c.owner_id = $2
                  ORDER BY d.created_at, d.ord`,
  documentReady: `UPDATE documents AS d SET state = 'ready', kind = $1, pages = $2, title = $3, error = NULL,
                    error_code = NULL FROM conversations c
                    WHERE d.id = $4 AND c.id = d.conversation_id AND c.owner_id = $5 RETURNING ${documentColumns}`,
  documentFailed: `UPDATE documents AS d SET state = 'error', error = $1, error_code = $2 FROM conversations c
                     WHERE d.id = $3 AND c.id = d.conversation_id AND c.owner_id = $4 RETURNING ${documentColumns}`,
  removeDocument: `DELETE FROM documents AS d USING conversations c
                     WHERE d.id = $1 AND c.id = d.conversation_id AND c.owner_id = $2 RETURNING ${documentColumns}`,
  // A conversation's upload, or a saved agent's document (agent_documents, kept with the agent's definition).
  ownsHash: `SELECT (SELECT count(*) FROM ${OWNED_DOCUMENTS} WHERE d.hash = $1 AND c.owner_id = $2)
                  + (SELECT count(*) FROM agent_documents WHERE hash = $1 AND owner_id = $2) AS n`,
  // Every owner's: whether the bytes may go (never answered to a client).
  countHash: `SELECT (SELECT count(*) FROM documents WHERE hash = $1)
                   + (SELECT count(*) FROM agent_documents WHERE hash = $1) AS n`,

  insertKey: `INSERT INTO api_keys (id, owner_id, name, prefix, hash, created_at) VALUES ($1, $2, $3, $4, $5, $6)
                RETURNING ${KEY_COLUMNS}`,
  keysOf: `SELECT ${KEY_COLUMNS} FROM api_keys WHERE owner_id = $1 ORDER BY created_at DESC, ord DESC`,
  revokeKey: 'UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND owner_id = $3 AND revoked_at IS NULL',
  // Every owner's: how a request carrying a key finds whose it is.
  keyByHash: `SELECT ${KEY_COLUMNS} FROM api_keys WHERE hash = $1`,
  touchKey: 'UPDATE api_keys SET last_used_at = $1 WHERE id = $2',
  insertInvite: `INSERT INTO invites (id, hash, created_by, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)
                   RETURNING ${INVITE_COLUMNS}`,
  openInvites: `SELECT ${INVITE_COLUMNS} FROM invites WHERE ${OPEN_INVITE.replace('$N', '$1')}
                  ORDER BY created_at DESC, ord DESC`,
  openInvite: `SELECT ${INVITE_COLUMNS} FROM invites WHERE hash = $1 AND ${OPEN_INVITE.replace('$N', '$2')}`,
  revokeInvite: 'UPDATE invites SET revoked_at = $1 WHERE id = $2 AND used_at IS NULL AND revoked_at IS NULL',
  claimInvite: `UPDATE invites SET used_at = $1, used_by = $2 WHERE hash = $3 AND ${OPEN_INVITE.replace('$N', '$1')}`,
  setting: 'SELECT value_json FROM server_settings WHERE key = $1',
  putSetting: `INSERT INTO server_settings (key, value_json) VALUES ($1, $2)
                 ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json`,
  // A connection with no owner is server-wide: every owner reads it; only the server scope ($2 NULL) changes it.
  insertConnection: `INSERT INTO model_connections
                       (id, owner_id, name, base_url, api_key_cipher, capabilities_json, rates_json, created_at,
                        updated_at)
                       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING ${CONNECTION_COLUMNS}`,
  visibleConnection: `SELECT ${CONNECTION_COLUMNS} FROM model_connections
                        WHERE id = $1 AND (owner_id IS NULL OR owner_id = $2)`,
  connectionsVisibleTo: `SELECT ${CONNECTION_COLUMNS} FROM model_connections
                           WHERE owner_id IS NULL OR owner_id = $1 ORDER BY created_at, ord`,
  lockOwnedConnection: `SELECT ${CONNECTION_COLUMNS} FROM model_connections
                          WHERE id = $1 AND owner_id IS NOT DISTINCT FROM $2 FOR UPDATE`,
  updateConnection: `UPDATE model_connections
                       SET name = $1, base_url = $2, api_key_cipher = $3, capabilities_json = $4, rates_json = $5,
                           updated_at = $6
                       WHERE id = $7 AND owner_id IS NOT DISTINCT FROM $8 RETURNING ${CONNECTION_COLUMNS}`,
  // The connection and what was learnt of its models, in one statement.
  removeConnection: `WITH gone AS (
                       DELETE FROM model_connections WHERE id = $1 AND owner_id IS NOT DISTINCT FROM $2 RETURNING id
                     ), forgot AS (
                       DELETE FROM learned_capabilities WHERE connection_id IN (SELECT id FROM gone)
                     )
                     SELECT count(*)::integer AS n FROM gone`,
  // About a server, not a user (the models service asks only for a connection visible to its caller).
  learned: 'SELECT model, hints_json FROM learned_capabilities WHERE connection_id = $1',
  // Merged in the database, so two instances learning at once both count.
  learn: `INSERT INTO learned_capabilities AS l (connection_id, model, hints_json) VALUES ($1, $2, $3)
            ON CONFLICT (connection_id, model)
            DO UPDATE SET hints_json = (l.hints_json::jsonb || excluded.hints_json::jsonb)::text`,

  insertAgent: `INSERT INTO agents (id, owner_id, name, definition_json, created_at, updated_at)
                  VALUES ($1, $2, $3, $4, $5, $5) RETURNING ${AGENT_COLUMNS}`,
  agent: `SELECT ${AGENT_COLUMNS} FROM agents WHERE id = $1 AND owner_id = $2`,
  // By name as SQLite orders it: lower-cased, compared byte by byte (not by the database's locale).
  agentsOf: `SELECT ${AGENT_COLUMNS} FROM agents WHERE owner_id = $1 ORDER BY lower(name) COLLATE "C", created_at, ord`,
  updateAgent: `UPDATE agents SET name = $1, definition_json = $2, updated_at = $3 WHERE id = $4 AND owner_id = $5
                  RETURNING ${AGENT_COLUMNS}`,
  deleteAgent: 'DELETE FROM agents WHERE id = $1 AND owner_id = $2',
  adoptAgents: 'UPDATE agents SET owner_id = $1 WHERE owner_id = $2',
  adoptAgentDocuments: 'UPDATE agent_documents SET owner_id = $1 WHERE owner_id = $2',
  dropAgentDocuments: 'DELETE FROM agent_documents WHERE agent_id = $1',
  addAgentDocuments: `INSERT INTO agent_documents (agent_id, owner_id, hash)
                        SELECT $1, $2, unnest($3::text[]) ON CONFLICT DO NOTHING`,
} as const;

export type PgStatement = keyof typeof PG_SQL;

/** Anything that runs queries: the pool, or one client inside a transaction. */
export type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

/** Runs a statement by name (prepared once per connection). */
export async function run<Row extends pg.QueryResultRow = pg.QueryResultRow>(
  db: Queryable,
  name: PgStatement,
  values: unknown[] = [],
): Promise<pg.QueryResult<Row>> {
  return db.query<Row>({ name, text: PG_SQL[name], values });
}

/** PostgreSQL's text cannot hold U+0000 (JSON escapes it, so only plain columns need this). */
export function pgText(s: string): string {
  return s.includes('\u0000') ? s.replaceAll('\u0000', '') : s;
}
