// Web search back-ends behind one interface. Which one runs is the operator's choice (WEB_SEARCH_PROVIDER); their
// endpoints are configured, not model-chosen, so they are fetched directly (a SearXNG on localhost is common).
import type { WebSearchEnvConfig, WebSearchProviderName } from '../../lib/config';
import { redactKey } from '../../lib/llm/redact-key';
import { blockedPortMessage } from '../../lib/net/blocked-port';
import { answerTooLarge, limitBody, responseTooLargeIn } from '../../lib/net/bounded-body';
import { networkReason } from '../../lib/net/network-reason';

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

/** How a provider failed: nothing answered, it answered with an error status, or its answer was no JSON. */
export type SearchProviderProblem = 'unreachable' | 'http' | 'not-json';

/** A provider that failed, said as `<provider> at <host> …`: the model, the page and the admin's save read it. */
export class SearchProviderError extends Error {
  override name = 'SearchProviderError';
  constructor(
    message: string,
    readonly problem: SearchProviderProblem,
    /** The HTTP status it answered with and the start of what it said ('http'), or why nothing answered. */
    readonly detail: { status?: number; said?: string; reason?: string } = {},
  ) {
    super(message);
  }
}

function hostOf(url: string | URL): string {
  try {
    return new URL(url).host;
  } catch {
    return String(url);
  }
}

/** fetch, with a failure to connect said as which provider at which host did not answer, and why. An abort (the
 *  run's stop, the search's time limit) is left to the caller. */
async function ask(provider: string, url: string | URL, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (e) {
    if (init.signal?.aborted) throw e;
    const reason = blockedPortMessage(e, String(url)) ?? networkReason(e);
    throw new SearchProviderError(`${provider} at ${hostOf(url)} did not answer: ${reason}`, 'unreachable', { reason });
  }
}

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
  const at = `${provider} at ${hostOf(answer.url)}`;
  if (!res.ok) {
    const body = redactKey((await res.text().catch(() => '')).slice(0, 300), key);
    throw new SearchProviderError(`${at} answered HTTP ${res.status}${body ? `: ${body}` : ''}`, 'http', {
      status: res.status,
      said: body,
    });
  }
  try {
    return (await res.json()) as Json;
  } catch (e) {
    if (responseTooLargeIn(e)) throw answerTooLarge(provider, SEARCH_ANSWER_MAX_BYTES);
    throw new SearchProviderError(`${at} did not answer JSON`, 'not-json');
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
          const data = await json(
            await ask('SearXNG', url, { signal, headers: { accept: 'application/json' } }),
            'SearXNG',
          );
          return results(data.results, 'title', 'url', 'content').slice(0, maxResults);
        },
      };
    case 'tavily':
      return {
        name: 'tavily',
        async search(query, { maxResults, signal }) {
          const res = await ask('Tavily', cfg.url, {
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
          const res = await ask('Serper', cfg.url, {
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
          const res = await ask('Brave', url, {
            signal,
            headers: { accept: 'application/json', 'x-subscription-token': key },
          });
          const web = (await json(res, 'Brave', key)).web as Json | undefined;
          return results(web?.results, 'title', 'url', 'description').slice(0, maxResults);
        },
      };
  }
}
