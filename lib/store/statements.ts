// Every SQL statement the SQLite store runs, prepared once when the store opens, with the row shapes they return.
// Each statement that finds or lists by id takes the owner too: conversations by their owner_id, turns, runs and
// events through the conversation they belong to. The few that do not (start-up maintenance, the writes that follow
// an owned lookup in the same transaction) say so.
import type Database from 'better-sqlite3';
import type { RunStatus } from '../protocol/enums';

export interface ConversationRow {
  id: string;
  title: string;
  created_at: number;
  updated_at: number;
  settings_json: string;
}
export interface TurnRow {
  id: string;
  conversation_id: string;
  seq: number;
  content_json: string;
  created_at: number;
}
export interface RunRow {
  id: string;
  turn_id: string;
  status: RunStatus;
  started_at: number;
  ended_at: number | null;
  error_json: string | null;
}

/** A turn's run as a history reads it. */
export interface HistoryRunRow {
  id: string;
  turn_id: string;
  status: RunStatus;
  messages_json: string | null;
}

export type Statements = ReturnType<typeof prepareStatements>;

export function prepareStatements(db: Database.Database) {
  const p = <Params extends unknown[] | Record<string, unknown>, Row = unknown>(source: string) =>
    db.prepare<Params, Row>(source);
  const conversationColumns = 'id, title, created_at, updated_at, settings_json';
  const turnColumns = 't.id, t.conversation_id, t.seq, t.content_json, t.created_at';
  const runColumns = 'r.id, r.turn_id, r.status, r.started_at, r.ended_at, r.error_json';
  return {
    insertConversation: p<[string, string, string, number, number, string, string]>(
      `INSERT INTO conversations (id, owner_id, title, created_at, updated_at, settings_json, search_text)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    conversation: p<[string, string], ConversationRow>(
      `SELECT ${conversationColumns} FROM conversations WHERE id = ? AND owner_id = ?`,
    ),
    listAll: p<[string], ConversationRow>(
      `SELECT ${conversationColumns} FROM conversations WHERE owner_id = ? ORDER BY updated_at DESC, rowid DESC`,
    ),
    // The words come as one JSON array so a single prepared statement serves any number of them.
    listMatching: p<[string, string], ConversationRow>(
      `SELECT ${conversationColumns} FROM conversations c
         WHERE owner_id = ? AND NOT EXISTS (SELECT 1 FROM json_each(?) w WHERE instr(c.search_text, w.value) = 0)
         ORDER BY updated_at DESC, rowid DESC`,
    ),
    rename: p<[string, string, string]>('UPDATE conversations SET title = ? WHERE id = ? AND owner_id = ?'),
    setSettings: p<[string, string, string]>(
      'UPDATE conversations SET settings_json = ? WHERE id = ? AND owner_id = ?',
    ),
    // After an owned lookup in the same transaction.
    touch: p<[number, string]>('UPDATE conversations SET updated_at = ? WHERE id = ?'),
    deleteConversation: p<[string, string]>('DELETE FROM conversations WHERE id = ? AND owner_id = ?'),
    // After an owned lookup in the same transaction (or for a run being closed at start-up).
    rebuildSearch: p<{ id: string; title: string }>(
      `UPDATE conversations SET search_text = :title
           || char(10) || coalesce((SELECT group_concat(search_text, char(10) ORDER BY seq)
                                    FROM turns WHERE conversation_id = :id), '')
           || char(10) || coalesce((SELECT group_concat(r.answer_text, char(10))
                                    FROM runs r JOIN turns t ON t.id = r.turn_id
                                    WHERE t.conversation_id = :id AND r.answer_text IS NOT NULL), '')
         WHERE id = :id`,
    ),
    adoptConversations: p<[string, string]>('UPDATE conversations SET owner_id = ? WHERE owner_id = ?'),

    // After an owned conversation lookup in the same transaction.
    insertTurn: p<[string, string, string, string, string, number]>(
      `INSERT INTO turns (id, conversation_id, seq, content_json, search_text, created_at)
         VALUES (?, ?, (SELECT coalesce(max(seq), -1) + 1 FROM turns WHERE conversation_id = ?), ?, ?, ?)`,
    ),
    turn: p<[string, string], TurnRow>(
      `SELECT ${turnColumns} FROM turns t JOIN conversations c ON c.id = t.conversation_id
         WHERE t.id = ? AND c.owner_id = ?`,
    ),
    // After an owned conversation lookup in the same transaction.
    turnsOf: p<[string], TurnRow>(
      'SELECT id, conversation_id, seq, content_json, created_at FROM turns t WHERE conversation_id = ? ORDER BY seq',
    ),
    deleteTurnsFrom: p<[string, number]>('DELETE FROM turns WHERE conversation_id = ? AND seq >= ?'),

    insertRun: p<[string, string, number]>(
      "INSERT INTO runs (id, turn_id, status, started_at) VALUES (?, ?, 'running', ?)",
    ),
    /** Whether any owner has a run with this id (run ids are made by the server; a clash is a bug, not a leak). */
    runExists: p<[string], { id: string }>('SELECT id FROM runs WHERE id = ?'),
    run: p<[string, string], RunRow>(
      `SELECT ${runColumns} FROM runs r JOIN turns t ON t.id = r.turn_id JOIN conversations c ON c.id = t.conversation_id
         WHERE r.id = ? AND c.owner_id = ?`,
    ),
    runsOfTurn: p<[string, string], RunRow>(
      `SELECT ${runColumns} FROM runs r JOIN turns t ON t.id = r.turn_id JOIN conversations c ON c.id = t.conversation_id
         WHERE r.turn_id = ? AND c.owner_id = ? ORDER BY r.started_at, r.rowid`,
    ),
    // After an owned conversation lookup in the same transaction.
    runsOfConversation: p<[string], RunRow>(
      `SELECT ${runColumns} FROM runs r JOIN turns t ON t.id = r.turn_id
         WHERE t.conversation_id = ? ORDER BY r.started_at, r.rowid`,
    ),
    historyRuns: p<[string], HistoryRunRow>(
      `SELECT r.id, r.turn_id, r.status, r.messages_json FROM runs r JOIN turns t ON t.id = r.turn_id
         WHERE t.conversation_id = ? ORDER BY r.started_at, r.rowid`,
    ),
    keepRunMessages: p<[string, string]>("UPDATE runs SET messages_json = ? WHERE id = ? AND status <> 'running'"),
    // Of a run found by an owned lookup, or closed at start-up.
    conversationOfRun: p<[string], { id: string; title: string }>(
      `SELECT c.id, c.title FROM runs r JOIN turns t ON t.id = r.turn_id JOIN conversations c ON c.id = t.conversation_id
         WHERE r.id = ?`,
    ),
    answerText: p<[string], { text: string | null }>(
      `SELECT group_concat(json_extract(json, '$.text'), '' ORDER BY seq) AS text
         FROM run_events WHERE run_id = ? AND type = 'text-delta'`,
    ),
    finishRun: p<[string, number, string | null, string, string]>(
      'UPDATE runs SET status = ?, ended_at = ?, error_json = ?, answer_text = ? WHERE id = ?',
    ),
    // Start-up maintenance, for every owner.
    runningRuns: p<[], { id: string }>("SELECT id FROM runs WHERE status = 'running'"),

    // After an owned run lookup. The seq is computed in the INSERT itself (a primary-key lookup), so writers in other
    // processes interleave safely.
    insertEvent: p<[string, string, string, string]>(
      `INSERT INTO run_events (run_id, seq, type, json)
         VALUES (?, (SELECT coalesce(max(seq), -1) + 1 FROM run_events WHERE run_id = ?), ?, ?)`,
    ),
    eventsOf: p<[string], { json: string }>('SELECT json FROM run_events WHERE run_id = ? ORDER BY seq'),
  };
}
