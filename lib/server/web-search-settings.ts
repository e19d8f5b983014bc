// Web search set up on the admin page: a provider, its endpoint and its key, kept in the server settings (the key
// sealed with the server's secret box, as connections' keys) and put in force for web_search over the environment's
// WEB_SEARCH_PROVIDER. Only the admin reads or changes it; what the page is told never holds the key.
import {
  WEB_SEARCH_PROVIDERS,
  webSearchNeedsKey,
  webSearchSettings,
  type WebEnvConfig,
  type WebSearchProviderName,
  type WebSearchState,
} from '../config';
import { CodedError, isErrorNamed } from '../protocol/errors';
import type { SecretBox } from '../models/secret-box';
import { WEB_SEARCH_PROVIDER_NAMES } from '../config/web-search-providers';
import { createSearchProvider, type SearchProviderError } from '../../tools/web/search-providers';
import type { AccountStore, StoredWebSearch } from '../store/types';

/** What the admin page shows: where the setting comes from, the provider and endpoint, whether a key is kept. */
export interface WebSearchView {
  /** 'page': set on the admin page; 'environment': WEB_SEARCH_PROVIDER (or nothing) rules. */
  source: 'page' | 'environment';
  provider: StoredWebSearch['provider'] | null;
  url: string;
  keySet: boolean;
  /** Web search can run now, with this provider. */
  enabled: boolean;
  /** Why it cannot, when it is set but unusable (a key that cannot be opened, a missing SearXNG URL). */
  problem: string | null;
}

/** A change from the admin page: `provider: 'environment'` forgets the page's setting. An empty or absent `apiKey`
 *  keeps the key already kept for the same provider. */
export interface WebSearchInput {
  provider: 'environment' | StoredWebSearch['provider'];
  url?: string;
  apiKey?: string;
  /** Keep it though the provider did not answer a test search as it should (it may be down for now). */
  saveAnyway?: boolean;
}

export class WebSearchSettingError extends Error {
  override name = 'WebSearchSettingError';
  readonly status = 400;
}

const MAX_FIELD = 2000;
/** Longest the test search on save may take (the provider's own time limit when shorter). */
const PROBE_TIMEOUT_MS = 10_000;
/** What the test search on save asks: any query will do. */
const PROBE_QUERY = 'test';

export class WebSearchSettings {
  /** The admin page's setting as last read from the store (undefined: the environment's rules). */
  private override: WebSearchState | undefined;

  constructor(
    private readonly deps: {
      store: Pick<AccountStore, 'serverSettings' | 'updateServerSettings'>;
      box: () => SecretBox;
      /** The environment's web search (WEB_SEARCH_PROVIDER and its keys), in force when the page set none, and the
       *  result count and timeout a provider chosen on the page gets. */
      env: Pick<WebEnvConfig, 'search' | 'searchProblem' | 'searchLimits'>;
    },
  ) {}

  /** The web search in force: the admin page's, else the environment's (what web_search reads at each call). */
  current(): WebSearchState {
    if (this.override) return this.override;
    const { search, searchProblem } = this.deps.env;
    return { ...(search ? { search } : {}), ...(searchProblem ? { searchProblem } : {}) };
  }

  /** Reads the stored setting and puts it in force (at start, and when a page loads: another instance sharing the
   *  database may have changed it). */
  async apply(): Promise<void> {
    this.use((await this.deps.store.serverSettings()).webSearch ?? undefined);
  }

  async view(): Promise<WebSearchView> {
    const stored = (await this.deps.store.serverSettings()).webSearch ?? undefined;
    this.use(stored);
    const now = this.current();
    const enabled = Boolean(now.search);
    const problem = enabled ? null : (now.searchProblem ?? null);
    if (!stored)
      return {
        source: 'environment',
        provider: now.search?.provider ?? null,
        url: '',
        keySet: Boolean(now.search?.apiKey),
        enabled,
        problem,
      };
    return {
      source: 'page',
      provider: stored.provider,
      url: stored.url ?? '',
      keySet: Boolean(stored.apiKeyCipher),
      enabled,
      problem,
    };
  }

