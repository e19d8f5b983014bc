// `web_search`: search the web through the configured provider; results carry title, URL and snippet.
import { WEB_SEARCH_PROVIDER_NAMES } from '../lib/config/web-search-providers';
import { BaseTool, FailedToolOutput, type ToolContext } from './base-tool';
import { registerTool } from './registry';
import { settingsOf, type ToolSettings } from './settings';
import { isErrorNamed, type ErrorCode } from '../lib/protocol/errors';
import { createSearchProvider, type SearchProviderError, type SearchResult } from './web/search-providers';

export const WEB_SEARCH_HOWTO =
  'Set WEB_SEARCH_PROVIDER to searxng (with SEARXNG_URL), tavily (TAVILY_API_KEY), serper (SERPER_API_KEY) or ' +
  'brave (BRAVE_API_KEY) in the server environment, or choose a provider on the admin page.';

export type WebSearchOutput = {
  query: string;
  provider: string;
  results: SearchResult[];
};

export class WebSearchTool extends BaseTool {
  name = 'web_search';
  description = 'Search the web. Returns the title, URL and a snippet of each result.';
  parameters = {
    type: 'object',
    properties: { query: { type: 'string', description: 'What to search for' } },
    required: ['query'],
  };

  /** Not offered to the model until a provider is configured. */
  static unavailableReason(settings: ToolSettings): string | undefined {
    const web = settings.webSearch();
    if (web.search) return undefined;
    return web.searchProblem ? `${web.searchProblem}. ${WEB_SEARCH_HOWTO}` : `no search provider. ${WEB_SEARCH_HOWTO}`;
  }

  /** A provider that fails (down, an error status, no JSON, too slow) is a failed search said in a sentence, not a
   *  fault of ours: no error id, nothing in the server's log. */
  async call(params: string, ctx: ToolContext): Promise<WebSearchOutput | FailedToolOutput> {
    const { query } = this.parseArgs<{ query: string }>(params);
    if (!query.trim()) throw new Error('The query is empty.');
    const cfg = settingsOf(ctx).webSearch().search;
    if (!cfg) throw new Error(`web_search is not configured: ${WEB_SEARCH_HOWTO}`);
    const timeout = AbortSignal.timeout(cfg.timeoutMs);
    const signal = ctx.signal ? AbortSignal.any([ctx.signal, timeout]) : timeout;
    const provider = createSearchProvider(cfg);
    try {
      const results = await provider.search(query, { maxResults: cfg.maxResults, signal });
      return { query, provider: provider.name, results };
    } catch (e) {
      if (ctx.signal?.aborted) throw e;
      const at = `${WEB_SEARCH_PROVIDER_NAMES[provider.name]} at ${hostOf(cfg.url)}`;
      if (timeout.aborted) return failed(`${at} did not answer within ${cfg.timeoutMs} ms`, 'tool-timeout');
      if (isErrorNamed<SearchProviderError>(e, 'SearchProviderError')) return failed(e.message);
      throw e;
    }
  }
}
registerTool('web_search')(WebSearchTool);

function failed(message: string, code?: ErrorCode): FailedToolOutput {
  return new FailedToolOutput(message, { type: 'SearchProviderError', message, ...(code ? { code } : {}) });
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
