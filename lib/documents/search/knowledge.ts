// The "# Knowledge Base" block the Assistant appends to the system message (Qwen-Agent's KNOWLEDGE_TEMPLATE and
// KNOWLEDGE_SNIPPET layout): one section per document naming it, its passages in a plain code fence, separated by
// "..." lines. Each passage keeps its "[page: N]" lines, so the model (and the reader) can cite document and page.
import { attachmentName, linkTarget } from '../../llm/attachment-name';
import type { Lang } from '../../llm/schema';
import type { RetrievedDocument } from './retrieve';

const TEXT = {
  en: {
    title: '# Knowledge Base',
    source: (name: string) => `## The content from [file](${linkTarget(name)}):`,
    given: '## The content provided:',
    unreadable: '## Files that could not be read:',
  },
  zh: {
    title: '# 知识库',
    source: (name: string) => `## 来自 [文件](${linkTarget(name)}) 的内容：`,
    given: '## 提供的内容：',
    unreadable: '## 无法读取的文件：',
  },
} as const;

/** The block, or '' when there is nothing to tell. `lead`: sections of the caller's own that come first
 *  (ParallelDocQA's findings), each starting with its "## " heading. */
export function formatKnowledge(
  documents: readonly RetrievedDocument[],
  lang: Lang,
  errors: readonly string[] = [],
  lead: readonly string[] = [],
): string {
  const t = TEXT[lang];
  const snippets = [
    ...lead,
    ...documents.map((d) => `${t.source(d.url)}\n\n\`\`\`\n${d.text.join('\n\n...\n\n')}\n\`\`\``),
  ];
  if (errors.length) snippets.push(`${t.unreadable}\n\n${errors.map((e) => `- ${e}`).join('\n')}`);
  return snippets.length ? `${t.title}\n\n${snippets.join('\n\n')}` : '';
}

/**
 * The block for knowledge the caller gives (Qwen-Agent's `knowledge=`): the retrieval tool's JSON
 * ([{url, text: [passages]}]) one section per document, as retrieved knowledge is; any other text one section.
 */
export function formatGivenKnowledge(knowledge: string, lang: Lang): string {
  const text = knowledge.trim();
  if (!text) return '';
  const t = TEXT[lang];
  const fence = (body: string) => `\n\n\`\`\`\n${body}\n\`\`\``;
  const docs = retrievedJson(text);
  const snippets = docs
    ? docs.map((d) => `${t.source(attachmentName(d.url))}${fence(d.text.join('\n\n...\n\n'))}`)
    : [`${t.given}${fence(text)}`];
  return `${t.title}\n\n${snippets.join('\n\n')}`;
}

function retrievedJson(text: string): { url: string; text: string[] }[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const ok =
    Array.isArray(value) &&
    value.every(
      (d) =>
        d &&
        typeof d === 'object' &&
        typeof (d as { url?: unknown }).url === 'string' &&
        Array.isArray((d as { text?: unknown }).text) &&
        (d as { text: unknown[] }).text.every((p) => typeof p === 'string'),
    );
  return ok ? (value as { url: string; text: string[] }[]) : undefined;
}

/** The block's heading ("# Knowledge Base"), for a block that adds sections of its own (recalled turns). */
export function knowledgeTitle(lang: Lang): string {
  return TEXT[lang].title;
}
