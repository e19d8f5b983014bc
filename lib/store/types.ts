// What the app keeps: conversations, their turns (a user message each), the runs that answered each turn, and every
// event of every run in order; uploaded documents; API keys, invites and the server's settings. One interface, one
// implementation over two databases (dialect.ts): SQLite (the default, one process) and PostgreSQL (DATABASE_URL;
// several instances may share it). Every method answers with a Promise.
//
// Ownership: a conversation has an owner, and everything that hangs off it (turns, runs and their events, documents,
// per-conversation settings, tools' work directories) is its owner's. Every method that takes an id or lists takes
// the owner's scope first (lib/store/owner.ts) and sees only that owner's objects: another owner's id reads as
// unknown. The few methods without a scope say why (start-up maintenance, finding an API key's owner).
import type { AgentEvent, ErrorInfo } from '../protocol/events';
import type { AgentDefinition } from '../protocol/agent-definition';
import type { ConversationSettings } from '../protocol/conversation-settings';
import type { RunStatus } from '../protocol/enums';
import type { CapabilityHints } from '../llm/capabilities';
import type { WebSearchProviderName } from '../config/web-search-providers';
import type { ContentItem, Message } from '../llm/schema';
import type { VectorStore } from '../documents/search/vectors';
import type { RunSearchStore } from './run-query';
import type { OwnerScope } from './owner';
import type { AuthDatabase } from './dialect';
import type { Entity, Tables } from './tables';
import type { RunBus } from './run-bus';

/** The title of a conversation that has none yet (one started by an upload); the page shows it in its language. */
export const DEFAULT_TITLE = 'New chat';

export type ConversationSummary = Entity<Pick<Tables['conversations'], 'id' | 'title' | 'created_at' | 'updated_at'>>;

export interface Conversation extends ConversationSummary {
  settings: ConversationSettings;
}

export type StoredRun = Entity<
  Pick<Tables['runs'], 'id' | 'turn_id' | 'status' | 'started_at' | 'ended_at' | 'error_json'>
>;
export type StoredTurn = Entity<Omit<Tables['turns'], 'search_text'>>;

/** A turn as the page shows it: the user message and its latest run with all the run's events. */
export interface TurnRecord {
  turn: StoredTurn;
  run?: StoredRun;
  events: AgentEvent[];
  /** How many runs this turn has had (regenerate adds one). */
  runCount: number;
}

/** A turn as the next run's history needs it: the user's message and the messages its latest run added. */
export interface HistoryTurn {
  turn: StoredTurn;
  messages: Message[];
}

