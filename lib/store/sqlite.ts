// ChatStore on one SQLite file (better-sqlite3, WAL). Every statement is prepared once at open. The work is done
// synchronously inside each method, which then answers with a settled Promise (the interface is asynchronous for
// stores across the network). appendEvents commits its batch in one transaction before it returns, so a killed
// process loses nothing it was given.
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import type { CapabilityHints } from '../llm/capabilities';
import type { AgentEvent, ErrorInfo } from '../protocol/events';
import { contentText, type ContentItem, type Message } from '../llm/schema';
import { foldEvents } from '../agent/fold';
import type { RunStatus } from '../protocol/enums';
import { SqliteAccounts } from './accounts';
import { SqliteConnections } from './connections';
import { SqliteAgents } from './agents';
import { SqliteDocuments } from './documents';
import { NotFoundError } from './errors';
import { LOCAL_OWNER_ID, type OwnerScope } from './owner';
import { SqliteRunIndex } from './run-index';
import type { RunFacets, RunFigures, RunPage, RunQuery } from './run-query';
import { upgradeRunLog } from './upgrade';
import { migrate } from './schema.sql';
import { keptMessages, messagesJson } from './run-messages';
import {
  prepareStatements,
  type ConversationRow,
  type HistoryRunRow,
  type RunRow,
  type Statements,
  type TurnRow,
} from './statements';
import { DEFAULT_TITLE, defaultSettings, mergeSettings, settingsFromJson } from './settings';
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

const BUSY_TIMEOUT_MS = 5000;

/** `defaults`: the settings of a conversation made without any (and of fields added since a row was written). */
export function openSqliteStore(file: string, opts: { defaults?: ConversationSettings } = {}): ChatStore {
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    migrate(db);
    new SqliteRunIndex(db).backfill();
    return new SqliteChatStore(db, opts.defaults ?? defaultSettings());
  } catch (e) {
    db.close();
    throw e;
  }
}

class SqliteChatStore implements ChatStore {
  private lastNow = 0;
  private readonly sql: Statements;
  private readonly documents: SqliteDocuments;
  private readonly runIndex: SqliteRunIndex;
  private readonly connections: SqliteConnections;
  private readonly accounts: SqliteAccounts;
  private readonly agents: SqliteAgents;
  readonly authDatabase: AuthDatabase;
  /** The owner's run looked up once, then one INSERT per event, all in one transaction (one commit, however many
   *  events), into a run still running. */
  private readonly appendAll: (ownerId: string, runId: string, events: readonly AgentEvent[]) => void;

  constructor(
    private readonly db: Database.Database,
    private readonly defaults: ConversationSettings,
  ) {
    this.sql = prepareStatements(db);
    this.documents = new SqliteDocuments(db, () => this.now());
    this.runIndex = new SqliteRunIndex(db);
    this.connections = new SqliteConnections(db, () => this.now());
    this.accounts = new SqliteAccounts(db, () => this.now());
    this.agents = new SqliteAgents(db, () => this.now());
    this.authDatabase = { type: 'sqlite', handle: db };
    this.appendAll = db.transaction((ownerId: string, runId: string, events: readonly AgentEvent[]) => {
      const what = `cannot append a ${events[0]!.type} event`;
      const status = this.sql.run.get(runId, ownerId)?.status;
      if (!status) throw new NotFoundError(`Unknown run id "${runId}": ${what}.`);
      if (status !== 'running') throw new Error(`Run "${runId}" is ${status}, no longer running: ${what}.`);
      for (const e of events) this.sql.insertEvent.run(runId, runId, e.type, JSON.stringify(e));
    });
  }

  /** Strictly increasing milliseconds, so "newest" and "latest run" stay well ordered within a burst of writes. */
  private now(): number {
    const t = Date.now();
    this.lastNow = t > this.lastNow ? t : this.lastNow + 1;
    return this.lastNow;
  }

  async createConversation(
    owner: OwnerScope,
    init?: { title?: string; settings?: Partial<ConversationSettings> },
  ): Promise<Conversation> {
    const id = randomUUID();
    const title = cleanTitle(init?.title);
    const settings = mergeSettings(this.defaults, init?.settings);
    const at = this.now();
    this.sql.insertConversation.run(id, owner.ownerId, title, at, at, JSON.stringify(settings), title.toLowerCase());
    return { id, title, createdAt: at, updatedAt: at, settings };
  }

