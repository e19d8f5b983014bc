// What every aggregate of the store gets (index.ts makes it): the database and its dialect, the clock, transactions.
import type { Db, Dialect } from './dialect';
import type { SharedRunBus } from './run-bus';
import type { ConversationSettings } from './types';

export interface Ctx {
  readonly d: Dialect;
  readonly db: Db;
  readonly defaults: ConversationSettings;
  /** Present when instances share the database (PostgreSQL). */
  readonly bus?: SharedRunBus;
  /** Strictly increasing milliseconds, so "newest" and "latest run" stay well ordered within a burst of writes. */
  now(): number;
  /** `fn` in one write transaction. */
  write<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  /** `fn` in one transaction that reads one snapshot and writes nothing. */
  read<T>(fn: (db: Db) => Promise<T>): Promise<T>;
}