/** RunSearchStore: the Runs page's queries (lib/store/run-query.ts). */
export interface ChatStore
  extends DocumentStore, AccountStore, ConnectionStore, AgentStore, RunSearchStore, VectorStore {
  /** Drops every embedding model's chunk vectors of these bytes (the uploads service, once nobody holds them). */
  deleteChunkVectors(hash: string): Promise<void>;
  createConversation(
    owner: OwnerScope,
    init?: { title?: string; settings?: Partial<ConversationSettings> },
  ): Promise<Conversation>;
  getConversation(owner: OwnerScope, id: string): Promise<Conversation | undefined>;
  /** The owner's conversations, newest first (by last activity). With a query: those whose title or any
   *  message/answer text contains every word of it (case-insensitive), newest first. */
  listConversations(owner: OwnerScope, query?: string): Promise<ConversationSummary[]>;
  renameConversation(owner: OwnerScope, id: string, title: string): Promise<void>;
  updateSettings(owner: OwnerScope, id: string, settings: Partial<ConversationSettings>): Promise<Conversation>;
  /** Deletes the conversation with its turns, runs, events and documents. */
  deleteConversation(owner: OwnerScope, id: string): Promise<void>;

  /**
   * A new user message at the end of the conversation (which moves to the top of its owner's list) and the run that
   * answers it, in one transaction: both are kept or neither (a full disk, a refusal, a fault leave no message
   * without its run). `replacing`: the seq of a turn the message replaces, dropped with every later one in the same
   * transaction (edit-and-resend). `settings`: merged into the conversation's in the same transaction (a message
   * sent with changed settings). Refused as startRun is, with nothing stored, dropped or changed.
   */
  addTurnWithRun(
    owner: OwnerScope,
    conversationId: string,
    content: string | ContentItem[],
    runId: string,
    opts?: { replacing?: number; settings?: Partial<ConversationSettings> },
  ): Promise<{ turn: StoredTurn; run: StoredRun }>;
  getTurn(owner: OwnerScope, turnId: string): Promise<StoredTurn | undefined>;
  /** Every turn in order, each with its latest run and that run's events. */
  listTurns(owner: OwnerScope, conversationId: string): Promise<TurnRecord[]>;
  /**
   * Every turn in order with the messages of its latest run (foldEvents of its events), as the next run's history.
   * An ended run's messages are kept when it ends, so this reads one row per turn instead of every event.
   */
  listHistory(owner: OwnerScope, conversationId: string): Promise<HistoryTurn[]>;

  /**
   * Another run of a stored turn (its first, or regenerate, replay, continue), held by this instance. `dropLater`:
   * the turns after it are dropped in the same transaction (they followed the old answer). A conversation answers
   * one message at a time: while a run of it is running, ConversationBusyError (409 `conversation-busy`) and nothing
   * is stored or dropped. Decided under the conversation's row lock (PostgreSQL), so two instances never both start
   * one; a run whose lease ran out (its instance died) does not count, and is marked interrupted then and there.
   */
  startRun(owner: OwnerScope, turnId: string, runId: string, opts?: { dropLater?: boolean }): Promise<StoredRun>;
  /**
   * Appends events to a run's log, in order, all or none. Durable once the promise resolves. The SQLite store
   * commits them in one transaction before it returns (WAL, synchronous=NORMAL): a killed process loses nothing it
   * was given; a power loss or OS crash may lose the last transactions, never part of one. Resolves with the bytes
   * stored (the events' JSON, UTF-8).
   */
  appendEvents(owner: OwnerScope, runId: string, events: readonly AgentEvent[]): Promise<number>;
  finishRun(owner: OwnerScope, runId: string, status: Exclude<RunStatus, 'running'>, error?: ErrorInfo): Promise<void>;
  getRun(owner: OwnerScope, runId: string): Promise<StoredRun | undefined>;
  getRunEvents(owner: OwnerScope, runId: string): Promise<AgentEvent[]>;
  /** Every run of a turn, oldest first (regenerate and replay add runs). */
  listRuns(owner: OwnerScope, turnId: string): Promise<StoredRun[]>;

  /** For every owner: runs still marked running whose driver is gone (a crash, a kill) are marked interrupted;
   *  resolves with how many were. SQLite (one process): every run left running, at start-up. PostgreSQL (instances
   *  sharing the database): the runs whose lease ran out, at start-up and at every heartbeat; other instances' live
   *  runs are left alone. */
  markInterruptedRuns(): Promise<number>;
  /** What the built-in local owner had (everything written before accounts, or on loopback without them) becomes
   *  `owner`'s: the first admin takes it over. Resolves with how many conversations moved. */
  adoptLocalData(owner: OwnerScope): Promise<number>;
  /** The database handle the accounts library (lib/auth) keeps its tables in, beside these. */
  readonly authDatabase: AuthDatabase;

  /** How the instances sharing this store's database tell each other about runs (run-bus.ts); absent when one
   *  process owns the store (SQLite). */
  readonly runBus?: RunBus;

  close(): Promise<void>;
}

export type { AuthDatabase } from './dialect';
export type { ConversationSettings } from '../protocol/conversation-settings';
export type { AgentDefinition, AgentDocument } from '../protocol/agent-definition';

// --- Documents uploaded to a conversation ---

export type StoredDocument = Entity<Tables['documents']> & {
  /** `files/<hash>/<name>`, relative to DATA_DIR: the `{file}` content item of a message. */
  ref: string;
};

export type DocumentUpdate =
  | { state: 'ready'; kind: string; pages: number; title?: string }
  | { state: 'error'; error: string; errorCode?: string };

