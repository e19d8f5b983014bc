/** The scripted model server's player: picks each request's reply from a scenario (its format is
 *  lib/protocol/fixture.ts). */
import type { Scenario, ScenarioRule, ScriptedReply } from '../../lib/protocol/fixture';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  // Parsed JSON of arbitrary shape; tests index into it freely, so `unknown` would only add casts.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  at: number;
  /** When the connection's answer closed (Date.now()), and whether it had been sent whole: a client that left
   *  mid-stream reads `finished: false`. */
  closedAt?: number;
  finished?: boolean;
}

/** `index` counts chat-completion requests (0-based) since the scenario was set or the server reset. */
export type Responder = (req: RecordedRequest, index: number) => ScriptedReply | Promise<ScriptedReply>;

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
