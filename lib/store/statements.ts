// Every SQL statement the SQLite store runs, prepared once when the store opens, with the row shapes they return.
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

export type Statements = ReturnType<typeof prepareStatements>;

export function prepareStatements(db: Database.Database) {
  const p = <Params extends unknown[] | Record<string, unknown>, Row = unknown>(source: string) =>
    db.prepare<Params, Row>(source);
  const conversationColumns = 'id, title, created_at, updated_at, settings_json';
  const runColumns = 'id, turn_id, status, started_at, ended_at, error_json';
  return {
    insertConversation: p<[string, string, number, number, string, string]>(
      'INSERT INTO conversations (id, title, created_at, updated_at, settings_json, search_text) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    conversation: p<[string], ConversationRow>(`SELECT ${conversationColumns} FROM conversations WHERE id = ?`),
    listAll: p<[], ConversationRow>(
      `SELECT ${conversationColumns} FROM conversations ORDER BY updated_at DESC, rowid DESC`,
    ),
    // The words come as one JSON array so a single prepared statement serves any number of them.
    listMatching: p<[string], ConversationRow>(
      `SELECT ${conversationColumns} FROM conversations c
         WHERE NOT EXISTS (SELECT 1 FROM json_each(?) w WHERE instr(c.search_text, w.value) = 0)
         ORDER BY updated_at DESC, rowid DESC`,
    ),
    rename: p<[string, string]>('UPDATE conversations SET title = ? WHERE id = ?'),
    setSettings: p<[string, string]>('UPDATE conversations SET settings_json = ? WHERE id = ?'),
    touch: p<[number, string]>('UPDATE conversations SET updated_at = ? WHERE id = ?'),
    deleteConversation: p<[string]>('DELETE FROM conversations WHERE id = ?'),
    rebuildSearch: p<{ id: string; title: string }>(
      `UPDATE conversations SET search_text = :title
           || char(10) || coalesce((SELECT group_concat(search_text, char(10) ORDER BY seq)
                                    FROM turns WHERE conversation_id = :id), '')
           || char(10) || coalesce((SELECT group_concat(r.answer_text, char(10))
                                    FROM runs r JOIN turns t ON t.id = r.turn_id
                                    WHERE t.conversation_id = :id AND r.answer_text IS NOT NULL), '')
         WHERE id = :id`,
    ),

    insertTurn: p<[string, string, string, string, string, number]>(
      `INSERT INTO turns (id, conversation_id, seq, content_json, search_text, created_at)
         VALUES (?, ?, (SELECT coalesce(max(seq), -1) + 1 FROM turns WHERE conversation_id = ?), ?, ?, ?)`,
    ),
    turn: p<[string], TurnRow>('SELECT id, conversation_id, seq, content_json, created_at FROM turns WHERE id = ?'),
    turnsOf: p<[string], TurnRow>(
      'SELECT id, conversation_id, seq, content_json, created_at FROM turns WHERE conversation_id = ? ORDER BY seq',
    ),
    deleteTurnsFrom: p<[string, number]>('DELETE FROM turns WHERE conversation_id = ? AND seq >= ?'),

    insertRun: p<[string, string, number]>(
      "INSERT INTO runs (id, turn_id, status, started_at) VALUES (?, ?, 'running', ?)",
    ),
    run: p<[string], RunRow>(`SELECT ${runColumns} FROM runs WHERE id = ?`),
    runsOfTurn: p<[string], RunRow>(`SELECT ${runColumns} FROM runs WHERE turn_id = ? ORDER BY started_at, rowid`),
    runsOfConversation: p<[string], RunRow>(
      `SELECT r.id, r.turn_id, r.status, r.started_at, r.ended_at, r.error_json FROM runs r JOIN turns t ON t.id = r.turn_id
         WHERE t.conversation_id = ? ORDER BY r.started_at, r.rowid`,
    ),
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
    runningRuns: p<[], { id: string }>("SELECT id FROM runs WHERE status = 'running'"),
    runStatus: p<[string], { status: RunStatus }>('SELECT status FROM runs WHERE id = ?'),

    // The seq is computed in the INSERT itself (a primary-key lookup), so writers in other processes interleave safely.
    insertEvent: p<[string, string, string, string]>(
      `INSERT INTO run_events (run_id, seq, type, json)
         VALUES (?, (SELECT coalesce(max(seq), -1) + 1 FROM run_events WHERE run_id = ?), ?, ?)`,
    ),
    eventsOf: p<[string], { json: string }>('SELECT json FROM run_events WHERE run_id = ? ORDER BY seq'),
  };
}