export interface DocumentStore {
  addDocument(
    owner: OwnerScope,
    input: { conversationId: string; hash: string; name: string; size: number },
  ): Promise<StoredDocument>;
  getDocument(owner: OwnerScope, id: string): Promise<StoredDocument | undefined>;
  /** Oldest first. */
  listDocuments(owner: OwnerScope, conversationId: string): Promise<StoredDocument[]>;
  updateDocument(owner: OwnerScope, id: string, update: DocumentUpdate): Promise<StoredDocument>;
  /** Removes the record; resolves with it (undefined when unknown). */
  removeDocument(owner: OwnerScope, id: string): Promise<StoredDocument | undefined>;
  /** Does the owner hold an upload of these bytes, in any of their conversations or saved agents' documents? (The
   *  same bytes uploaded by two users are stored once and owned twice; a reference to bytes the owner never uploaded
   *  is not theirs.) */
  ownsUpload(owner: OwnerScope, hash: string): Promise<boolean>;
  /** How many records, of every owner, point at these bytes (conversations' documents and saved agents'): without a
   *  scope, because the bytes are deleted only once nobody holds them. Never answered to a client (it would tell
   *  whether someone else has the file). */
  countDocumentsWithHash(hash: string): Promise<number>;
}

// --- Model connections (OpenAI-compatible servers added on the page) ---

/** A model server the page added. The API key is kept encrypted (lib/models/secret-box.ts): the store never holds
 *  it in clear, and nothing of it but "a key is set" leaves the server. */
export type StoredConnection = Omit<Entity<Tables['model_connections']>, 'ownerId' | 'baseUrl' | 'apiKeyCipher'> & {
  /** null: server-wide (what the admin adds; before accounts, everything added); else the user who added it. */
  ownerId: string | null;
  /** An OpenAI-compatible base URL, usually ending in /v1. */
  baseURL: string;
  /** The API key, encrypted; null when the server needs none. */
  apiKeyCipher: string | null;
};

// --- Agents the user saved (the Agents page) ---

export type SavedAgent = AgentDefinition & Entity<Pick<Tables['agents'], 'id' | 'created_at' | 'updated_at'>>;

export type ConnectionInput = Pick<StoredConnection, 'name' | 'baseURL' | 'apiKeyCipher'> &
  Partial<Pick<StoredConnection, 'capabilities' | 'rates'>>;

export interface ConnectionStore {
  /** The connections the owner sees: the server-wide ones and their own, oldest first. */
  listConnections(owner: OwnerScope): Promise<StoredConnection[]>;
  /** A connection the owner sees (server-wide or theirs); another owner's reads as unknown. */
  getConnection(owner: OwnerScope, id: string): Promise<StoredConnection | undefined>;
  /** `owner` null: a server-wide connection (the models service lets only an admin add one). */
  addConnection(owner: OwnerScope | null, input: ConnectionInput): Promise<StoredConnection>;
  /** Each field given replaces the stored one (capabilities whole). Only the owner's own connection (`owner` null:
   *  a server-wide one); any other id throws NotFoundError. */
  updateConnection(owner: OwnerScope | null, id: string, patch: Partial<ConnectionInput>): Promise<StoredConnection>;
  /** False when the owner (null: the server) has no such connection. What was learnt of its models goes with it. */
  removeConnection(owner: OwnerScope | null, id: string): Promise<boolean>;
  /** What servers taught about their models (a 400 to a tools request), by model name, for a connection id: a saved
   *  connection's, or "env" (the one from the environment). No scope: it is about the server, not a user, and only
   *  the models service calls it, for a connection it has found visible to the caller. */
  learnedCapabilities(connectionId: string): Promise<Record<string, CapabilityHints>>;
  /** Merges what the server taught about one model of a connection. */
  learnCapabilities(connectionId: string, model: string, hints: CapabilityHints): Promise<void>;
}

/** Saved agents. createAgent and updateAgent also record which uploads the definition's `documents` hold (the
 *  agent_documents table, schema version 9): ownsUpload and countDocumentsWithHash count them; deleteAgent drops them. */
