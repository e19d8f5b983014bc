// ContinueWriting: Qwen-Agent's continuation step. The last message is the text so far; the model writes what comes
// next, from the reference material.
import type { Lang } from '../../llm/schema';
import { WritingStep, type WritingInput, type WritingStepOptions } from './step';

const PROMPT: Record<Lang, (ref: string, text: string) => string> = {
  en: (ref, text) => `You are a writing assistant. Continue the text below, following the reference material.

# Reference material
${ref}

# The text so far
${text}

Write the continuation only: do not repeat the text so far, say nothing beside it, and keep it consistent with what came before.`,
  zh: (ref, text) => `你是一名写作助手。请依据参考资料，接着下面的文字往下写。

# 参考资料
${ref}

# 已有的文字
${text}

只写续写的部分：不要重复已有的文字，不要说无关的话，并与前文保持连贯。`,
};

export class ContinueWriting extends WritingStep {
  constructor(opts: WritingStepOptions) {
    super(opts, 'ContinueWriting');
  }

  protected prompt(text: string, input: WritingInput, lang: Lang): string {
    return PROMPT[lang](input.knowledge ?? '', text);
  }
}
