// The fixture format: a scenario for the scripted model server (scripts/model-server), which plays one reply per
// model call; "Save as fixture" (lib/inspect/fixture.ts) writes a recorded run in it, so a real run becomes a test.
// The server and the tests read the format from here.

export interface ScriptedToolCall {
  id?: string;
  name: string;
  arguments: string;
}

export type ScriptedFault =
  | { kind: 'status'; status: number; retryAfter?: number; body?: unknown }
  | { kind: 'cut'; afterChunks: number }
  | { kind: 'stall'; afterChunks: number; ms: number }
  | { kind: 'stream-error'; afterChunks: number; error: { message: string; type?: string; code?: string } };

export interface ScriptedReply {
  /** Assistant text; may hold <think>, <tool_call>, ✿FUNCTION✿ or ReAct text verbatim. */
  content?: string;
  /** Sent as delta.reasoning_content before the content. */
  reasoning?: string;
  /** Native tool_calls; ids default to call_<random>. */
  toolCalls?: ScriptedToolCall[];
  /** Default: 'tool_calls' when toolCalls are sent, else 'stop'. */
  finishReason?: string;
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** Characters per content/reasoning delta (default 8). */
  chunkSize?: number;
  /** Delay between streamed chunks (default 0). */
  delayMs?: number;
  /** Time to first token: delay before the first chunk, once the response headers are out (default 0). */
  ttftMs?: number;
  /**
   * Appends `⟦t=<ms>⟧` to each content delta as it is written, <ms> being the epoch time in milliseconds
   * (performance.timeOrigin + performance.now(), 3 decimals): a client downstream finds the stamps in what reaches
   * it and knows how long each chunk took (the stamps count as content).
   */
  stampChunks?: boolean;
  /**
   * The reply never finishes: after its chunks it keeps sending deltas of this kind (more content, more reasoning,
   * or more arguments of its last tool call) every `delayMs` (at least 5 ms), with no finish_reason, until the client
   * closes the connection. A hostile or broken server, for the tests that a run stops and closes its request.
   */
  endless?: 'text' | 'reasoning' | 'arguments';
  fault?: ScriptedFault;
}

export interface ScenarioRule {
  /** Every condition given must hold; an empty `when` matches any request. */
  when: { lastUserIncludes?: string; anyIncludes?: string; hasTools?: boolean };
  /** An array plays its items on successive matching requests; the last one then repeats. */
  reply: ScriptedReply | ScriptedReply[];
}

export interface Scenario {
  replies?: ScriptedReply[];
  rules?: ScenarioRule[];
  fallback?: ScriptedReply | 'echo';
}

export const FIXTURE_SCHEMA = 'agent-studio.fixture/1';

/** A recorded run saved as a scenario: its `replies` play in order (one per model call, plus the retried HTTP
 *  failures); the other keys are for people and are ignored by the server. */
export interface RunFixture extends Scenario {
  fixture: typeof FIXTURE_SCHEMA;
  /** Where the replies came from, to tell fixtures apart: `agent` is the kind as people read it (`FnCallAgent`) and
   *  `kind` its id (`fncall`). Fixtures saved before `kind` held the agent's message name in `agent` ("assistant");
   *  the server ignores `source`, so they play the same. */
  source: { runId: string; model: string; agent: string; kind?: string; fncallMode?: string; exportedAt: string };
  /** The user messages the run was given, to send again when replaying. */
  userMessages: string[];
  replies: ScriptedReply[];
}