  async getConversation(owner: OwnerScope, id: string): Promise<Conversation | undefined> {
    const row = this.sql.conversation.get(id, owner.ownerId);
    return row && this.toConversation(row);
  }

  async listConversations(owner: OwnerScope, query?: string): Promise<ConversationSummary[]> {
    const words = (query ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    const rows = words.length
      ? this.sql.listMatching.all(owner.ownerId, JSON.stringify(words))
      : this.sql.listAll.all(owner.ownerId);
    return rows.map(toSummary);
  }

  async renameConversation(owner: OwnerScope, id: string, title: string): Promise<void> {
    const clean = cleanTitle(title);
    this.db.transaction(() => {
      this.mustChange(this.sql.rename.run(clean, id, owner.ownerId).changes, 'conversation', id);
      this.sql.rebuildSearch.run({ id, title: clean.toLowerCase() });
    })();
  }

  async updateSettings(owner: OwnerScope, id: string, settings: Partial<ConversationSettings>): Promise<Conversation> {
    return this.db.transaction(() => {
      const current = this.conversationOrThrow(owner, id);
      const merged = mergeSettings(current.settings, settings);
      this.sql.setSettings.run(JSON.stringify(merged), id, owner.ownerId);
      return { ...current, settings: merged };
    })();
  }

  async deleteConversation(owner: OwnerScope, id: string): Promise<void> {
    this.mustChange(this.sql.deleteConversation.run(id, owner.ownerId).changes, 'conversation', id);
  }

  async addTurn(owner: OwnerScope, conversationId: string, content: string | ContentItem[]): Promise<StoredTurn> {
    return this.db.transaction(() => {
      const conversation = this.conversationOrThrow(owner, conversationId);
      const id = randomUUID();
      const at = this.now();
      const text = (typeof content === 'string' ? content : contentText(content)).toLowerCase();
      this.sql.insertTurn.run(id, conversationId, conversationId, JSON.stringify(content), text, at);
      this.sql.touch.run(at, conversationId);
      this.sql.rebuildSearch.run({ id: conversationId, title: conversation.title.toLowerCase() });
      return toTurn(this.sql.turn.get(id, owner.ownerId) as TurnRow);
    })();
  }

  async getTurn(owner: OwnerScope, turnId: string): Promise<StoredTurn | undefined> {
    const row = this.sql.turn.get(turnId, owner.ownerId);
    return row && toTurn(row);
  }

  async deleteTurnsFrom(owner: OwnerScope, conversationId: string, seq: number): Promise<void> {
    this.db.transaction(() => {
      const conversation = this.conversationOrThrow(owner, conversationId);
      this.sql.deleteTurnsFrom.run(conversationId, seq);
      this.sql.rebuildSearch.run({ id: conversationId, title: conversation.title.toLowerCase() });
    })();
  }

  async listTurns(owner: OwnerScope, conversationId: string): Promise<TurnRecord[]> {
    return this.db.transaction(() => {
      this.conversationOrThrow(owner, conversationId);
      // Runs come oldest first, so the last one seen for a turn is its latest.
      const latest = new Map<string, RunRow>();
      const counts = new Map<string, number>();
      for (const run of this.sql.runsOfConversation.all(conversationId)) {
        latest.set(run.turn_id, run);
        counts.set(run.turn_id, (counts.get(run.turn_id) ?? 0) + 1);
      }
      return this.sql.turnsOf.all(conversationId).map((row): TurnRecord => {
        const run = latest.get(row.id);
        return {
          turn: toTurn(row),
          run: run && toRun(run),
          events: run ? this.eventsOf(run.id) : [],
          runCount: counts.get(row.id) ?? 0,
        };
      });
    })();
  }

  async listHistory(owner: OwnerScope, conversationId: string): Promise<HistoryTurn[]> {
    return this.db.transaction(() => {
      this.conversationOrThrow(owner, conversationId);
      const latest = new Map<string, HistoryRunRow>();
      for (const run of this.sql.historyRuns.all(conversationId)) latest.set(run.turn_id, run);
      return this.sql.turnsOf.all(conversationId).map((row): HistoryTurn => {
        const run = latest.get(row.id);
        return { turn: toTurn(row), messages: run ? this.runMessages(run) : [] };
      });
    })();
  }

  /** Kept since the run ended, else folded from its log (and kept from now on, if it ended before version 11). */
  private runMessages(run: HistoryRunRow): Message[] {
    const kept = keptMessages(run.messages_json);
    if (kept) return kept;
    const messages = foldEvents(this.eventsOf(run.id));
    if (run.status !== 'running') this.sql.keepRunMessages.run(JSON.stringify(messages), run.id);
    return messages;
  }

  async startRun(owner: OwnerScope, turnId: string, runId: string): Promise<StoredRun> {
    return this.db.transaction((): StoredRun => {
      const turn = this.sql.turn.get(turnId, owner.ownerId);
      if (!turn) throw new NotFoundError(`Unknown turn id "${turnId}".`);
      if (this.sql.runExists.get(runId)) throw new Error(`A run with id "${runId}" already exists.`);
      const at = this.now();
      this.sql.insertRun.run(runId, turnId, at);
      this.sql.touch.run(at, turn.conversation_id);
      return { id: runId, turnId, status: 'running', startedAt: at };
    })();
  }

  async appendEvents(owner: OwnerScope, runId: string, events: readonly AgentEvent[]): Promise<void> {
    if (!events.length) return;
    this.appendAll(owner.ownerId, runId, events);
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
    this.db.transaction(() => {
      const current = this.sql.run.get(runId, owner.ownerId)?.status;
      if (!current) throw new NotFoundError(`Unknown run id "${runId}": cannot finish it.`);
      if (current !== 'running') throw new Error(`Run "${runId}" is ${current}, no longer running: cannot finish it.`);
      this.closeRun(runId, status, error);
    })();
  }

  async getRun(owner: OwnerScope, runId: string): Promise<StoredRun | undefined> {
    const row = this.sql.run.get(runId, owner.ownerId);
    return row && toRun(row);
  }

  async getRunEvents(owner: OwnerScope, runId: string): Promise<AgentEvent[]> {
    if (!this.sql.run.get(runId, owner.ownerId)) throw new NotFoundError(`Unknown run id "${runId}".`);
    return this.eventsOf(runId);
  }

  async listRuns(owner: OwnerScope, turnId: string): Promise<StoredRun[]> {
    return this.sql.runsOfTurn.all(turnId, owner.ownerId).map(toRun);
  }

  async markInterruptedRuns(): Promise<number> {
    return this.db
      .transaction(() => {
        const ids = this.sql.runningRuns.all().map((r) => r.id);
        for (const id of ids) this.closeRun(id, 'interrupted');
        return ids.length;
      })
      .immediate();
  }

  async searchRuns(owner: OwnerScope, query: RunQuery): Promise<RunPage> {
    return this.runIndex.search(owner, query);
  }
  async runFigures(owner: OwnerScope, query: RunQuery): Promise<RunFigures> {
    return this.runIndex.figures(owner, query);
  }
  async runFacets(owner: OwnerScope): Promise<RunFacets> {
    return this.runIndex.facets(owner);
  }

  /** The local owner's conversations, and their runs' index rows (which carry a copy of the owner), in one go. */
  async adoptLocalData(owner: OwnerScope): Promise<number> {
    if (owner.ownerId === LOCAL_OWNER_ID) return 0;
    return this.db.transaction(() => {
      this.agents.adoptLocal(owner);
      const adopted = this.sql.adoptConversations.run(owner.ownerId, LOCAL_OWNER_ID).changes;
      this.runIndex.adopt(LOCAL_OWNER_ID, owner.ownerId);
      return adopted;
    })();
  }

  async close(): Promise<void> {
    this.db.close();
  }

  addDocument(
    owner: OwnerScope,
    input: { conversationId: string; hash: string; name: string; size: number },
  ): Promise<StoredDocument> {
    return this.documents.addDocument(owner, input);
  }
  getDocument(owner: OwnerScope, id: string): Promise<StoredDocument | undefined> {
    return this.documents.getDocument(owner, id);
  }
  listDocuments(owner: OwnerScope, conversationId: string): Promise<StoredDocument[]> {
    return this.documents.listDocuments(owner, conversationId);
  }
  updateDocument(owner: OwnerScope, id: string, update: DocumentUpdate): Promise<StoredDocument> {
    return this.documents.updateDocument(owner, id, update);
  }
  removeDocument(owner: OwnerScope, id: string): Promise<StoredDocument | undefined> {
    return this.documents.removeDocument(owner, id);
  }
  ownsUpload(owner: OwnerScope, hash: string): Promise<boolean> {
    return this.documents.ownsUpload(owner, hash);
  }
  countDocumentsWithHash(hash: string): Promise<number> {
    return this.documents.countDocumentsWithHash(hash);
  }

  async listConnections(owner: OwnerScope): Promise<StoredConnection[]> {
    return this.connections.listConnections(owner);
  }
  async getConnection(owner: OwnerScope, id: string): Promise<StoredConnection | undefined> {
    return this.connections.getConnection(owner, id);
  }
  async addConnection(owner: OwnerScope | null, input: ConnectionInput): Promise<StoredConnection> {
    return this.connections.addConnection(owner, input);
  }
  async updateConnection(
    owner: OwnerScope | null,
    id: string,
    patch: Partial<ConnectionInput>,
  ): Promise<StoredConnection> {
    return this.connections.updateConnection(owner, id, patch);
  }
  async removeConnection(owner: OwnerScope | null, id: string): Promise<boolean> {
    return this.connections.removeConnection(owner, id);
  }
  async learnedCapabilities(connectionId: string): Promise<Record<string, CapabilityHints>> {
    return this.connections.learnedCapabilities(connectionId);
  }
  async learnCapabilities(connectionId: string, model: string, hints: CapabilityHints): Promise<void> {
    return this.connections.learnCapabilities(connectionId, model, hints);
  }
  async createAgent(owner: OwnerScope, definition: AgentDefinition): Promise<SavedAgent> {
    return this.agents.create(owner, definition);
  }
  async getAgent(owner: OwnerScope, id: string): Promise<SavedAgent | undefined> {
    return this.agents.get(owner, id);
  }
  async listAgents(owner: OwnerScope): Promise<SavedAgent[]> {
    return this.agents.list(owner);
  }
  async updateAgent(owner: OwnerScope, id: string, definition: AgentDefinition): Promise<SavedAgent> {
    return this.agents.update(owner, id, definition);
  }
  async deleteAgent(owner: OwnerScope, id: string): Promise<boolean> {
    return this.agents.delete(owner, id);
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

  /** Records how a run ended, adds its answer to the conversation's search text and indexes the run for the Runs
   *  page. False for an unknown run. */
  private closeRun(runId: string, status: Exclude<RunStatus, 'running'>, error?: ErrorInfo): boolean {
    const owner = this.sql.conversationOfRun.get(runId);
    if (!owner) return false;
    const answer = (this.sql.answerText.get(runId)?.text ?? '').toLowerCase();
    this.sql.finishRun.run(status, this.now(), error ? JSON.stringify(error) : null, answer, runId);
    this.sql.keepRunMessages.run(messagesJson(this.eventsOf(runId)), runId);
    this.sql.rebuildSearch.run({ id: owner.id, title: owner.title.toLowerCase() });
    this.runIndex.index(runId, answer);
    return true;
  }

  private eventsOf(runId: string): AgentEvent[] {
    // Logs written by an older version are read in today's shape (upgrade.ts).
    return upgradeRunLog(this.sql.eventsOf.all(runId).map((row) => JSON.parse(row.json) as unknown));
  }

  private conversationOrThrow(owner: OwnerScope, id: string): Conversation {
    const row = this.sql.conversation.get(id, owner.ownerId);
    const conversation = row && this.toConversation(row);
    if (!conversation) throw new NotFoundError(`Unknown conversation id "${id}".`);
    return conversation;
  }

  private mustChange(changes: number, kind: string, id: string): void {
    if (changes === 0) throw new NotFoundError(`Unknown ${kind} id "${id}".`);
  }

  private toConversation(row: ConversationRow): Conversation {
    return { ...toSummary(row), settings: settingsFromJson(row.settings_json, this.defaults) };
  }
}

function cleanTitle(title: string | undefined): string {
  return title?.trim() || DEFAULT_TITLE;
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
  const run: StoredRun = { id: row.id, turnId: row.turn_id, status: row.status, startedAt: row.started_at };
  if (row.ended_at !== null) run.endedAt = row.ended_at;
  if (row.error_json !== null) run.error = JSON.parse(row.error_json) as ErrorInfo;
  return run;
}
