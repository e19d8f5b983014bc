// Every SQL statement the PostgreSQL store runs, by name: each is sent as a named (prepared) statement, parsed and
// planned once per connection of the pool. Rows come back in the shapes of statements.ts (the SQLite store's).
import type pg from 'pg';

const conversationColumns = 'id, title, created_at, updated_at, settings_json';
const turnColumns = 'id, conversation_id, seq, content_json, created_at';
const runColumns = 'r.id, r.turn_id, r.status, r.started_at, r.ended_at, r.error_json';
const documentColumns =
  'id, conversation_id, hash, name, size, state, kind, pages, title, error, error_code, created_at';

/** The channel that says a run's log grew (`<run id> <last seq>`) or that the run ended (`<run id> end`). */
export const EVENTS_CHANNEL = 'agent_studio_run_events';

export const PG_SQL = {
  insertConversation: `INSERT INTO conversations (id, title, created_at, updated_at, settings_json, search_text)
                         VALUES ($1, $2, $3, $4, $5, $6)`,
  conversation: `SELECT ${conversationColumns} FROM conversations WHERE id = $1`,
  // Serialises the writers of one conversation (turn numbers, search text) across instances.
  lockConversation: `SELECT ${conversationColumns} FROM conversations WHERE id = $1 FOR UPDATE`,
  listAll: `SELECT ${conversationColumns} FROM conversations ORDER BY updated_at DESC, ord DESC`,
  // The words come as one array so a single prepared statement serves any number of them.
  listMatching: `SELECT ${conversationColumns} FROM conversations c
                   WHERE NOT EXISTS (SELECT 1 FROM unnest($1::text[]) w WHERE strpos(c.search_text, w) = 0)
                   ORDER BY updated_at DESC, ord DESC`,
  rename: 'UPDATE conversations SET title = $1 WHERE id = $2',
  setSettings: 'UPDATE conversations SET settings_json = $1 WHERE id = $2',
  touch: 'UPDATE conversations SET updated_at = $1 WHERE id = $2',
  deleteConversation: 'DELETE FROM conversations WHERE id = $1',
  rebuildSearch: `UPDATE conversations SET search_text = $2::text
                      || E'\\n' || coalesce((SELECT string_agg(search_text, E'\\n' ORDER BY seq)
                                             FROM turns WHERE conversation_id = $1), '')
                      || E'\\n' || coalesce((SELECT string_agg(r.answer_text, E'\\n' ORDER BY r.ord)
                                             FROM runs r JOIN turns t ON t.id = r.turn_id
                                             WHERE t.conversation_id = $1 AND r.answer_text IS NOT NULL), '')
                    WHERE id = $1`,

  insertTurn: `INSERT INTO turns (id, conversation_id, seq, content_json, search_text, created_at)
                 VALUES ($1, $2, (SELECT coalesce(max(seq), -1) + 1 FROM turns WHERE conversation_id = $2), $3, $4, $5)
                 RETURNING ${turnColumns}`,
  turn: `SELECT ${turnColumns} FROM turns WHERE id = $1`,
  turnsOf: `SELECT ${turnColumns} FROM turns WHERE conversation_id = $1 ORDER BY seq`,
  deleteTurnsFrom: 'DELETE FROM turns WHERE conversation_id = $1 AND seq >= $2',

  // The instance that starts a run holds its lease from the start.
  insertRun: `INSERT INTO runs (id, turn_id, status, started_at, lease_holder, lease_until)
                VALUES ($1, $2, 'running', $3, $4, now() + $5::integer * interval '1 millisecond')`,
  runExists: 'SELECT id FROM runs WHERE id = $1',
  run: `SELECT ${runColumns} FROM runs r WHERE r.id = $1`,
  runLease: 'SELECT status, lease_holder FROM runs WHERE id = $1',
  runsOfTurn: `SELECT ${runColumns} FROM runs r WHERE r.turn_id = $1 ORDER BY r.started_at, r.ord`,
  runsOfConversation: `SELECT ${runColumns} FROM runs r JOIN turns t ON t.id = r.turn_id
                         WHERE t.conversation_id = $1 ORDER BY r.started_at, r.ord`,
  runningOfConversation: `SELECT r.id FROM runs r JOIN turns t ON t.id = r.turn_id
                            WHERE t.conversation_id = $1 AND r.status = 'running'`,
  conversationOfRun: `SELECT c.id, c.title FROM runs r JOIN turns t ON t.id = r.turn_id
                        JOIN conversations c ON c.id = t.conversation_id WHERE r.id = $1`,
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
                   SELECT id FROM runs WHERE id = $1 AND status = 'running' AND lease_holder = $4 FOR SHARE
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

  insertDocument: `INSERT INTO documents (id, conversation_id, hash, name, size, state, created_at)
                     SELECT $1, id, $3, $4, $5, 'parsing', $6 FROM conversations WHERE id = $2
                     RETURNING ${documentColumns}`,
  document: `SELECT ${documentColumns} FROM documents WHERE id = $1`,
  documentsOf: `SELECT ${documentColumns} FROM documents WHERE conversation_id = $1 ORDER BY created_at, ord`,
  documentReady: `UPDATE documents SET state = 'ready', kind = $1, pages = $2, title = $3, error = NULL,
                    error_code = NULL WHERE id = $4 RETURNING ${documentColumns}`,
  documentFailed: `UPDATE documents SET state = 'error', error = $1, error_code = $2 WHERE id = $3
                     RETURNING ${documentColumns}`,
  removeDocument: `DELETE FROM documents WHERE id = $1 RETURNING ${documentColumns}`,
  countHash: 'SELECT count(*) AS n FROM documents WHERE hash = $1',
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
