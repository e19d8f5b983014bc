// OutlineWriting: Qwen-Agent's first writing step. The last message is the title; the model answers with an outline
// whose first-level headings are numbered with Roman numerals (ExpandWriting writes one section per heading).
import type { Lang } from '../../llm/schema';
import { WritingStep, type WritingInput, type WritingStepOptions } from './step';

const PROMPT: Record<Lang, (ref: string, title: string) => string> = {
  en: (
    ref,
    title,
  ) => `You are a writing assistant. Read the reference material below, then write an article with the given title.

# Reference material
${ref}

# Title
${title}

First write the outline, and nothing else: your reply is the outline alone. Number its first-level headings with Roman numerals (I., II., III., …). Keep to the reference material; bring in nothing from elsewhere.`,
  zh: (ref, title) => `你是一名写作助手。请阅读下面的参考资料，然后以给定的标题写一篇文章。

# 参考资料
${ref}

# 标题
${title}

请先写大纲，且只写大纲：回复中只有大纲本身。大纲的一级标题用罗马数字编号（I.、II.、III.……）。只依据参考资料，不要引入其他内容。`,
};

export class OutlineWriting extends WritingStep {
  constructor(opts: WritingStepOptions) {
    super(opts, 'OutlineWriting');
  }

  protected prompt(title: string, input: WritingInput, lang: Lang): string {
    return PROMPT[lang](input.knowledge ?? '', title);
  }
}
