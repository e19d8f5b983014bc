// ArticleAgent: Qwen-Agent's writing agent over the conversation's documents. It searches the documents for the last
// message (as the Assistant does), shows what it found, then either continues the text of the last message
// (ContinueWriting, the default) or writes a whole article on it as a title (WriteFromScratch: summary, outline,
// one section per heading). Every step is a model call of this run.
//
// In a conversation, a message that starts with "/title" asks for a whole article on the rest of the message (what
// Qwen-Agent's workstation does with its `full_article` argument).
import { contentText, type Message } from '../llm/schema';
import type { AgentKind, StopReason } from '../protocol/enums';
import { Assistant, type AssistantOptions } from './assistant';
import type { RunState } from './run-state';
import { ContinueWriting } from './writing/continue-writing';
import { sayStep } from './writing/step';
import { STEP_HEADINGS, WriteFromScratch } from './writing/write-from-scratch';

export interface ArticleAgentOptions extends AssistantOptions {
  /** Write a whole article on the last message as its title (upstream's `full_article`); default: continue it. */
  fullArticle?: boolean;
}

const TITLE_COMMAND = /^\s*\/title\b\s*/;

const FOUND: Record<'en' | 'zh', string> = {
  en: '>\n> Relevant passages found: \n',
  zh: '>\n> 找到的相关内容：\n',
};

export class ArticleAgent extends Assistant {
  static override readonly kind: AgentKind = 'article';
  readonly fullArticle: boolean;

  constructor(opts: ArticleAgentOptions) {
    super(opts);
    this.fullArticle = opts.fullArticle ?? false;
  }

  protected override async loop(messages: Message[], run: RunState): Promise<StopReason> {
    const { request, full } = this.request(messages);
    const found = await this.searchDocuments(request, run);
    let knowledge = '';
    if (found) {
      const { formatKnowledge } = await import('../documents/search');
      knowledge = formatKnowledge(found.documents, run.lang, found.errors);
    }
    if (knowledge) sayStep(run, `${FOUND[run.lang]}${knowledge}\n`);
    if (full) {
      await new WriteFromScratch({ llm: this.llm }).write(request, run, knowledge);
    } else {
      sayStep(run, STEP_HEADINGS[run.lang].expand);
      await new ContinueWriting({ llm: this.llm }).write(request, run, { knowledge });
    }
    return 'answered';
  }

  /** The messages to write from, and whether a whole article is asked for ("/title" before the title). */
  private request(messages: Message[]): { request: Message[]; full: boolean } {
    const last = messages[messages.length - 1];
    if (!last || last.role !== 'user' || !TITLE_COMMAND.test(contentText(last.content)))
      return { request: messages, full: this.fullArticle };
    let content = last.content;
    if (typeof content === 'string') content = content.replace(TITLE_COMMAND, '');
    else {
      const first = content.findIndex((item) => item.text !== undefined);
      content = content.map((item, i) =>
        i === first ? { ...item, text: item.text!.replace(TITLE_COMMAND, '') } : item,
      );
    }
    return { request: [...messages.slice(0, -1), { ...last, content }], full: true };
  }
}
