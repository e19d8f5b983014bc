// WriteFromScratch: Qwen-Agent's whole-article plan, always its default one: summarize the reference material, write
// an outline of the title from that summary, then expand each first-level heading of the outline into its section.
// Every step is a model call of the same run, and a heading message before each says which step follows.
import type { Lang, Message } from '../../llm/schema';
import type { StopReason } from '../../protocol/enums';
import { Agent, type AgentOptions } from '../agent';
import type { RunState } from '../run-state';
import { ExpandWriting } from './expand-writing';
import { OutlineWriting } from './outline-writing';
import { sayStep, WritingStep, type WritingInput } from './step';

/** Upstream's default plan, the only one it runs. */
export const DEFAULT_PLAN = '{"action1": "summarize", "action2": "outline", "action3": "expand"}';

const PLAN_STEPS: Record<Lang, { words: Record<string, string>; join: string; end: string }> = {
  en: {
    words: {
      summarize: 'summarize the reference material',
      outline: 'write an outline',
      expand: 'write the text, one section for each heading of the outline',
    },
    join: ', ',
    end: '.',
  },
  zh: {
    words: { summarize: '总结参考资料', outline: '写大纲', expand: '按大纲的每个标题逐节写正文' },
    join: '；',
    end: '。',
  },
};

/** The plan's steps in words, in their order ("1. summarize the reference material, 2. write an outline, …"):
 *  upstream shows the plan's JSON, which reads as code on the page. */
export function planInWords(lang: Lang): string {
  const plan = JSON.parse(DEFAULT_PLAN) as Record<string, string>;
  const { words, join, end } = PLAN_STEPS[lang];
  const steps = Object.keys(plan)
    .sort()
    .map((key, i) => `${i + 1}. ${words[plan[key]!] ?? plan[key]}`);
  return steps.join(join) + end;
}

/** The heading messages between the steps (a quoted line each, as upstream marks them). */
export const STEP_HEADINGS: Record<
  Lang,
  Record<'plan' | 'summarize' | 'outline' | 'expand' | 'section' | 'noSections', string>
> = {
  en: {
    plan: `>\n> The plan (the default one): ${planInWords('en')}\n`,
    summarize: '>\n> Summary of the reference material: \n',
    outline: '>\n> The outline: \n',
    expand: '>\n> The text: \n',
    section: '>\n# ',
    noSections:
      '>\n> No text was written: only headings numbered with Roman numerals (I., II., …) are written out, and the outline has none. Try again for a new outline.\n',
  },
  zh: {
    plan: `>\n> 写作计划（默认计划）：${planInWords('zh')}\n`,
    summarize: '>\n> 参考资料摘要：\n',
    outline: '>\n> 大纲：\n',
    expand: '>\n> 正文：\n',
    section: '>\n# ',
    noSections:
      '>\n> 没有写正文：正文只按用罗马数字（I.、II.、…）编号的标题逐节写出，而这份大纲没有这样的标题。请重试以生成新的大纲。\n',
  },
};

const SUMMARY_REQUEST: Record<Lang, string> = {
  en: 'Summarize the main points of the reference material.',
  zh: '总结参考资料的主要内容。',
};

/** The outline's first-level headings: the lines that open with a Roman numeral and a stop, bracket or space. */
export function firstLevelHeadings(outline: string): string[] {
  return outline
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /^[IVXLCDM]+(?:[.、)]|\s)/.test(line));
}

export class WriteFromScratch extends Agent {
  readonly knowledge: string;

  constructor(opts: AgentOptions & WritingInput) {
    super({ ...opts, name: opts.name ?? 'WriteFromScratch' });
    this.knowledge = opts.knowledge ?? '';
  }

  protected override async loop(messages: Message[], run: RunState): Promise<StopReason> {
    await this.write(messages, run, this.knowledge);
    return 'answered';
  }

  /** Writes the article for the title in the last message, as model calls of `run`. */
  async write(messages: Message[], run: RunState, knowledge: string): Promise<void> {
    const heading = STEP_HEADINGS[run.lang];
    const llm = this.llm;
    sayStep(run, heading.plan);

    sayStep(run, heading.summarize);
    // Upstream asks an Assistant given the knowledge: the reference material as its system message, one call.
    const summaryPrompt: Message[] = [
      ...(knowledge ? [{ role: 'system' as const, content: knowledge }] : []),
      { role: 'user', content: SUMMARY_REQUEST[run.lang] },
    ];
    const summary = await new SummaryStep({ llm }).write(summaryPrompt, run, {});

    sayStep(run, heading.outline);
    const outline = await new OutlineWriting({ llm }).write(messages, run, { knowledge: summary });

    const sections = firstLevelHeadings(outline);
    // Upstream writes out only the Roman-numeral headings, and without one leaves its text heading empty: the user
    // is told why there is no text instead.
    sayStep(run, sections.length ? heading.expand : heading.noSections);
    const expand = new ExpandWriting({ llm });
    for (let i = 0; i < sections.length; i++) {
      sayStep(run, heading.section);
      await expand.write(messages, run, {
        knowledge,
        outline,
        index: i + 1,
        capture: sections[i]!,
        captureLater: sections[i + 1] ?? '',
      });
    }
  }
}

/** The summary step: the request as it is (the reference material is in the system message). */
class SummaryStep extends WritingStep {
  constructor(opts: AgentOptions) {
    super(opts, 'Assistant');
  }

  protected prompt(request: string): string {
    return request;
  }
}
