// VirtualMemoryAgent: Qwen-Agent's agent with a retrieval tool whose findings go into the system message, for
// conversations longer than the model's input. Before the loop, a conversation that no longer fits the model's
// max_input_tokens keeps its newest turns, and the turns left out are searched for the question: the passages
// recalled join the system message (a retrieval event by `memory` shows them). When the model calls `retrieval`,
// the conversation's files and those earlier turns are searched for its query, what is found replaces the knowledge
// in the system message, and the call's result just says so, as upstream does.
import { BaseToolWithFileAccess, type BaseTool, type ToolContext } from '../../tools';
import { ragSettings } from '../../tools/retrieval';
import type { ParsedDocument } from '../documents/types';
import type { Lang, Message } from '../llm/schema';
import type { AgentKind, StopReason } from '../protocol/enums';
import type { AgentOptions } from './agent';
import { FnCallAgent } from './fncall-agent';
import type { RunState, ToolCall } from './run-state';
import {
  dialogueDocument,
  fitRecent,
  inputBudget,
  lastUserText,
  memorySection,
  searchMemory,
  splitForBudget,
  withSystemBlock,
} from './virtual-memory';

export interface VirtualMemoryAgentOptions extends AgentOptions {
  /** Qwen-Agent's rag_cfg: `max_ref_token` (the most recalled turns and passages may take; default 20000) and
   *  `parser_page_size` (chunk size, default 500). */
  ragCfg?: { max_ref_token?: number; parser_page_size?: number };
}

const RETRIEVAL = 'retrieval';

/** The result the model gets for a retrieval call: the passages themselves are in the system message. */
const IN_SYSTEM: Record<Lang, string> = {
  en: 'The relevant passages have been found and put in the system message above, under Knowledge Base.',
  zh: '相关内容已检索到，并已放入上面的系统消息（知识库）中。',
};
const NOTHING: Record<Lang, string> = {
  en: 'Nothing was found for this query in the files or in the earlier turns of the conversation.',
  zh: '在文件和本次对话较早的轮次中都没有找到与此查询相关的内容。',
};

/** What a run remembers: the system message before any knowledge, and the turns that were left out. */
interface Memory {
  system?: Message;
  earlier?: ParsedDocument;
  recallBudget: number;
  pageSize: number;
}

export class VirtualMemoryAgent extends FnCallAgent {
  static override readonly kind: AgentKind = 'virtualmemory';
  readonly ragCfg: Record<string, unknown>;
  private readonly memories = new WeakMap<RunState, Memory>();

  constructor(opts: VirtualMemoryAgentOptions) {
    super({
      ...opts,
      description:
        opts.description ??
        'Answers with tools, and looks up what it needs in the files and in earlier turns of a long conversation.',
      // The retrieval tool first, as upstream adds it (a retrieval entry of the list replaces it).
      functionList: [RETRIEVAL, ...(opts.functionList ?? [])],
    });
    this.ragCfg = { ...opts.ragCfg };
  }

  protected override async loop(messages: Message[], run: RunState): Promise<StopReason> {
    const { maxRefTokens, parserPageSize } = ragSettings(this.ragCfg, this.toolSettings);
    const budget = inputBudget(this.llm, run);
    const split = splitForBudget(messages, budget, maxRefTokens);
    const memory: Memory = { recallBudget: maxRefTokens, pageSize: parserPageSize };
    if (messages[0]?.role === 'system') memory.system = messages[0];
    let working = messages;
    if (split) {
      const earlier = dialogueDocument(split.earlier);
      const query = lastUserText(messages);
      const recalled = await searchMemory(earlier, query, split.recallBudget, parserPageSize);
      run.emit({ ...recalled.step, by: 'memory' });
      const { knowledgeTitle } = await import('../documents/search');
      const block = knowledgeBlock('', recalled.passages, run.lang, knowledgeTitle(run.lang));
      const [system] = withSystemBlock(split.system, block, []);
      // The block's headings and separators take a little more than its passages: a recent turn may have to go too.
      const { kept, moved } = fitRecent(system!, split.recent, budget);
      working = [system!, ...kept.flatMap((t) => t.messages)];
      memory.earlier = moved.length ? dialogueDocument([...split.earlier, ...moved]) : earlier;
      memory.recallBudget = split.recallBudget;
    }
    this.memories.set(run, memory);
    try {
      return await super.loop(working, run);
    } finally {
      this.memories.delete(run);
    }
  }

  protected override callTool(
    call: ToolCall,
    messages: Message[],
    run: RunState,
    offered: ReadonlyMap<string, BaseTool> = this.functionMap,
  ) {
    const memory = this.memories.get(run);
    const retrieval = offered.get(RETRIEVAL);
    if (call.name !== RETRIEVAL || !memory || !retrieval) return super.callTool(call, messages, run, offered);
    const tools = new Map(offered);
    tools.set(RETRIEVAL, new RecallingRetrieval(retrieval, memory, run, call.functionId, messages));
    return super.callTool(call, messages, run, tools);
  }
}

/** The knowledge block: the files' block (which has the title), or the title, then the recalled turns. */
function knowledgeBlock(files: string, passages: readonly string[], lang: Lang, heading: string): string {
  const recalled = memorySection(passages, lang);
  if (!recalled) return files;
  return `${files || heading}\n\n${recalled}`;
}

/**
 * The retrieval tool of one run: searches the conversation's files (the agent's retrieval tool does) and the turns
 * left out, puts what it found into the system message of the loop's history, and tells the model so.
 */
class RecallingRetrieval extends BaseToolWithFileAccess {
  name: string;
  description: string;
  parameters: Record<string, unknown>;

  constructor(
    private readonly inner: BaseTool,
    private readonly memory: Memory,
    private readonly run: RunState,
    private readonly functionId: string,
    private readonly history: Message[],
  ) {
    super(inner.cfg);
    this.name = inner.name;
    this.description = inner.description;
    this.parameters = inner.function.parameters;
  }

  async call(params: string, ctx: ToolContext): Promise<string> {
    const { query } = this.parseArgs<{ query: string }>(params);
    const lang = ctx.lang;
    const { formatKnowledge, knowledgeTitle } = await import('../documents/search');
    let filesBlock = '';
    let failure: unknown;
    if (ctx.files.length || ctx.stagingErrors?.length) {
      try {
        const out = await this.inner.call(params, ctx);
        const documents = (Array.isArray(out) ? out : []).filter(
          (d): d is { url: string; text: string[] } => typeof d === 'object' && d !== null && 'url' in d,
        );
        filesBlock = formatKnowledge(documents, lang);
      } catch (e) {
        failure = e;
      }
    }
    let passages: string[] = [];
    if (this.memory.earlier) {
      const recalled = await searchMemory(this.memory.earlier, query, this.memory.recallBudget, this.memory.pageSize);
      this.run.emit({ ...recalled.step, by: 'memory', functionId: this.functionId });
      passages = recalled.passages;
    }
    const block = knowledgeBlock(filesBlock, passages, lang, knowledgeTitle(lang));
    if (!block) {
      if (failure) throw failure;
      return NOTHING[lang];
    }
    // Upstream rebuilds the system message from the conversation and this knowledge: an earlier block goes.
    const [system] = withSystemBlock(this.memory.system, block, []);
    if (this.history[0]?.role === 'system') this.history[0] = system!;
    else this.history.unshift(system!);
    return IN_SYSTEM[lang];
  }
}
