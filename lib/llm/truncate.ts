// Fits a conversation into the input token budget the way Qwen-Agent's _truncate_input_messages_roughly does:
// whole old turns go first, then, inside the first turn that cannot go whole, tool results are folded, middle
// steps dropped, and finally user/assistant text is cut keeping both ends. Counts are estimates (tokens.ts).
import { ModelInputError } from './errors';
import { contentText, type Message } from './schema';
import { countMessageTokens, messageLengthCeiling, messageTokenCeiling, truncateTokens } from './tokens';

export interface TruncationResult {
  messages: Message[];
  /** Estimated tokens of `messages` as returned, i.e. of what will be sent. */
  inputTokens: number;
  /** Plain-words account of what was dropped or shortened; empty when nothing was. */
  notes: string[];
}

/** What a tool result or message is replaced by when even a shortened version does not save enough. */
export const OMITTED = 'omit';

interface Entry {
  msg: Message;
  tokens: number;
}

interface Tally {
  droppedTurns: number;
  droppedTurnTokens: number;
  olderFolded: number;
  olderOmitted: number;
  droppedSteps: number;
  lastFolded: number;
  lastOmitted: number;
  textsCut: number;
  textsOmitted: number;
  turnsDroppedAfterCutting: number;
}

/**
 * Returns `messages` cut down to `maxTokens` (estimated with countMessageTokens). `maxTokens <= 0` disables
 * truncation. Throws a 400 ModelInputError for more than one system message or one that is not first, for
 * a conversation that does not start with a user message after the system message, and when the system
 * message alone (or the system message plus the shortest form of the last turn) exceeds the budget.
 * The input array and its messages are never modified.
 */
export function truncateInputMessages(messages: Message[], maxTokens: number): TruncationResult {
  if (maxTokens <= 0 || messages.length === 0) return unchanged(messages);
  checkShape(messages);

  // Every token is at least one byte, so when the bytes fit nothing needs counting; and a short conversation fits
  // by its string lengths alone, without reading its characters.
  let ceiling = 0;
  for (const m of messages) ceiling += messageLengthCeiling(m);
  if (ceiling <= maxTokens) return unchanged(messages);
  ceiling = 0;
  for (const m of messages) ceiling += messageTokenCeiling(m);
  if (ceiling <= maxTokens) return unchanged(messages);

  const hasSystem = messages[0]!.role === 'system';
  const entries: Entry[] = messages.map((msg) => ({ msg, tokens: countMessageTokens(msg) }));
  const systemTokens = hasSystem ? entries[0]!.tokens : 0;
  const rest = hasSystem ? entries.slice(1) : entries;
  const restTokens = sum(rest);
  const available = maxTokens - systemTokens;
  if (restTokens <= available) return { messages: messages.slice(), inputTokens: systemTokens + restTokens, notes: [] };
  if (available <= 0) {
    throw new ModelInputError(
      `The system message alone (about ${systemTokens} tokens) exceeds the maximum input length of ${maxTokens} tokens.`,
    );
  }

  const tally = newTally();
  const turns = splitTurns(rest);
  const kept: Entry[] = hasSystem ? [entries[0]!] : [];
  let excess = restTokens - available;
  turns.forEach((turn, t) => {
    if (excess <= 0) {
      kept.push(...turn);
      return;
    }
    const turnTokens = sum(turn);
    // S1: a whole old turn fits inside the excess, so it goes.
    if (turnTokens <= excess) {
      excess -= turnTokens;
      tally.droppedTurns++;
      tally.droppedTurnTokens += turnTokens;
      return;
    }
    const isLast = t === turns.length - 1;
    // What cutting did is only reported if its result is kept.
    const cutTally = newTally();
    const cut = cutTurn(turn, excess, isLast, cutTally);
    if (cut.excess <= 0) {
      excess = cut.excess;
      kept.push(...cut.entries);
      addTally(tally, cutTally);
    } else if (!isLast) {
      // Folding could not save enough (frames and 'omit' markers still cost tokens); the whole turn is larger
      // than the excess, so dropping it does.
      excess -= turnTokens;
      tally.turnsDroppedAfterCutting++;
    } else {
      const left = systemTokens + sum(cut.entries);
      throw new ModelInputError(
        `The input messages exceed the maximum context length (${maxTokens} tokens) even after keeping only the ` +
          `system message and a shortened latest turn (about ${left} tokens). Raise max_input_tokens ` +
          `(for example to ${(Math.floor(left / 100) + 1) * 100}).`,
      );
    }
  });

  const inputTokens = sum(kept);
  return {
    messages: kept.map((e) => e.msg),
    inputTokens,
    notes: describe(tally, systemTokens + restTokens, inputTokens, maxTokens),
  };
}