  async save(input: WebSearchInput): Promise<WebSearchView> {
    const provider = input.provider;
    if (provider === 'environment') {
      await this.deps.store.updateServerSettings({ webSearch: null });
      return this.view();
    }
    if (provider !== 'off' && !(WEB_SEARCH_PROVIDERS as readonly string[]).includes(provider))
      throw new WebSearchSettingError(`The provider is one of off, ${WEB_SEARCH_PROVIDERS.join(', ')}.`);
    const url = typeof input.url === 'string' ? input.url.trim().slice(0, MAX_FIELD) : '';
    const apiKey = typeof input.apiKey === 'string' ? input.apiKey.trim().slice(0, MAX_FIELD) : '';
    const next: StoredWebSearch = { provider };
    if (provider !== 'off') {
      if (url) {
        let parsed: URL;
        try {
          parsed = new URL(url);
        } catch {
          throw new WebSearchSettingError(`"${url}" is not a URL.`);
        }
        if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
          throw new WebSearchSettingError('The search URL starts with http:// or https://.');
        next.url = url;
      } else if (provider === 'searxng')
        throw new WebSearchSettingError('SearXNG needs its URL (e.g. http://localhost:8888).');
      if (webSearchNeedsKey(provider)) {
        const kept = (await this.deps.store.serverSettings()).webSearch;
        if (apiKey) next.apiKeyCipher = this.deps.box().seal(apiKey);
        else if (kept?.provider === provider && kept.apiKeyCipher) next.apiKeyCipher = kept.apiKeyCipher;
        else throw new WebSearchSettingError(`${provider} needs its API key.`);
      }
    }
    if (provider !== 'off' && !input.saveAnyway) await this.probe(next);
    await this.deps.store.updateServerSettings({ webSearch: next });
    return this.view();
  }

  /** A test search with the setting about to be saved: one that fails is refused, saying how, unless saved anyway.
   *  The provider is asked as web_search asks it (the admin's endpoint, as the environment's, may be any address). */
  private async probe(next: StoredWebSearch): Promise<void> {
    const state = this.stateOf(next);
    if (!state.search) return;
    const cfg = state.search;
    const name = WEB_SEARCH_PROVIDER_NAMES[cfg.provider];
    const timeoutMs = Math.min(cfg.timeoutMs, PROBE_TIMEOUT_MS);
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      await createSearchProvider(cfg).search(PROBE_QUERY, { maxResults: 1, signal });
    } catch (e) {
      // Said as the catalog says it (lib/i18n/messages: errors.web-search-*), what the provider said added.
      const at = `${name} at ${cfg.url}`;
      const anyway = 'If it is only down for now, save it anyway.';
      const values = { provider: name, url: cfg.url };
      const unreachable = (reason: string) =>
        new CodedError(
          'web-search-unreachable',
          `${at} did not answer a test search (${reason}). Is it running, and is the URL right? ${anyway}`,
          { ...values, reason },
        );
      if (isErrorNamed<SearchProviderError>(e, 'SearchProviderError')) {
        const { status = 500, said, reason = 'no answer' } = e.detail;
        if (e.problem === 'http')
          throw new CodedError(
            'web-search-http',
            `${at} answered a test search with HTTP ${status}${said ? ` (${said})` : ''}. Check the URL and the key. ${anyway}`,
            { ...values, status },
          );
        if (e.problem === 'not-json')
          throw new CodedError(
            'web-search-not-json',
            `${at} answered a test search, but not with JSON. Check the URL (SearXNG also needs json among its ` +
              `search formats in settings.yml). ${anyway}`,
            values,
          );
        throw unreachable(reason.replace(/\.$/, '')); // the sentence goes on after it
      }
      if (!signal.aborted) throw e;
      throw unreachable(`no answer within ${timeoutMs / 1000} s`);
    }
  }

  /** Puts a stored setting in force (undefined: the environment's). */
  private use(stored: StoredWebSearch | undefined): void {
    this.override = stored && this.stateOf(stored);
  }

  private stateOf(stored: StoredWebSearch): WebSearchState {
    if (stored.provider === 'off') return { searchProblem: 'web search is turned off on the admin page' };
    let apiKey: string | undefined;
    try {
      apiKey = stored.apiKeyCipher ? this.deps.box().open(stored.apiKeyCipher) : undefined;
    } catch (e) {
      return { searchProblem: e instanceof Error ? e.message : String(e) };
    }
    const provider = stored.provider as WebSearchProviderName;
    return { search: webSearchSettings(provider, { url: stored.url, apiKey }, this.deps.env.searchLimits) };
  }
}
