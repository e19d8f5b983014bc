// The names more than one layer uses, each spelled once: the model layer, the agents, the store, the routes and
// the page all take them from here.
import type { ErrorCode } from './errors';

/** How tools are offered to the model: the tools API, `<tool_call>` in text, or the ✿FUNCTION✿ markers. */
export const FNCALL_MODES = ['native', 'nous', 'qwen'] as const;
export type FncallMode = (typeof FNCALL_MODES)[number];

/** The format of one model call as it was sent: a function-call mode, ReAct text, or no tools at all. */
export const CALL_FORMATS = [...FNCALL_MODES, 'react', 'none'] as const;
export type CallFormat = (typeof CALL_FORMATS)[number];

/**
 * The kinds of agent: the base Agent (one model call), FnCallAgent, ReActChat (tools in ReAct text, one transcript
 * message), the Assistant (FnCallAgent with document search), and the two that hold other agents: the Router (its
 * model hands the turn to one helper) and the GroupChat (members speak in turn). Then Qwen-Agent's special-purpose
 * ones: VirtualMemoryAgent (recalls earlier turns that no longer fit), MemoAssistant (keeps notes with `storage`),
 * TIRMathAgent (runs the Python blocks of its answer; one transcript message, like ReAct), ArticleAgent (writes
 * from the documents in steps), BasicDocQA (answers from the passages found, no tools) and ParallelDocQA (reads
 * every chunk of the documents in parallel, then answers citing pages). A run-start says which kind ran.
 */
export const AGENT_KINDS = [
  'agent',
  'fncall',
  'react',
  'assistant',
  'router',
  'groupchat',
  'virtualmemory',
  'memo',
  'tir',
  'article',
  'basicdocqa',
  'paralleldocqa',
] as const;
export type AgentKind = (typeof AGENT_KINDS)[number];

/** The kinds a conversation (the page's settings, POST /api/chat) can pick. */
export const CHAT_AGENT_KINDS = [
  'fncall',
  'react',
  'assistant',
  'virtualmemory',
  'memo',
  'tir',
  'article',
  'basicdocqa',
  'paralleldocqa',
] as const;
export type ChatAgentKind = (typeof CHAT_AGENT_KINDS)[number];

/** The kinds a saved agent can be: the chat kinds, and the two that hold other saved agents. */
export const SAVED_AGENT_KINDS = [...CHAT_AGENT_KINDS, 'router', 'groupchat'] as const;
export type SavedAgentKind = (typeof SAVED_AGENT_KINDS)[number];

/** How each kind is named to people (Qwen-Agent's class names). */
export const AGENT_KIND_NAMES: Record<AgentKind, string> = {
  agent: 'Agent',
  fncall: 'FnCallAgent',
  react: 'ReActChat',
  assistant: 'Assistant',
  router: 'Router',
  groupchat: 'GroupChat',
  virtualmemory: 'VirtualMemoryAgent',
  memo: 'MemoAssistant',
  tir: 'TIRMathAgent',
  article: 'ArticleAgent',
  basicdocqa: 'BasicDocQA',
  paralleldocqa: 'ParallelDocQA',
};

/** Kinds whose whole answer is one transcript message (their tool calls and results are part of its text). */
export const TRANSCRIPT_KINDS: readonly AgentKind[] = ['react', 'tir'];

/** How a GroupChat picks its next speaker (Qwen-Agent's agent_selection_method): a host model names one (or says
 *  [STOP]), members in order, at random, or the user names one (`@Name`). */
export const SPEAKER_SELECTIONS = ['auto', 'round_robin', 'random', 'manual'] as const;
export type SpeakerSelection = (typeof SPEAKER_SELECTIONS)[number];

/**
 * Why a Router or GroupChat handed the turn to whom (a handoff event says it): the router's model wrote `Call:`
 * (`call`; `fallback` when it named no helper it has, and the first took it), a GroupChat's speaker selection
 * (`auto`, `round_robin`, `random`), a `@Name` mention, the host's `[STOP]` (`stop`), or the user's turn to speak
 * or to name the next speaker (`manual`).
 */
export const HANDOFF_REASONS = ['call', 'fallback', ...SPEAKER_SELECTIONS, 'mention', 'stop'] as const;
export type HandoffReason = (typeof HANDOFF_REASONS)[number];

/** Why a run stopped. `tool-calls`: the model called a tool the caller declared (an OpenAI client's own `tools`);
 *  the run hands those calls back to the caller, as a model ends its turn with `tool_calls`. */
export const STOP_REASONS = ['answered', 'max-iterations', 'aborted', 'error', 'tool-calls'] as const;
export type StopReason = (typeof STOP_REASONS)[number];

/** A stored run: still going, stopped for one of the reasons, or cut off (the server stopped before its run-end). */
export const RUN_STATUSES = ['running', ...STOP_REASONS, 'interrupted'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
/** How a run that is over ended (every status but `running`). */
export const RUN_OUTCOMES = RUN_STATUSES.filter((s): s is Exclude<RunStatus, 'running'> => s !== 'running');
export type RunOutcome = (typeof RUN_OUTCOMES)[number];

/** A turn on the page: its run streaming, or how it ended. */
export type TurnStatus = 'streaming' | Exclude<RunStatus, 'running'>;

/** How a tool call failed: no such tool, arguments refused, the tool threw, a fault that ends the run; `failed`: the
 *  tool ran to its end and its result says the work failed (code that raised, did not parse or ran out of time; the
 *  model gets the result as the tool wrote it); `stopped`: the run was stopped while the call ran. */
export const TOOL_ERROR_KINDS = [
  'unknown-tool',
  'invalid-arguments',
  'exception',
  'fatal',
  'failed',
  'stopped',
] as const;
export type ToolErrorKind = (typeof TOOL_ERROR_KINDS)[number];

/**
 * What a piece of a ReAct transcript is (ReActChat's text-delta events say it): a step's thought, action, action
 * input or observation, the final answer, or the markers and spacing between them. The page shows thoughts and the
 * answer; the tool call and its result come as tool-call and tool-result events.
 */
export const REACT_PARTS = ['thought', 'action', 'action-input', 'observation', 'answer', 'markup'] as const;
export type ReactPart = (typeof REACT_PARTS)[number];

/** Model servers the loopback scan knows by their default ports (the configuration's MODEL_SCAN_PORTS names them). */
export const LOCAL_SERVER_KINDS = ['ollama', 'lmstudio', 'llamacpp', 'vllm', 'sglang'] as const;
export type LocalServerKind = (typeof LOCAL_SERVER_KINDS)[number];

/** The code of the llm-retry a server's 400 to native tool calls gives (the call is made again with the tools in the
 *  text); the page says so on the turn. */
export const TOOLS_REFUSED_CODE = 'tools-refused' satisfies ErrorCode;

/** What a simulated user (HumanSimulator) says to end the dialogue: Qwen-Agent's marker, never a line of it. */
export const SIMULATED_USER_STOP = '<|STOP|>';

/** UserAgent's message when the real user is to speak next (Qwen-Agent's PENDING_USER_INPUT marker). */
export const PENDING_USER_INPUT = '<!-- INTERRUPT: PENDING_USER_INPUT -->';
