// ExpandWriting: Qwen-Agent's section step. Writes the section under one first-level heading of the outline, told
// which heading comes next so that it stops there.
import type { Lang } from '../../llm/schema';
import type { AgentOptions } from '../agent';
import { WritingStep, type WritingInput } from './step';

export interface ExpandInput extends WritingInput {
  /** The whole outline (OutlineWriting's answer). */
  outline?: string;
  /** Which first-level heading, counted from 1. */
  index?: number;
  /** The heading itself, and the one after it ('' for the last section). */
  capture?: string;
  captureLater?: string;
}

const PROMPT: Record<Lang, (p: Required<ExpandInput> & { title: string }) => string> = {
  en: (p) => `You are a writing assistant, writing an article from reference material.

# Reference material
${p.knowledge}

# Title
${p.title}

# Outline
${p.outline}

Now write the section under first-level heading number ${p.index}: ${p.capture}
Every section has its own part to tell, so leave what the later sections cover to them. Do not write an outline here. Keep to the reference material; bring in nothing from elsewhere.`,
  zh: (p) => `你是一名写作助手，正在依据参考资料写一篇文章。

# 参考资料
${p.knowledge}

# 标题
${p.title}

# 大纲
${p.outline}

现在请写第 ${p.index} 个一级标题下的章节：${p.capture}
每个章节各写各的内容，后面章节要写的内容留给后面的章节。这里不要写大纲。只依据参考资料，不要引入其他内容。`,
};

const STOP_AT: Record<Lang, (next: string) => string> = {
  en: (next) => ` Stop before you reach ${next}`,
  zh: (next) => `写到 ${next} 之前请停下。`,
};

export class ExpandWriting extends WritingStep<ExpandInput> {
  constructor(opts: AgentOptions & ExpandInput) {
    super(opts, 'ExpandWriting');
  }

  protected prompt(title: string, input: ExpandInput, lang: Lang): string {
    const prompt = PROMPT[lang]({
      knowledge: input.knowledge ?? '',
      outline: input.outline ?? '',
      index: input.index ?? 1,
      capture: input.capture ?? '',
      captureLater: input.captureLater ?? '',
      title,
    });
    return input.captureLater ? prompt + STOP_AT[lang](input.captureLater) : prompt;
  }
}
