// The memory of a long conversation: which turns still fit the model's input, and a search of the earlier ones. The
// turns that no longer fit become a document of their own (one page per turn, as Qwen-Agent's
// DialogueRetrievalAgent saves the dialogue to a file for its retrieval), searched for the question like any
// document; what is found goes into the system message, so the model still sees the relevant part of what was said.
import { createHash } from 'node:crypto';
import type { ParsedDocument } from '../documents/types';
import type { ChatModel } from '../llm/model';
import { contentText, type Lang, type Message } from '../llm/schema';
import { countMessageTokens, messageLengthCeiling } from '../llm/tokens';
import type { RetrievalStep } from '../protocol/events';
import type { RunState } from './run-state';

/** The share of the input budget (after the system message) that recalled turns may take. */
export const RECALL_SHARE = 0.25;
/** What the model layer fits a conversation into when nothing says otherwise. */
const DEFAULT_INPUT_BUDGET = 58_000;
/** The name recalled turns go by in the trace (each candidate's page is its turn). */
export const MEMORY_DOCUMENT = 'conversation';

export interface Turn {
  /** 1-based: the turn's place in the conversation. */
  n: number;
  messages: Message[];
  tokens: number;
}

/** The conversation cut where its turns stop fitting: the system message, the turns left out, the turns kept. */
export interface MemorySplit {
  system?: Message;
  earlier: Turn[];
  recent: Turn[];
  /** Tokens the recalled passages may take. */
  recallBudget: number;
}

/** The input budget of the run's model calls: the run's max_input_tokens, else the model's (<= 0: none). */
export function inputBudget(llm: ChatModel, run: RunState): number {
  return run.options.generateCfg?.max_input_tokens ?? llm.maxInputTokens ?? DEFAULT_INPUT_BUDGET;
}

/** Turns as the model layer counts them: each user message opens one (anything before the first joins it). */
export function splitTurns(messages: readonly Message[]): { system?: Message; turns: Turn[] } {
  const system = messages[0]?.role === 'system' ? messages[0] : undefined;
  const turns: Turn[] = [];
  for (const m of system ? messages.slice(1) : messages) {
    const last = turns[turns.length - 1];
    if (last && !(m.role === 'user' && last.messages.some((x) => x.role === 'user'))) last.messages.push(m);
    else turns.push({ n: turns.length + 1, messages: [m], tokens: 0 });
  }
  return system ? { system, turns } : { turns };
}

/**
 * Where the conversation stops fitting `budget` tokens: undefined when it fits whole (or there is no budget, or no
 * earlier turn to leave out). The newest turns are kept while they fit what the system message and the recalled
 * passages leave; the current turn is always kept (the model layer shortens it if it alone is too long).
 */
export function splitForBudget(
  messages: readonly Message[],
  budget: number,
  maxRefTokens: number,
): MemorySplit | undefined {
  if (budget <= 0) return undefined;
  let ceiling = 0;
  for (const m of messages) ceiling += messageLengthCeiling(m);
  if (ceiling <= budget) return undefined; // a quick upper bound: fits without counting
  const { system, turns } = splitTurns(messages);
  for (const t of turns) t.tokens = t.messages.reduce((sum, m) => sum + countMessageTokens(m), 0);
  const systemTokens = system ? countMessageTokens(system) : 0;
  if (systemTokens + turns.reduce((sum, t) => sum + t.tokens, 0) <= budget) return undefined;
  const recallBudget = Math.min(maxRefTokens, Math.floor(Math.max(0, budget - systemTokens) * RECALL_SHARE));
  let room = budget - systemTokens - recallBudget;
  let first = turns.length - 1; // the current turn stays
  room -= turns[first]?.tokens ?? 0;
  while (first > 0 && turns[first - 1]!.tokens <= room) {
    first--;
    room -= turns[first]!.tokens;
  }
  if (first === 0 || recallBudget <= 0) return undefined;
  const split: MemorySplit = {
    earlier: turns.slice(0, first),
    recent: turns.slice(first),
    recallBudget,
  };
  if (system) split.system = system;
  return split;
}