function newTally(): Tally {
  return {
    droppedTurns: 0,
    droppedTurnTokens: 0,
    olderFolded: 0,
    olderOmitted: 0,
    droppedSteps: 0,
    lastFolded: 0,
    lastOmitted: 0,
    textsCut: 0,
    textsOmitted: 0,
    turnsDroppedAfterCutting: 0,
  };
}

function addTally(into: Tally, from: Tally): void {
  for (const key of Object.keys(into) as (keyof Tally)[]) into[key] += from[key];
}

function unchanged(messages: Message[]): TruncationResult {
  return new Unchanged(messages);
}

/** A result that counts its tokens only if someone asks: skipping the count is the point of the fast path. (A class,
 *  because an object literal with a getter costs more to make than the whole fast path.) */
class Unchanged implements TruncationResult {
  readonly messages: Message[];
  readonly notes: string[] = [];
  private counted: number | undefined;

  constructor(given: Message[]) {
    this.messages = given.slice();
  }

  get inputTokens(): number {
    this.counted ??= this.messages.reduce((n, m) => n + countMessageTokens(m), 0);
    return this.counted;
  }
}

function checkShape(messages: Message[]): void {
  let first: Message | undefined;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role !== 'system') first ??= m;
    else if (i > 0) {
      throw new ModelInputError(
        'The input messages must contain no more than one system message, and the system message, if present, must be the first message.',
      );
    }
  }
  if (first && first.role !== 'user') {
    throw new ModelInputError('The input messages (excluding the system message) must start with a user message.');
  }
}

/** A turn is one user message and the assistant/function messages after it. */
function splitTurns(entries: Entry[]): Entry[][] {
  const turns: Entry[][] = [];
  for (const e of entries) {
    if (e.msg.role === 'user' || turns.length === 0) turns.push([e]);
    else turns[turns.length - 1]!.push(e);
  }
  return turns;
}

/** A step is the user message, or a run of assistant messages with the function results after them. */
function splitSteps(turn: Entry[]): Entry[][] {
  const steps: Entry[][] = [];
  let prevRole = '';
  for (const e of turn) {
    const startsStep = steps.length === 0 || (e.msg.role === 'assistant' && prevRole !== 'assistant');
    if (startsStep) steps.push([e]);
    else steps[steps.length - 1]!.push(e);
    prevRole = e.msg.role;
  }
  return steps;
}

/** S2–S5 inside one turn whose total is larger than the excess. */
function cutTurn(turn: Entry[], excess: number, isLast: boolean, tally: Tally): { entries: Entry[]; excess: number } {
  let entries = turn.slice();
  let steps = splitSteps(entries);
  const lastStep = new Set(steps.length > 1 ? steps[steps.length - 1] : []);

  // S2: fold older tool results (in the last turn, those of its latest step stay for S4).
  for (let i = 0; i < entries.length && excess > 0; i++) {
    const e = entries[i]!;
    if (e.msg.role !== 'function' || (isLast && lastStep.has(e))) continue;
    const out = fold(e, excess);
    if (!out) continue;
    excess -= e.tokens - out.tokens;
    if (isOmitted(out.msg)) tally.olderOmitted++;
    else tally.olderFolded++;
    entries[i] = out;
  }
  if (excess <= 0) return { entries, excess };

  // S3: drop middle steps, oldest first, keeping the first step and everything from the step that tips it.
  steps = splitSteps(entries);
  let keepFrom = steps.length;
  for (let s = 1; s < steps.length - 1 && excess > 0; s++) {
    excess -= sum(steps[s]!);
    tally.droppedSteps++;
    keepFrom = s + 1;
  }
  if (keepFrom < steps.length) entries = [...steps[0]!, ...steps.slice(keepFrom).flat()];
  if (excess <= 0) return { entries, excess };

  // S4: fold the tool results of the last step.
  const lastStart = steps.length > 1 ? entries.length - steps[steps.length - 1]!.length : entries.length;
  for (let i = lastStart; i < entries.length && excess > 0; i++) {
    const e = entries[i]!;
    if (e.msg.role !== 'function') continue;
    const out = fold(e, excess);
    if (!out) continue;
    excess -= e.tokens - out.tokens;
    if (isOmitted(out.msg)) tally.lastOmitted++;
    else tally.lastFolded++;
    entries[i] = out;
  }
  if (excess <= 0) return { entries, excess };

  // S5: cut user/assistant text keeping both ends, oldest first.
  for (let i = 0; i < entries.length && excess > 0; i++) {
    const e = entries[i]!;
    if (e.msg.role === 'function') continue;
    const out = fold(e, excess);
    if (!out) continue;
    excess -= e.tokens - out.tokens;
    if (isOmitted(out.msg)) tally.textsOmitted++;
    else tally.textsCut++;
    entries[i] = out;
  }
  return { entries, excess };
}

