// What the app keeps: conversations, their turns (a user message each), the runs that answered each turn, and every
// event of every run in order. One interface with two implementations: SQLite (the default, one process) and
// PostgreSQL (DATABASE_URL; several instances may share it).
// Every method answers with a Promise (a database across the network answers later); the SQLite store does its work
// before it returns and answers with a settled one.
import type { AgentEvent, ErrorInfo } from '../protocol/events';
import type { ChatAgentKind, FncallMode, RunStatus } from '../protocol/enums';
import type { ContentItem, Lang } from '../llm/schema';
import type { RunBus } from './run-bus';

/** The title of a conversation that has none yet (one started by an upload); the page shows it in its language. */
export const DEFAULT_TITLE = 'New chat';

/** Per-conversation settings the user picks on the page. The model endpoint is not here: it comes from the server's
 *  environment and its key never reaches the browser. */
export interface ConversationSettings {
  agent: ChatAgentKind;
  /** Registered tool names offered to the model. */
  tools: string[];
  fncallMode: FncallMode;
  /** Model parameters (temperature, top_p, max_tokens, ...), sent as generate_cfg. */
  generateCfg: Record<string, number>;
  systemMessage: string;
  /** Pause before each tool call: the user edits the arguments, runs it, skips it, or supplies the result. */
  pauseBeforeTools: boolean;
  /** The language of the agent's prompts. 'auto' or absent: the page's language (without a page, the messages'). */
  lang?: 'auto' | Lang;
}

export interface ConversationSummary {
  id: string;
  title: string;
  createdAt: number; // ms since epoch
  updatedAt: number;
}

export interface Conversation extends ConversationSummary {
  settings: ConversationSettings;
}

export interface StoredRun {
  id: string;
  turnId: string;
  status: RunStatus;
  startedAt: number;
  endedAt?: number;
  error?: ErrorInfo;
}

export interface StoredTurn {
  id: string;
  conversationId: string;
  /** 0, 1, 2... in conversation order. */
  seq: number;
  /** The user's message: text, or content items (text plus files). */
  content: string | ContentItem[];
  createdAt: number;
}

/** A turn as the page shows it: the user message and its latest run with all the run's events. */
export interface TurnRecord {
  turn: StoredTurn;
  run?: StoredRun;
  events: AgentEvent[];
  /** How many runs this turn has had (regenerate adds one). */
  runCount: number;
}

export interface ChatStore extends DocumentStore {
  createConversation(init?: { title?: string; settings?: Partial<ConversationSettings> }): Promise<Conversation>;
  getConversation(id: string): Promise<Conversation | undefined>;
  /** Newest first (by last activity). With a query: conversations whose title or any message/answer text contains
   *  every word of it (case-insensitive), newest first. */
  listConversations(query?: string): Promise<ConversationSummary[]>;
  renameConversation(id: string, title: string): Promise<void>;
  updateSettings(id: string, settings: Partial<ConversationSettings>): Promise<Conversation>;
  /** Deletes the conversation with its turns, runs and events. */
  deleteConversation(id: string): Promise<void>;

  /** Appends a turn at the end of the conversation and bumps its updatedAt. */
  addTurn(conversationId: string, content: string | ContentItem[]): Promise<StoredTurn>;
  getTurn(turnId: string): Promise<StoredTurn | undefined>;
  /** Deletes this turn and every later one (edit-and-resend replaces a turn and what followed it). */
  deleteTurnsFrom(conversationId: string, seq: number): Promise<void>;
  /** Every turn in order, each with its latest run and that run's events. */
  listTurns(conversationId: string): Promise<TurnRecord[]>;

  startRun(turnId: string, runId: string): Promise<StoredRun>;
  /**
   * Appends events to a run's log, in order, all or none. Durable once the promise resolves. The SQLite store
   * commits them in one transaction before it returns (WAL, synchronous=NORMAL): a killed process loses nothing it
   * was given; a power loss or OS crash may lose the last transactions, never part of one.
   */
  appendEvents(runId: string, events: readonly AgentEvent[]): Promise<void>;
  /** appendEvents with one event. */
  appendEvent(runId: string, event: AgentEvent): Promise<void>;
  finishRun(runId: string, status: Exclude<RunStatus, 'running'>, error?: ErrorInfo): Promise<void>;
  getRun(runId: string): Promise<StoredRun | undefined>;
  getRunEvents(runId: string): Promise<AgentEvent[]>;
  /** Every run of a turn, oldest first (regenerate and replay add runs). */
  listRuns(turnId: string): Promise<StoredRun[]>;
  /** Runs still marked running whose driver is gone (a crash, a kill) are marked interrupted; resolves with how many
   *  were. SQLite (one process): every run left running, at start-up. PostgreSQL (instances sharing the database):
   *  the runs whose lease ran out, at start-up and at every heartbeat; other instances' live runs are left alone. */
  markInterruptedRuns(): Promise<number>;

  /** How the instances sharing this store's database tell each other about runs (run-bus.ts); absent when one
   *  process owns the store (SQLite). */
  readonly runBus?: RunBus;

  close(): Promise<void>;
}

// --- Documents uploaded to a conversation ---

export type DocumentState = 'parsing' | 'ready' | 'error';

/** An uploaded file's record. The bytes live under DATA_DIR/files/<hash>; `ref` is what messages carry. */
export interface StoredDocument {
  id: string;
  conversationId: string;
  /** sha256 of the bytes, hex. */
  hash: string;
  /** The sanitised file name. */
  name: string;
  size: number;
  /** `files/<hash>/<name>`, relative to DATA_DIR: the `{file}` content item of a message. */
  ref: string;
  state: DocumentState;
  /** What the bytes turned out to be, once parsed. */
  kind?: string;
  pages?: number;
  title?: string;
  /** Why it cannot be read (state 'error'), in English, as the model is told. */
  error?: string;
  /** The same as a code (lib/documents DocumentError's, or 'unreadable'), for the page to say in its language. */
  errorCode?: string;
  createdAt: number;
}

export type DocumentUpdate =
  | { state: 'ready'; kind: string; pages: number; title?: string }
  | { state: 'error'; error: string; errorCode?: string };

export interface DocumentStore {
  addDocument(input: { conversationId: string; hash: string; name: string; size: number }): Promise<StoredDocument>;
  getDocument(id: string): Promise<StoredDocument | undefined>;
  /** Oldest first. */
  listDocuments(conversationId: string): Promise<StoredDocument[]>;
  updateDocument(id: string, update: DocumentUpdate): Promise<StoredDocument>;
  /** Removes the record; resolves with it (undefined when unknown). */
  removeDocument(id: string): Promise<StoredDocument | undefined>;
  /** How many records (in any conversation) point at these bytes. */
  countDocumentsWithHash(hash: string): Promise<number>;
}
