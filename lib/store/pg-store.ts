// ChatStore on PostgreSQL (node-postgres): a pool of connections, every statement named and so prepared once per
// connection (pg-statements.ts), the schema brought up to date on open (pg-schema.ts). Several instances of the app
// share one database: each open store is one instance, which holds a lease on the runs it starts and tells the
// others about them through its run bus (pg-bus.ts). appendEvents writes its whole batch in one statement (one
// multi-row INSERT, one transaction), durable once the promise resolves. Ownership as on SQLite: every method that
// takes an id or lists takes the owner's scope and its SQL filters by it (pg-statements.ts); another owner's id
// reads as unknown (NotFoundError).
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { AgentEvent, ErrorInfo } from '../protocol/events';
import { contentText, type ContentItem, type Message } from '../llm/schema';
import { foldEvents } from '../agent/fold';
import type { RunStatus } from '../protocol/enums';
import { documentRef } from './documents';
import { NotFoundError } from './errors';
import { LOCAL_OWNER_ID, type OwnerScope } from './owner';
import { PgAccounts } from './pg-accounts';
import { PgModels } from './pg-models';
import { PgRunIndex } from './pg-run-index';
import { PgRunBus, type PgBusOptions } from './pg-bus';
import { migratePostgres } from './pg-schema';
import { pgText, run, type PgStatement, type Queryable } from './pg-statements';
import type { RunBus } from './run-bus';
import type { RunFacets, RunFigures, RunPage, RunQuery } from './run-query';
import { DEFAULT_TITLE, defaultSettings, mergeSettings, settingsFromJson } from './settings';
import { keptMessages, messagesJson } from './run-messages';
import type { ConversationRow, HistoryRunRow, RunRow, TurnRow } from './statements';
import { upgradeRunLog } from './upgrade';
import type { CapabilityHints } from '../llm/capabilities';
import type {
  AgentDefinition,
  ApiKeyRecord,
  AuthDatabase,
  ChatStore,
  Conversation,
  ConversationSettings,
  ConnectionInput,
  ConversationSummary,
  DocumentUpdate,
  InviteRecord,
  SavedAgent,
  ServerSettings,
  StoredConnection,
  StoredDocument,
  StoredRun,
  StoredTurn,
  HistoryTurn,
  TurnRecord,
} from './types';

export interface PostgresStoreOptions extends PgBusOptions {
  /** The settings of a conversation made without any (and of fields added since a row was written). */
  defaults?: ConversationSettings;
  /** Connections in the pool (DATABASE_POOL_SIZE). */
  poolSize?: number;
}

export type PostgresChatStore = ChatStore & { readonly runBus: RunBus };

/** bigint columns (times in ms, sizes, counts) as numbers: every one of them fits in a double. */
const TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)) as never,
};

/** Opens the store on `url` (postgres://…), applying the migrations it lacks. */
export async function openPostgresStore(url: string, opts: PostgresStoreOptions = {}): Promise<PostgresChatStore> {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.poolSize ?? 10,
    types: TYPES,
    application_name: 'agent-studio',
  });
  // An idle connection that breaks (a database restart) is dropped from the pool; the next query opens another.
  pool.on('error', (e) => console.error(`[store] a PostgreSQL connection failed: ${e.message}`));
  try {
    // Runs finished before the Runs index existed are indexed now.
    await migratePostgres(pool, (client) => new PgRunIndex(pool).backfill(client));
    const bus = await PgRunBus.start(pool, url, opts);
    const store = new PgChatStore(pool, bus, opts.defaults ?? defaultSettings());
    if (opts.maintenance !== false) bus.maintain(() => store.markInterruptedRuns());
    return store;
  } catch (e) {
    await pool.end().catch(() => undefined);
    throw e;
  }
}

interface DocumentRow {
  id: string;
  conversation_id: string;
  hash: string;
  name: string;
  size: number;
  state: StoredDocument['state'];
  kind: string | null;
  pages: number | null;
  title: string | null;
  error: string | null;
  error_code: string | null;
  created_at: number;
}

class PgChatStore implements ChatStore {
  private lastNow = 0;
  readonly authDatabase: AuthDatabase;
  private readonly accounts: PgAccounts;
  private readonly models: PgModels;
  private readonly runIndex: PgRunIndex;