export interface AgentStore {
  createAgent(owner: OwnerScope, definition: AgentDefinition): Promise<SavedAgent>;
  getAgent(owner: OwnerScope, id: string): Promise<SavedAgent | undefined>;
  /** The owner's agents, by name (case aside), then oldest first. */
  listAgents(owner: OwnerScope): Promise<SavedAgent[]>;
  /** Throws NotFoundError when the owner has no such agent. */
  updateAgent(owner: OwnerScope, id: string, definition: AgentDefinition): Promise<SavedAgent>;
  /** Resolves with whether the owner had it. In the same transaction it leaves the owner's Routers and GroupChats
   *  that held it (their `members` lose its id; nobody else's agent is read or changed). When it is the only member
   *  of one of them, nothing is deleted: a CodedError (`agent-only-member`, status 409) names them. */
  deleteAgent(owner: OwnerScope, id: string): Promise<boolean>;
  /** Every agent of the owner (a deleted user's): none is left to hold another. Resolves with how many went. */
  deleteAllAgents(owner: OwnerScope): Promise<number>;
}

// --- API keys, invites and server settings ---

export type ApiKeyRecord = Entity<Omit<Tables['api_keys'], 'hash'>>;
export type InviteRecord = Entity<Omit<Tables['invites'], 'hash'>>;

/** open: anyone may create an account; invite: only with an invite link (the default once the admin exists);
 *  closed: nobody, invite links included. The first account (the admin) can always be created. */
export type SignUpMode = 'open' | 'invite' | 'closed';

export interface ServerSettings {
  signUp: SignUpMode;
  /** Tools the admin has enabled for the other users (admins may use every tool). */
  userTools: { codeInterpreter: boolean; web: boolean };
  /** Web search as the admin set it on the admin page, over WEB_SEARCH_PROVIDER and its keys; absent or null: the
   *  environment's (lib/server/web-search-settings.ts). */
  webSearch?: StoredWebSearch | null;
}

/** The admin's web search setting: a provider with its endpoint and its key (sealed with the server's secret box,
 *  as connections' keys), or 'off' whatever the environment says. */
export interface StoredWebSearch {
  provider: 'off' | WebSearchProviderName;
  url?: string;
  apiKeyCipher?: string;
}

export interface AccountStore {
  /** `hash`: sha256 of the key (hex). */
  createApiKey(owner: OwnerScope, input: { name: string; prefix: string; hash: string }): Promise<ApiKeyRecord>;
  /** The owner's keys, newest first, revoked ones included. */
  listApiKeys(owner: OwnerScope): Promise<ApiKeyRecord[]>;
  /** False when the owner has no such key (or it was revoked already). */
  revokeApiKey(owner: OwnerScope, id: string): Promise<boolean>;
  /** The key with this hash, of whichever owner: how a request carrying a key finds whose it is (no scope yet). */
  apiKeyByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  /** Records a use of the key (last-used time). */
  touchApiKey(id: string, at: number): Promise<void>;

  /** Invites are the server's, not a user's: only the admin service (lib/auth) calls these. */
  createInvite(input: { hash: string; createdBy: string; expiresAt: number }): Promise<InviteRecord>;
  /** Not yet used, revoked or expired, newest first. */
  listOpenInvites(now: number): Promise<InviteRecord[]>;
  revokeInvite(id: string): Promise<boolean>;
  /** Is there an open invite with this hash? */
  openInvite(hash: string, now: number): Promise<InviteRecord | undefined>;
  /** Uses the invite, once: false when it was used, revoked or expired meanwhile. */
  claimInvite(hash: string, userId: string, now: number): Promise<boolean>;

  serverSettings(): Promise<ServerSettings>;
  updateServerSettings(patch: Partial<ServerSettings>): Promise<ServerSettings>;

  /** The accounts' limits (lib/auth/limits.ts) count attempts here, the server's and no user's: the times of the
   *  attempts of this kind and key after `since`, oldest first. */
  attemptsSince(kind: string, key: string, since: number): Promise<number[]>;
  /** Records an attempt, and forgets those of its kind from `forgetUntil` back (no limit looks that far). */
  addAttempt(kind: string, key: string, at: number, forgetUntil: number): Promise<void>;
}
