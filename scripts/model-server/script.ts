/** Scenario types for the scripted model server, and the player that picks each request's reply. */

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
  fault?: ScriptedFault;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  // Parsed JSON of arbitrary shape; tests index into it freely, so `unknown` would only add casts.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  at: number;
}

/** `index` counts chat-completion requests (0-based) since the scenario was set or the server reset. */
export type Responder = (req: RecordedRequest, index: number) => ScriptedReply | Promise<ScriptedReply>;

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

export const ECHO_SCENARIO: Scenario = { fallback: 'echo' };

/** Thrown when no reply, rule or fallback applies; the server turns it into a 500. */
export class ScriptExhaustedError extends Error {
  constructor(index: number) {
    super(`scripted model server: script exhausted at chat request #${index} (no reply, rule or fallback left)`);
    this.name = 'ScriptExhaustedError';
  }
}

/** Text of one message's content: a string, or the text parts of a content array. */
export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const part of content) {
    if (part && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string') {
      parts.push((part as { text: string }).text);
    }
  }
  return parts.join('');
}

function messagesOf(body: unknown): { role?: unknown; content?: unknown }[] {
  const messages = (body as { messages?: unknown } | null)?.messages;
  return Array.isArray(messages) ? (messages as { role?: unknown; content?: unknown }[]) : [];
}

export function lastUserText(body: unknown): string {
  const messages = messagesOf(body);
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === 'user') return messageText(messages[i]?.content);
  }
  return '';
}

function anyText(body: unknown): string[] {
  return messagesOf(body).map((m) => messageText(m.content));
}

function hasTools(body: unknown): boolean {
  const tools = (body as { tools?: unknown } | null)?.tools;
  return Array.isArray(tools) && tools.length > 0;
}

export function ruleMatches(when: ScenarioRule['when'], body: unknown): boolean {
  if (when.lastUserIncludes !== undefined && !lastUserText(body).includes(when.lastUserIncludes)) return false;
  if (when.anyIncludes !== undefined) {
    const needle = when.anyIncludes;
    if (!anyText(body).some((t) => t.includes(needle))) return false;
  }
  if (when.hasTools !== undefined && hasTools(body) !== when.hasTools) return false;
  return true;
}

/** Walks a scenario (or calls a responder) request by request, keeping replay positions. */
export class ScriptPlayer {
  private index = 0;
  private replyCursor = 0;
  private ruleCursors = new Map<number, number>();

  constructor(private readonly script: Scenario | Responder) {}

  async next(req: RecordedRequest): Promise<ScriptedReply> {
    const index = this.index++;
    if (typeof this.script === 'function') return this.script(req, index);
    const { replies = [], rules = [], fallback } = this.script;

    if (this.replyCursor < replies.length) {
      const reply = replies[this.replyCursor++];
      if (reply) return reply;
    }
    for (let r = 0; r < rules.length; r++) {
      const rule = rules[r];
      if (!rule || !ruleMatches(rule.when, req.body)) continue;
      if (!Array.isArray(rule.reply)) return rule.reply;
      const at = this.ruleCursors.get(r) ?? 0;
      this.ruleCursors.set(r, at + 1);
      const reply = rule.reply[Math.min(at, rule.reply.length - 1)];
      if (reply) return reply;
    }
    if (fallback === 'echo') return { content: lastUserText(req.body) };
    if (fallback) return fallback;
    throw new ScriptExhaustedError(index);
  }
}
