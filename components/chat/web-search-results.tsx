import { useTranslations } from 'next-intl';
import type { ContentItem } from '../../lib/llm/schema';
import { ToolResult } from './tool-result';

interface Result {
  title: string;
  url: string;
  snippet: string;
}

function parse(result: string | ContentItem[]): Result[] | undefined {
  if (typeof result !== 'string') return undefined;
  try {
    const data = JSON.parse(result) as { results?: unknown };
    if (!Array.isArray(data.results)) return undefined;
    return data.results.filter(
      (r): r is Result => typeof r === 'object' && r !== null && typeof (r as Result).url === 'string',
    );
  } catch {
    return undefined;
  }
}

function safeHref(url: string): string | undefined {
  return /^https?:\/\//i.test(url) ? url : undefined;
}

/** web_search results as links with their snippets (anything else falls back to the plain result view). */
export function WebSearchResults({ result }: { result: string | ContentItem[] }) {
  const t = useTranslations('toolResult');
  const results = parse(result);
  if (!results) return <ToolResult result={result} />;
  if (!results.length) return <p className="text-xs">{t('noResults')}</p>;
  return (
    <ol className="list-decimal space-y-2 pl-5 text-sm">
      {results.map((r, i) => (
        <li key={i}>
          <a
            href={safeHref(r.url)}
            target="_blank"
            rel="noopener noreferrer nofollow"
            className="font-medium text-blue-700 underline dark:text-blue-300"
          >
            {r.title || r.url}
          </a>
          <span className="block truncate text-xs text-neutral-600 dark:text-neutral-400">{r.url}</span>
          {r.snippet && <span className="block text-xs">{r.snippet}</span>}
        </li>
      ))}
    </ol>
  );
}