/**
 * The recent turns that still fit beside `system` (once the recalled passages are in it, their headings and
 * separators count too): the oldest go while they do not, all but the current turn. Returns those kept and those
 * moved out.
 */
export function fitRecent(system: Message, recent: readonly Turn[], budget: number): { kept: Turn[]; moved: Turn[] } {
  let total = countMessageTokens(system) + recent.reduce((sum, t) => sum + t.tokens, 0);
  let first = 0;
  while (total > budget && first < recent.length - 1) total -= recent[first++]!.tokens;
  return { kept: recent.slice(first), moved: recent.slice(0, first) };
}

/** One line of the dialogue document per message: who said it, and what. */
function line(m: Message): string {
  if (m.function_call) return `${m.role}: [called ${m.function_call.name}] ${m.function_call.arguments}`;
  const items = typeof m.content === 'string' ? [] : m.content;
  const files = items.flatMap((i) => (i.file ? [`[file](${i.file})`] : i.image ? [`[image](${i.image})`] : []));
  const text = [contentText(m.content), ...files].filter(Boolean).join(' ');
  if (!text) return '';
  return m.role === 'function' ? `function ${m.name ?? ''}: ${text}` : `${m.role}: ${text}`;
}

/** The turns left out as a document: one page per turn, numbered as in the conversation. */
export function dialogueDocument(turns: readonly Turn[]): ParsedDocument {
  const pages = turns.map((t) => ({ page: t.n, paragraphs: t.messages.map(line).filter(Boolean) }));
  const hash = createHash('sha256').update(JSON.stringify(pages)).digest('hex');
  return { hash, name: MEMORY_DOCUMENT, kind: 'text', pages };
}

/** A page marker of the dialogue document says which turn the text is from. */
function turnMarkers(text: string): string {
  return text.replace(/^\[page: (\d+)\]$/gm, '[turn $1]');
}

export interface Recalled {
  /** The passages that fit the budget, in the order of the conversation, each opening with its "[turn N]" line. */
  passages: string[];
  /** The search, for the trace (the emitter says who searched). */
  step: RetrievalStep;
}

/** Searches the dialogue document for `query` within `budget` tokens. */
export async function searchMemory(
  doc: ParsedDocument,
  query: string,
  budget: number,
  pageSize: number,
): Promise<Recalled> {
  const started = performance.now();
  const { indexDocument, searchIndexes } = await import('../documents/search');
  const found = searchIndexes([indexDocument(doc, pageSize)], query, budget);
  const step: RetrievalStep = {
    type: 'retrieval',
    query,
    terms: found.terms,
    mode: found.mode,
    candidates: found.candidates.map((c) => ({ ...c, text: turnMarkers(c.text) })),
    budgetTokens: found.budgetTokens,
    usedTokens: found.usedTokens,
    durationMs: Math.round((performance.now() - started) * 1000) / 1000,
  };
  return { passages: (found.documents[0]?.text ?? []).map(turnMarkers), step };
}

const SECTION: Record<Lang, string> = {
  en: "## Earlier in this conversation (turns that no longer fit in the model's input):",
  zh: '## 本次对话中较早的内容（已放不进模型输入的轮次）：',
};

/** The recalled passages as a section of the knowledge block ('' when there are none). */
export function memorySection(passages: readonly string[], lang: Lang): string {
  return passages.length ? `${SECTION[lang]}\n\n\`\`\`\n${passages.join('\n\n...\n\n')}\n\`\`\`` : '';
}

/** `system` with `block` appended (a system message of its own when there is none), then `rest`. */
export function withSystemBlock(system: Message | undefined, block: string, rest: readonly Message[]): Message[] {
  if (!block) return system ? [system, ...rest] : [...rest];
  if (!system) return [{ role: 'system', content: block }, ...rest];
  const content =
    typeof system.content === 'string'
      ? `${system.content}\n\n${block}`
      : [...system.content, { text: `\n\n${block}` }];
  return [{ ...system, content }, ...rest];
}

/** The text of the conversation's last user message (what the run answers). */
export function lastUserText(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--)
    if (messages[i]!.role === 'user') return contentText(messages[i]!.content);
  return '';
}