  constructor(
    private readonly pool: pg.Pool,
    readonly runBus: PgRunBus,
    private readonly defaults: ConversationSettings,
  ) {
    this.authDatabase = { type: 'postgres', pool };
    this.accounts = new PgAccounts(pool, () => this.now());
    this.models = new PgModels(
      pool,
      (fn) => this.tx(fn),
      () => this.now(),
    );
    this.runIndex = new PgRunIndex(pool);
  }

  /** Strictly increasing milliseconds within this instance, as on SQLite. */
  private now(): number {
    const t = Date.now();
    this.lastNow = t > this.lastNow ? t : this.lastNow + 1;
    return this.lastNow;
  }

  private q<Row extends pg.QueryResultRow>(name: PgStatement, values: unknown[], db: Queryable = this.pool) {
    return run<Row>(db, name, values);
  }

  /** `fn` in one transaction on one connection of the pool; `begin` may ask for a snapshot (SNAPSHOT). */
  private async tx<T>(fn: (db: pg.PoolClient) => Promise<T>, begin = 'BEGIN'): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query(begin);
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (e) {
      await client.query('ROLLBACK').catch((rollback: Error) => (broken = rollback));
      throw e;
    } finally {
      client.release(broken);
    }
  }

  async createConversation(
    owner: OwnerScope,
    init?: { title?: string; settings?: Partial<ConversationSettings> },
  ): Promise<Conversation> {
    const id = randomUUID();
    const title = cleanTitle(init?.title);
    const settings = mergeSettings(this.defaults, init?.settings);
    const at = this.now();
    const values = [id, owner.ownerId, title, at, at, JSON.stringify(settings), searchable(title)];
    await this.q('insertConversation', values);
    return { id, title, createdAt: at, updatedAt: at, settings };
  }

  async getConversation(owner: OwnerScope, id: string): Promise<Conversation | undefined> {
    const row = (await this.q<ConversationRow>('conversation', [id, owner.ownerId])).rows[0];
    return row && this.toConversation(row);
  }

  async listConversations(owner: OwnerScope, query?: string): Promise<ConversationSummary[]> {
    const words = searchable(query ?? '')
      .split(/\s+/)
      .filter(Boolean);
    const rows = words.length
      ? (await this.q<ConversationRow>('listMatching', [owner.ownerId, words])).rows
      : (await this.q<ConversationRow>('listAll', [owner.ownerId])).rows;
    return rows.map(toSummary);
  }

  async renameConversation(owner: OwnerScope, id: string, title: string): Promise<void> {
    const clean = cleanTitle(title);
    await this.tx(async (db) => {
      await this.lockedConversation(db, owner, id);
      await this.q('rename', [clean, id], db);
      await this.q('rebuildSearch', [id, searchable(clean)], db);
    });
  }

  async updateSettings(owner: OwnerScope, id: string, settings: Partial<ConversationSettings>): Promise<Conversation> {
    return this.tx(async (db) => {
      const current = await this.lockedConversation(db, owner, id);
      const merged = mergeSettings(current.settings, settings);
      await this.q('setSettings', [JSON.stringify(merged), id], db);
      return { ...current, settings: merged };
    });
  }

  async deleteConversation(owner: OwnerScope, id: string): Promise<void> {
    const { rowCount } = await this.q('deleteConversation', [id, owner.ownerId]);
    if (!rowCount) throw new NotFoundError(`Unknown conversation id "${id}".`);
  }

  async addTurn(owner: OwnerScope, conversationId: string, content: string | ContentItem[]): Promise<StoredTurn> {
    return this.tx(async (db) => {
      const conversation = await this.lockedConversation(db, owner, conversationId);
      const at = this.now();
      const text = searchable(typeof content === 'string' ? content : contentText(content));
      const row = (
        await this.q<TurnRow>('insertTurn', [randomUUID(), conversationId, JSON.stringify(content), text, at], db)
      ).rows[0]!;
      await this.q('touch', [at, conversationId], db);
      await this.q('rebuildSearch', [conversationId, searchable(conversation.title)], db);
      return toTurn(row);
    });
  }

  async getTurn(owner: OwnerScope, turnId: string): Promise<StoredTurn | undefined> {
    const row = (await this.q<TurnRow>('turn', [turnId, owner.ownerId])).rows[0];
    return row && toTurn(row);
  }

  async deleteTurnsFrom(owner: OwnerScope, conversationId: string, seq: number): Promise<void> {
    await this.tx(async (db) => {
      const conversation = await this.lockedConversation(db, owner, conversationId);
      await this.q('deleteTurnsFrom', [conversationId, seq], db);
      await this.q('rebuildSearch', [conversationId, searchable(conversation.title)], db);
    });
  }

  async listTurns(owner: OwnerScope, conversationId: string): Promise<TurnRecord[]> {
    // One snapshot for the turns, their runs and the events, as SQLite's one transaction gives.
    return this.tx(async (client) => {
      await this.ownedConversation(client, owner, conversationId);
      const latest = new Map<string, RunRow>();
      const counts = new Map<string, number>();
      for (const r of (await this.q<RunRow>('runsOfConversation', [conversationId], client)).rows) {
        latest.set(r.turn_id, r);
        counts.set(r.turn_id, (counts.get(r.turn_id) ?? 0) + 1);
      }
      const records: TurnRecord[] = [];
      for (const row of (await this.q<TurnRow>('turnsOf', [conversationId], client)).rows) {
        const r = latest.get(row.id);
        records.push({
          turn: toTurn(row),
          run: r && toRun(r),
          events: r ? await this.eventsOf(r.id, client) : [],
          runCount: counts.get(row.id) ?? 0,
        });
      }
      return records;
    }, SNAPSHOT);
  }

  async listHistory(owner: OwnerScope, conversationId: string): Promise<HistoryTurn[]> {
    const unkept = new Map<string, Message[]>();
    const turns = await this.tx(async (client) => {
      await this.ownedConversation(client, owner, conversationId);
      const latest = new Map<string, HistoryRunRow>();
      for (const r of (await this.q<HistoryRunRow>('historyRuns', [conversationId], client)).rows)
        latest.set(r.turn_id, r);
      const history: HistoryTurn[] = [];
      for (const row of (await this.q<TurnRow>('turnsOf', [conversationId], client)).rows) {
        const r = latest.get(row.id);
        let messages = r ? keptMessages(r.messages_json) : [];
        if (!messages) {
          messages = foldEvents(await this.eventsOf(r!.id, client));
          if (r!.status !== 'running') unkept.set(r!.id, messages);
        }
        history.push({ turn: toTurn(row), messages });
      }
      return history;
    }, SNAPSHOT);
    // Runs that ended before version 11 keep their messages from now on. Only a cache: a failed write loses nothing.
    for (const [id, messages] of unkept)
      await this.q('keepRunMessages', [JSON.stringify(messages), id]).catch(() => undefined);
    return turns;
  }

  private async ownedConversation(db: Queryable, owner: OwnerScope, id: string): Promise<void> {
    if (!(await this.q('conversation', [id, owner.ownerId], db)).rowCount)
      throw new NotFoundError(`Unknown conversation id "${id}".`);
  }

  async startRun(owner: OwnerScope, turnId: string, runId: string): Promise<StoredRun> {
    return this.tx(async (db) => {
      const turn = (await this.q<TurnRow>('turn', [turnId, owner.ownerId], db)).rows[0];
      if (!turn) throw new NotFoundError(`Unknown turn id "${turnId}".`);
      await this.lockedConversation(db, owner, turn.conversation_id);
      if ((await this.q('runExists', [runId], db)).rowCount)
        throw new Error(`A run with id "${runId}" already exists.`);
      const at = this.now();
      await this.q('insertRun', [runId, turnId, at, this.runBus.instanceId, this.runBus.lease.leaseMs], db);
      await this.q('touch', [at, turn.conversation_id], db);
      return { id: runId, turnId, status: 'running', startedAt: at };
    });
  }

  async appendEvents(owner: OwnerScope, runId: string, events: readonly AgentEvent[]): Promise<void> {
    if (!events.length) return;
    const types = events.map((e) => e.type);
    const json = events.map((e) => JSON.stringify(e));
    const values = [runId, types, json, this.runBus.instanceId, owner.ownerId];
    const { rows } = await this.q<{ added: number }>('appendEvents', values);
    if (rows[0]?.added !== events.length) throw await this.refusal(owner, runId, `append a ${events[0]!.type} event`);
  }

  async appendEvent(owner: OwnerScope, runId: string, event: AgentEvent): Promise<void> {
    return this.appendEvents(owner, runId, [event]);
  }

  async finishRun(
    owner: OwnerScope,
    runId: string,
    status: Exclude<RunStatus, 'running'>,
    error?: ErrorInfo,
  ): Promise<void> {
    const closed = await this.tx(async (db) => {
      if (!(await this.q('run', [runId, owner.ownerId], db)).rowCount) return false;
      return this.closeRun(db, runId, status, error, this.runBus.instanceId);
    });
    if (!closed) throw await this.refusal(owner, runId, 'finish it');
  }

  async getRun(owner: OwnerScope, runId: string): Promise<StoredRun | undefined> {
    const row = (await this.q<RunRow>('run', [runId, owner.ownerId])).rows[0];
    return row && toRun(row);
  }

  async getRunEvents(owner: OwnerScope, runId: string): Promise<AgentEvent[]> {
    if (!(await this.q('run', [runId, owner.ownerId])).rowCount) throw new NotFoundError(`Unknown run id "${runId}".`);
    return this.eventsOf(runId, this.pool);
  }

  async listRuns(owner: OwnerScope, turnId: string): Promise<StoredRun[]> {
    return (await this.q<RunRow>('runsOfTurn', [turnId, owner.ownerId])).rows.map(toRun);
  }

  /** Runs whose lease ran out: their instance died (or closed) without finishing them. Live instances' runs are
   *  left alone. */
  async markInterruptedRuns(): Promise<number> {
    const expired = (await this.q<{ id: string }>('expiredRuns', [])).rows.map((r) => r.id);
    let marked = 0;
    // One transaction per run: a sweep never holds many conversations' locks at once.
    for (const id of expired) {
      if (await this.tx((db) => this.closeRun(db, id, 'interrupted', undefined, null))) marked++;
    }
    await this.q('dropStaleControls', []);
    return marked;
  }

  async adoptLocalData(owner: OwnerScope): Promise<number> {
    if (owner.ownerId === LOCAL_OWNER_ID) return 0;
    return this.tx(async (db) => {
      await this.models.adoptLocalAgents(owner, db);
      const adopted = (await this.q('adoptConversations', [owner.ownerId, LOCAL_OWNER_ID], db)).rowCount ?? 0;
      await this.runIndex.adopt(db, LOCAL_OWNER_ID, owner.ownerId);
      return adopted;
    });
  }

  searchRuns(owner: OwnerScope, query: RunQuery): Promise<RunPage> {
    return this.runIndex.search(owner, query);
  }
  runFigures(owner: OwnerScope, query: RunQuery): Promise<RunFigures> {
    return this.runIndex.figures(owner, query);
  }
  runFacets(owner: OwnerScope): Promise<RunFacets> {
    return this.runIndex.facets(owner);
  }

  async close(): Promise<void> {
    await this.runBus.close();
    await this.pool.end();
  }

  async addDocument(
    owner: OwnerScope,
    input: { conversationId: string; hash: string; name: string; size: number },
  ): Promise<StoredDocument> {
    const { conversationId, hash, name, size } = input;
    const values = [randomUUID(), conversationId, hash, pgText(name), size, this.now(), owner.ownerId];
    const row = (await this.q<DocumentRow>('insertDocument', values)).rows[0];
    if (!row) throw new NotFoundError(`Unknown conversation id "${conversationId}".`);
    return toDocument(row);
  }

  async getDocument(owner: OwnerScope, id: string): Promise<StoredDocument | undefined> {
    const row = (await this.q<DocumentRow>('document', [id, owner.ownerId])).rows[0];
    return row && toDocument(row);
  }

  async listDocuments(owner: OwnerScope, conversationId: string): Promise<StoredDocument[]> {
    return (await this.q<DocumentRow>('documentsOf', [conversationId, owner.ownerId])).rows.map(toDocument);
  }

  async updateDocument(owner: OwnerScope, id: string, update: DocumentUpdate): Promise<StoredDocument> {
    const { rows } =
      update.state === 'ready'
        ? await this.q<DocumentRow>('documentReady', [
            pgText(update.kind),
            update.pages,
            update.title === undefined ? null : pgText(update.title),
            id,
            owner.ownerId,
          ])
        : await this.q<DocumentRow>('documentFailed', [
            pgText(update.error),
            update.errorCode === undefined ? null : pgText(update.errorCode),
            id,
            owner.ownerId,
          ]);
    if (!rows[0]) throw new NotFoundError(`Unknown document id "${id}".`);
    return toDocument(rows[0]);
  }

  async removeDocument(owner: OwnerScope, id: string): Promise<StoredDocument | undefined> {
    const row = (await this.q<DocumentRow>('removeDocument', [id, owner.ownerId])).rows[0];
    return row && toDocument(row);
  }

  async ownsUpload(owner: OwnerScope, hash: string): Promise<boolean> {
    return ((await this.q<{ n: number }>('ownsHash', [hash, owner.ownerId])).rows[0]?.n ?? 0) > 0;
  }

  async countDocumentsWithHash(hash: string): Promise<number> {
    return (await this.q<{ n: number }>('countHash', [hash])).rows[0]?.n ?? 0;
  }

  listConnections(owner: OwnerScope): Promise<StoredConnection[]> {
    return this.models.listConnections(owner);
  }
  getConnection(owner: OwnerScope, id: string): Promise<StoredConnection | undefined> {
    return this.models.getConnection(owner, id);
  }
  addConnection(owner: OwnerScope | null, input: ConnectionInput): Promise<StoredConnection> {
    return this.models.addConnection(owner, input);
  }
  updateConnection(owner: OwnerScope | null, id: string, patch: Partial<ConnectionInput>): Promise<StoredConnection> {
    return this.models.updateConnection(owner, id, patch);
  }
  removeConnection(owner: OwnerScope | null, id: string): Promise<boolean> {
    return this.models.removeConnection(owner, id);
  }
  learnedCapabilities(connectionId: string): Promise<Record<string, CapabilityHints>> {
    return this.models.learnedCapabilities(connectionId);
  }
  learnCapabilities(connectionId: string, model: string, hints: CapabilityHints): Promise<void> {
    return this.models.learnCapabilities(connectionId, model, hints);
  }
  createAgent(owner: OwnerScope, definition: AgentDefinition): Promise<SavedAgent> {
    return this.models.createAgent(owner, definition);
  }
  getAgent(owner: OwnerScope, id: string): Promise<SavedAgent | undefined> {
    return this.models.getAgent(owner, id);
  }
  listAgents(owner: OwnerScope): Promise<SavedAgent[]> {
    return this.models.listAgents(owner);
  }
  updateAgent(owner: OwnerScope, id: string, definition: AgentDefinition): Promise<SavedAgent> {
    return this.models.updateAgent(owner, id, definition);
  }
  deleteAgent(owner: OwnerScope, id: string): Promise<boolean> {
    return this.models.deleteAgent(owner, id);
  }

  createApiKey(owner: OwnerScope, input: { name: string; prefix: string; hash: string }): Promise<ApiKeyRecord> {
    return this.accounts.createApiKey(owner, input);
  }
  listApiKeys(owner: OwnerScope): Promise<ApiKeyRecord[]> {
    return this.accounts.listApiKeys(owner);
  }
  revokeApiKey(owner: OwnerScope, id: string): Promise<boolean> {
    return this.accounts.revokeApiKey(owner, id);
  }
  apiKeyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    return this.accounts.apiKeyByHash(hash);
  }
  touchApiKey(id: string, at: number): Promise<void> {
    return this.accounts.touchApiKey(id, at);
  }
  createInvite(input: { hash: string; createdBy: string; expiresAt: number }): Promise<InviteRecord> {
    return this.accounts.createInvite(input);
  }
  listOpenInvites(now: number): Promise<InviteRecord[]> {
    return this.accounts.listOpenInvites(now);
  }
  revokeInvite(id: string): Promise<boolean> {
    return this.accounts.revokeInvite(id);
  }
  openInvite(hash: string, now: number): Promise<InviteRecord | undefined> {
    return this.accounts.openInvite(hash, now);
  }
  claimInvite(hash: string, userId: string, now: number): Promise<boolean> {
    return this.accounts.claimInvite(hash, userId, now);
  }
  serverSettings(): Promise<ServerSettings> {
    return this.accounts.serverSettings();
  }
  updateServerSettings(patch: Partial<ServerSettings>): Promise<ServerSettings> {
    return this.accounts.updateServerSettings(patch);
  }

  /** Why a write to a run was refused: unknown (or another owner's), no longer running, or another instance's. */
  private async refusal(owner: OwnerScope, runId: string, what: string): Promise<Error> {
    const values = [runId, owner.ownerId];
    const row = (await this.q<{ status: RunStatus; lease_holder: string | null }>('runLease', values)).rows[0];
    if (!row) return new NotFoundError(`Unknown run id "${runId}": cannot ${what}.`);
    if (row.status !== 'running')
      return new Error(`Run "${runId}" is ${row.status}, no longer running: cannot ${what}.`);
    return new Error(`Run "${runId}" is driven by another instance: cannot ${what}.`);
  }

  /** Records how a run ended, adds its answer to the conversation's search text and indexes the run for the Runs
   *  page. False when it is not running (or, with a holder, not held by it). The caller found the run by an owned lookup, or is the lease sweep. */
  private async closeRun(
    db: Queryable,
    runId: string,
    status: Exclude<RunStatus, 'running'>,
    error: ErrorInfo | undefined,
    holder: string | null,
  ): Promise<boolean> {
    const owner = (await this.q<{ id: string; title: string }>('conversationOfRun', [runId], db)).rows[0];
    if (!owner) return false;
    await this.lockedConversation(db, null, owner.id);
    let answer = '';
    for (const row of (await this.q<{ json: string }>('textDeltas', [runId], db)).rows)
      answer += (JSON.parse(row.json) as { text?: string }).text ?? '';
    const errorJson = error ? JSON.stringify(error) : null;
    const args = [status, this.now(), errorJson, searchable(answer), runId, holder];
    if (!(await this.q('finishRun', args, db)).rowCount) return false;
    await this.q('keepRunMessages', [messagesJson(await this.eventsOf(runId, db)), runId], db);
    await this.q('rebuildSearch', [owner.id, searchable(owner.title)], db);
    await this.runIndex.index(db, runId, searchable(answer));
    await this.q('notifyEnded', [[runId]], db); // followers on other instances stop waiting
    return true;
  }

  private async eventsOf(runId: string, db: Queryable): Promise<AgentEvent[]> {
    const rows = (await this.q<{ json: string }>('eventsOf', [runId], db)).rows;
    // Logs written by an older version are read in today's shape (upgrade.ts).
    return upgradeRunLog(rows.map((row) => JSON.parse(row.json) as unknown));
  }

  /** The conversation, locked for this transaction; `owner` null only for closing a run already found. */
  private async lockedConversation(db: Queryable, owner: OwnerScope | null, id: string): Promise<Conversation> {
    const row = (await this.q<ConversationRow>('lockConversation', [id, owner?.ownerId ?? null], db)).rows[0];
    if (!row) throw new NotFoundError(`Unknown conversation id "${id}".`);
    return this.toConversation(row);
  }

  private toConversation(row: ConversationRow): Conversation {
    return { ...toSummary(row), settings: settingsFromJson(row.settings_json, this.defaults) };
  }
}

