// The "# Knowledge Base" block the Assistant appends to the system message (Qwen-Agent's KNOWLEDGE_TEMPLATE and
// KNOWLEDGE_SNIPPET layout): one section per document naming it, its passages in a plain code fence, separated by
// "..." lines. Each passage keeps its "[page: N]" lines, so the model (and the reader) can cite document and page.
import type { Lang } from '../../llm/schema';
import type { RetrievedDocument } from './retrieve';

const TEXT = {
  en: {
    title: '# Knowledge Base',
    source: (name: string) => `## The content from [file](${name}):`,
    unreadable: '## Files that could not be read:',
  },
  zh: {
    title: '# 知识库',
    source: (name: string) => `## 来自 [文件](${name}) 的内容：`,
    unreadable: '## 无法读取的文件：',
  },
} as const;

/** The block, or '' when there is nothing to tell. */
export function formatKnowledge(
  documents: readonly RetrievedDocument[],
  lang: Lang,
  errors: readonly string[] = [],
): string {
  const t = TEXT[lang];
  const snippets = documents.map((d) => `${t.source(d.url)}\n\n\`\`\`\n${d.text.join('\n\n...\n\n')}\n\`\`\``);
  if (errors.length) snippets.push(`${t.unreadable}\n\n${errors.map((e) => `- ${e}`).join('\n')}`);
  return snippets.length ? `${t.title}\n\n${snippets.join('\n\n')}` : '';
}

/** The block's heading ("# Knowledge Base"), for a block that adds sections of its own (recalled turns). */
export function knowledgeTitle(lang: Lang): string {
  return TEXT[lang].title;
}
