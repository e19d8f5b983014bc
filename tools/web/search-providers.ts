// Web search back-ends behind one interface. Which one runs is the operator's choice (WEB_SEARCH_PROVIDER); their
// endpoints are configured, not model-chosen, so they are fetched directly (a SearXNG on localhost is common).
import type { WebSearchEnvConfig, WebSearchProviderName } from '../../lib/config';
import { redactKey } from '../../lib/llm/redact-key';
import { answerTooLarge, limitBody, responseTooLargeIn } from '../../lib/net/bounded-body';

/** Most a provider's answer to one search may be (bytes, as read): a page of results is tens of KB. A provider that
 *  answers without end is cut here instead of filling the server's memory. */
export const SEARCH_ANSWER_MAX_BYTES = 4 * 1024 * 1024;

export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

export interface SearchProvider {
  readonly name: WebSearchProviderName;
  search(query: string, opts: { maxResults: number; signal: AbortSignal }): Promise<SearchResult[]>;
}

type Json = Record<string, unknown>;

function stripTags(text: unknown): string {
  return String(text ?? '')
    .replace(/<[^>]*>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .trim();
}

function results(list: unknown, title: string, url: string, snippet: string): SearchResult[] {
  if (!Array.isArray(list)) return [];
  return list
    .filter((r): r is Json => typeof r === 'object' && r !== null && typeof (r as Json)[url] === 'string')
    .map((r) => ({
      title: stripTags(r[title]) || String(r[url]),
      url: String(r[url]),
      snippet: stripTags(r[snippet]),
    }));
}

/** The provider's JSON answer; a refusal says what it said, without the server's key should it repeat it (the error
 *  reaches the model and the page of whoever searched). */
async function json(answer: Response, provider: string, key = ''): Promise<Json> {
  const res = limitBody(answer, SEARCH_ANSWER_MAX_BYTES);
  if (!res.ok) {
    const body = redactKey((await res.text().catch(() => '')).slice(0, 300), key);
    throw new Error(`${provider} answered HTTP ${res.status}${body ? `: ${body}` : ''}`);
  }
  try {
    return (await res.json()) as Json;
  } catch (e) {
    if (responseTooLargeIn(e)) throw answerTooLarge(provider, SEARCH_ANSWER_MAX_BYTES);
    throw new Error(`${provider} did not answer JSON`);
  }
}

export function createSearchProvider(cfg: WebSearchEnvConfig): SearchProvider {
  const key = cfg.apiKey ?? '';
  switch (cfg.provider) {
    case 'searxng':
      return {
        name: 'searxng',
        async search(query, { maxResults, signal }) {
          const url = new URL('search', cfg.url.endsWith('/') ? cfg.url : `${cfg.url}/`);
          url.searchParams.set('q', query);
          url.searchParams.set('format', 'json');
          const data = await json(await fetch(url, { signal, headers: { accept: 'application/json' } }), 'SearXNG');
          return results(data.results, 'title', 'url', 'content').slice(0, maxResults);
        },
      };
    case 'tavily':
      return {
        name: 'tavily',
        async search(query, { maxResults, signal }) {
          const res = await fetch(cfg.url, {
            method: 'POST',
            signal,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
            body: JSON.stringify({ query, max_results: maxResults }),
          });
          return results((await json(res, 'Tavily', key)).results, 'title', 'url', 'content').slice(0, maxResults);
        },
      };
    case 'serper':
      return {
        name: 'serper',
        async search(query, { maxResults, signal }) {
          const res = await fetch(cfg.url, {
            method: 'POST',
            signal,
            headers: { 'content-type': 'application/json', 'x-api-key': key },
            body: JSON.stringify({ q: query, num: maxResults }),
          });
          return results((await json(res, 'Serper', key)).organic, 'title', 'link', 'snippet').slice(0, maxResults);
        },
      };
    case 'brave':
      return {
        name: 'brave',
        async search(query, { maxResults, signal }) {
          const url = new URL(cfg.url);
          url.searchParams.set('q', query);
          url.searchParams.set('count', String(Math.min(maxResults, 20)));
          const res = await fetch(url, {
            signal,
            headers: { accept: 'application/json', 'x-subscription-token': key },
          });
          const web = (await json(res, 'Brave', key)).web as Json | undefined;
          return results(web?.results, 'title', 'url', 'description').slice(0, maxResults);
        },
      };
  }
}