/** A transaction that reads one snapshot (REPEATABLE READ) and writes nothing. */
const SNAPSHOT = 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY';

/** Search text: lower-cased, without U+0000. */
function searchable(s: string): string {
  return pgText(s.toLowerCase());
}

function cleanTitle(title: string | undefined): string {
  return pgText(title?.trim() || DEFAULT_TITLE);
}

function toSummary(row: ConversationRow): ConversationSummary {
  return { id: row.id, title: row.title, createdAt: row.created_at, updatedAt: row.updated_at };
}

function toTurn(row: TurnRow): StoredTurn {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    seq: row.seq,
    content: JSON.parse(row.content_json) as string | ContentItem[],
    createdAt: row.created_at,
  };
}

function toRun(row: RunRow): StoredRun {
  const r: StoredRun = { id: row.id, turnId: row.turn_id, status: row.status, startedAt: row.started_at };
  if (row.ended_at !== null) r.endedAt = row.ended_at;
  if (row.error_json !== null) r.error = JSON.parse(row.error_json) as ErrorInfo;
  return r;
}

function toDocument(row: DocumentRow): StoredDocument {
  const doc: StoredDocument = {
    id: row.id,
    conversationId: row.conversation_id,
    hash: row.hash,
    name: row.name,
    size: row.size,
    ref: documentRef(row.hash, row.name),
    state: row.state,
    createdAt: row.created_at,
  };
  if (row.kind !== null) doc.kind = row.kind;
  if (row.pages !== null) doc.pages = row.pages;
  if (row.title !== null) doc.title = row.title;
  if (row.error !== null) doc.error = row.error;
  if (row.error_code !== null) doc.errorCode = row.error_code;
  return doc;
}
