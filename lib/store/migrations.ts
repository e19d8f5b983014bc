// The versions of the database layout, oldest first. Both stores apply the same versions on open, each with its own
// SQL beside it (SQLite: schema.sql.ts, PostgreSQL: pg-schema.ts); a test checks that both list every version here.
// Append new versions; never edit old ones.
export const SCHEMA_VERSIONS = [
  '1: conversations, turns, runs and their events',
  '2: documents uploaded to a conversation',
  '3: why a document cannot be read, as a code',
  '4: accounts: conversations have an owner; API keys, invites and the server settings',
  '5: model connections added on the page, and what servers taught about their models',
  '6: agents a user saved',
  '7: the Runs page’s index: run summaries, their tool and model calls, the text a search looks in',
  '8: runs leased by the instance that drives them (several instances on one database; nothing on SQLite)',
  '9: the documents a saved agent always has (its knowledge)',
  '10: prices and context lengths per model on a connection, and what each indexed run cost',
  "11: the messages each ended run added, kept so that a conversation's history is read without its events",
  "12: the Runs page's summaries of runs with child runs, indexed again to count their helpers' calls",
] as const;

export const SCHEMA_VERSION = SCHEMA_VERSIONS.length;

export function newerSchemaError(current: number): Error {
  return new Error(
    `The database is at schema version ${current}, newer than this app knows (${SCHEMA_VERSION}); upgrade the app.`,
  );
}
