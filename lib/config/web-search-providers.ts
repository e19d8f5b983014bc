// The web search providers web_search knows (a plain module: the admin page's form lists them too).
export const WEB_SEARCH_PROVIDERS = ['searxng', 'tavily', 'serper', 'brave'] as const;
export type WebSearchProviderName = (typeof WEB_SEARCH_PROVIDERS)[number];

/** How each provider is named (its own name, in every language). */
export const WEB_SEARCH_PROVIDER_NAMES: Record<WebSearchProviderName, string> = {
  searxng: 'SearXNG',
  tavily: 'Tavily',
  serper: 'Serper',
  brave: 'Brave',
};
