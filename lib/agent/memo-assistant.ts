// MemoAssistant: Qwen-Agent's Assistant that keeps notes with the `storage` tool. Before each run it reads the notes
// from the conversation itself (every storage put, update and delete the model made in it), lists them in the system
// message with a prompt to save and read notes often, and keeps at most the last 400 user turns of the history.
import { parseToolArgs } from '../../tools/args';
import type { Lang, Message } from '../llm/schema';
import type { AgentKind, StopReason } from '../protocol/enums';
import { Assistant, type AssistantOptions } from './assistant';
import type { ToolSpec } from './function-list';
import type { RunState } from './run-state';
import { withSystemBlock } from './virtual-memory';

const STORAGE = 'storage';
/** Upstream's window: the user turns of the history the model still sees. */
export const MEMO_MAX_TURNS = 400;

const MEMORY_PROMPT: Record<Lang, (notes: string) => string> = {
  en: (
    notes,
  ) => `During this conversation you may use the storage tool at any time to save what is worth remembering, and to read back what you may have saved before. Notes help you keep what matters across a long conversation: the user's preferences, details about them, important events.
Two tips on notes:
1. Make each key short and clear, such as the key words of what it records;
2. If you forget what you saved, scan lists every note.

Everything you have saved so far is listed here, so you need not read it back first:
<info>
${notes}
</info>

Your memory is short: save and read back the important parts of the conversation often.`,
  zh: (
    notes,
  ) => `在本次对话中，你可以随时用 storage 工具保存值得记住的信息，也可以随时读回以前可能保存过的内容。笔记能帮你在长对话中记住重要的事情：用户的喜好、关于用户的细节、重要的事件。
关于笔记的两点建议：
1. 每条笔记的 key 要简短清楚，比如用所记内容的关键词；
2. 如果忘了存过什么，用 scan 可以列出全部笔记。

你目前保存的全部内容都列在这里，因此不必先去读取：
<info>
${notes}
</info>

你的记忆很短，请经常保存和读取对话中的重要内容。`,
};

/** The notes the model keeps in this conversation: its storage calls replayed in order, "key: value" per line. */
export function notesFrom(messages: readonly Message[]): string {
  const notes = new Map<string, string>();
  for (const m of messages) {
    if (m.function_call?.name !== STORAGE) continue;
    let args: Record<string, unknown>;
    try {
      args = parseToolArgs(m.function_call.arguments);
    } catch {
      continue; // a call the tool refused too
    }
    const key = typeof args.key === 'string' ? args.key : undefined;
    if (!key) continue;
    if ((args.operate === 'put' || args.operate === 'update') && typeof args.value === 'string')
      notes.set(key, args.value);
    else if (args.operate === 'delete') notes.delete(key);
  }
  return [...notes].map(([k, v]) => `${k}: ${v}`).join('\n');
}

/** The messages with only the last `maxTurns` user turns (and the system message). */
export function lastTurns(messages: readonly Message[], maxTurns: number): Message[] {
  let users = 0;
  let from = messages.length;
  while (from > 0 && users < maxTurns) {
    from--;
    if (messages[from]!.role === 'user') users++;
  }
  if (from === 0) return [...messages];
  const kept = messages.slice(from);
  return messages[0]?.role === 'system' ? [messages[0], ...kept] : kept;
}

function hasStorage(specs: readonly ToolSpec[]): boolean {
  return specs.some((s) => (typeof s === 'string' ? s : 'name' in s ? s.name : undefined) === STORAGE);
}

export class MemoAssistant extends Assistant {
  static override readonly kind: AgentKind = 'memo';

  constructor(opts: AssistantOptions) {
    const specs = opts.functionList ?? [];
    // storage first, as upstream adds it; one the caller configured (its root) is kept instead.
    super({ ...opts, functionList: hasStorage(specs) ? specs : [STORAGE, ...specs] });
  }

  protected override loop(messages: Message[], run: RunState): Promise<StopReason> {
    const system = messages[0]?.role === 'system' ? messages[0] : undefined;
    const rest = system ? messages.slice(1) : messages;
    const withNotes = withSystemBlock(system, MEMORY_PROMPT[run.lang](notesFrom(messages)), rest);
    return super.loop(lastTurns(withNotes, MEMO_MAX_TURNS), run);
  }
}