/**
 * Shortens a message by about `by` tokens: its text cut to head...tail when the message is larger than
 * that, else replaced by 'omit'. Returns undefined when neither saves anything.
 */
function fold(e: Entry, by: number): Entry | undefined {
  if (isOmitted(e.msg)) return undefined;
  let msg: Message | undefined;
  if (e.tokens > by) {
    const frame = countMessageTokens(withText(e.msg, ''));
    const room = e.tokens - by - frame;
    if (room > 0) msg = withText(e.msg, truncateTokens(contentText(e.msg.content), room, true));
  }
  msg ??= omitted(e.msg);
  const tokens = countMessageTokens(msg);
  return tokens < e.tokens ? { msg, tokens } : undefined;
}

/** A copy with new text, media items kept after it; old reasoning goes, as Qwen-Agent rebuilds the message. */
function withText(msg: Message, text: string): Message {
  const copy: Message = { ...msg };
  delete copy.reasoning_content;
  const media = Array.isArray(msg.content) ? msg.content.filter((item) => item.text === undefined) : [];
  copy.content = media.length ? [{ text }, ...media] : text;
  return copy;
}

function omitted(msg: Message): Message {
  const copy: Message = { ...msg, content: OMITTED };
  delete copy.reasoning_content;
  return copy;
}

function isOmitted(msg: Message): boolean {
  return msg.content === OMITTED;
}

function sum(entries: Entry[]): number {
  let n = 0;
  for (const e of entries) n += e.tokens;
  return n;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function describe(t: Tally, before: number, after: number, budget: number): string[] {
  const notes = [`input of about ${before} tokens exceeded the ${budget}-token budget; about ${after} tokens are sent`];
  if (t.droppedTurns)
    notes.push(`dropped ${plural(t.droppedTurns, 'oldest turn')} (about ${t.droppedTurnTokens} tokens)`);
  if (t.olderFolded) notes.push(`folded ${plural(t.olderFolded, 'older tool result')} to head...tail`);
  if (t.olderOmitted) notes.push(`replaced ${plural(t.olderOmitted, 'older tool result')} with '${OMITTED}'`);
  if (t.droppedSteps) notes.push(`dropped ${plural(t.droppedSteps, 'middle step')} of a turn`);
  if (t.lastFolded) notes.push(`folded ${plural(t.lastFolded, 'tool result')} of the last step to head...tail`);
  if (t.lastOmitted) notes.push(`replaced ${plural(t.lastOmitted, 'tool result')} of the last step with '${OMITTED}'`);
  if (t.textsCut) notes.push(`truncated ${plural(t.textsCut, 'user/assistant message')} keeping both ends`);
  if (t.textsOmitted) notes.push(`replaced ${plural(t.textsOmitted, 'user/assistant message')} with '${OMITTED}'`);
  if (t.turnsDroppedAfterCutting)
    notes.push(`dropped ${plural(t.turnsDroppedAfterCutting, 'turn')} that folding could not shrink enough`);
  return notes;
}
