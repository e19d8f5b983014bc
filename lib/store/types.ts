// What the app keeps: conversations, their turns (a user message each), the runs that answered each turn, and every
// event of every run in order. One interface, so PostgreSQL can serve many users later; SQLite is the default.
import type { AgentEvent, ErrorInfo } from '../agent/events';
import type { FncallMode } from '../agent/events';
import type { ContentItem } from '../llm/schema';

export type AgentKind = 'fncall' | 'react' | 'assistant';

/** Per-conversation settings the user picks on the page. The model endpoint is not here: it comes from the server's
 *  environment and its key never reaches the browser. */
/** The title of a conversation that has none yet (one started by an upload); the page shows it in its language. */
export const DEFAULT_TITLE = 'New chat';

export interface ConversationSettings {
  agent: AgentKind;
  /** Registered tool names offered to the model. */
  tools: string[];
  fncallMode: FncallMode;
  /** Model parameters (temperature, top_p, max_tokens, ...), sent as generate_cfg. */
  generateCfg: Record<string, number>;
  systemMessage: string;
  /** Pause before each tool call: the user edits the arguments, runs it, skips it, or supplies the result. */
  pauseBeforeTools: boolean;
  /** The language of the agent's prompts. 'auto' or absent: the page's language (without a page, the messages'). */
  lang?: 'auto' | 'en' | 'zh';
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

export type RunStatus = 'running' | 'answered' | 'max-iterations' | 'aborted' | 'error' | 'interrupted';

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
  createConversation(init?: { title?: string; settings?: Partial<ConversationSettings> }): Conversation;
  getConversation(id: string): Conversation | undefined;
  /** Newest first (by last activity). With a query: conversations whose title or any message/answer text contains
   *  every word of it (case-insensitive), newest first. */
  listConversations(query?: string): ConversationSummary[];
  renameConversation(id: string, title: string): void;
  updateSettings(id: string, settings: Partial<ConversationSettings>): Conversation;
  /** Deletes the conversation with its turns, runs and events. */
  deleteConversation(id: string): void;

  /** Appends a turn at the end of the conversation and bumps its updatedAt. */
  addTurn(conversationId: string, content: string | ContentItem[]): StoredTurn;
  getTurn(turnId: string): StoredTurn | undefined;
  /** Deletes this turn and every later one (edit-and-resend replaces a turn and what followed it). */
  deleteTurnsFrom(conversationId: string, seq: number): void;
  /** Every turn in order, each with its latest run and that run's events. */
  listTurns(conversationId: string): TurnRecord[];

  startRun(turnId: string, runId: string): StoredRun;
  /** Appends one event to a run's log. Synchronous and durable once it returns (WAL): a crash loses at most the
   *  event in flight. */
  appendEvent(runId: string, event: AgentEvent): void;
  finishRun(runId: string, status: Exclude<RunStatus, 'running'>, error?: ErrorInfo): void;
  getRun(runId: string): StoredRun | undefined;
  getRunEvents(runId: string): AgentEvent[];
  /** Every run of a turn, oldest first (regenerate and replay add runs). */
  listRuns(turnId: string): StoredRun[];
  /** At start-up: runs still marked running were cut off by a crash or a kill; mark them interrupted. Returns how
   *  many were marked. */
  markInterruptedRuns(): number;

  close(): void;
}

// --- Documents uploaded to a conversation (issue 4) ---

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
  addDocument(input: { conversationId: string; hash: string; name: string; size: number }): StoredDocument;
  getDocument(id: string): StoredDocument | undefined;
  /** Oldest first. */
  listDocuments(conversationId: string): StoredDocument[];
  updateDocument(id: string, update: DocumentUpdate): StoredDocument;
  /** Removes the record; returns it (undefined when unknown). */
  removeDocument(id: string): StoredDocument | undefined;
  /** How many records (in any conversation) point at these bytes. */
  countDocumentsWithHash(hash: string): number;
}
