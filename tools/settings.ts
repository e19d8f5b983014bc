// What the tools (and the agents that search documents themselves) take from the configuration. Nothing else in the
// tool layer reads the environment: a composition root makes these once from its configuration (`toolSettings(config)`)
// and hands them to the agents it makes (AgentOptions.toolSettings), which pass them to every tool call
// (ToolContext.settings). An agent or a tool given none (the core used from a plain Node script, a tool called by
// hand) gets `defaultToolSettings()`: the environment's, read once by that script's process.
import { loadConfig, type AppConfig, type WebSearchState } from '../lib/config';
import { CodeSandbox } from './code-sandbox';

export interface ToolSettings {
  /** DATA_DIR: uploads (files/), parsed documents (parsed/), tools' work directories (work/<conversation>/<tool>)
   *  and the storage tool's keys (storage/). */
  dataDir: string;
  /** retrieval's budget and chunk size unless a tool's cfg says otherwise (RAG_MAX_REF_TOKEN, RAG_PARSER_PAGE_SIZE). */
  rag: AppConfig['rag'];
  /** What a document may weigh when a tool parses it (UPLOAD_MAX_BYTES, UNZIP_MAX_BYTES). */
  documents: AppConfig['documents'];
  /** Images an MCP tool returns are checked as uploads are (IMAGE_MAX_BYTES, IMAGE_MAX_PIXELS). */
  images: AppConfig['images'];
  /** code_interpreter's and python_executor's sandbox (CODE_INTERPRETER_*), with its pool of interpreters. */
  sandbox: CodeSandbox;
  /** Server-side fetches (web_extractor, a conversation's URLs staged for a tool): the SSRF guard's policy. */
  webFetch: AppConfig['web']['fetch'];
  /** The web search in force, asked at each call: the app's admin page may change it while the server runs. */
  webSearch: () => WebSearchState;
  /** amap_weather's AMap key and address (AMAP_TOKEN, AMAP_URL); undefined: the tool is not offered. */
  amap?: AppConfig['web']['amap'];
  /** image_search's SerpAPI key (SERPAPI_IMAGE_SEARCH_KEY…); undefined: the tool is not offered. */
  imageSearch?: AppConfig['web']['imageSearch'];
  /** image_gen's default endpoint from code: the environment's connection and OPENAI_IMAGE_MODEL. */
  imageModel: Pick<AppConfig['llm'], 'baseURL' | 'apiKey' | 'imageModel'>;
  /** MCP servers an agent's functionList names ({mcpServers}) connect with these timeouts (MCP_*); the process's one
   *  manager takes them from whoever makes it first (the app's root: its own). */
  mcp: AppConfig['mcp'];
  /** Stage local paths outside DATA_DIR/files too. Only a process whose messages come from its own user (the CLI)
   *  sets it: a message from the page naming a path must not read any file of the server. */
  allowLocalPaths: boolean;
}

/** The settings of a configuration. `webSearch` replaces the environment's (the app: the admin page's setting). */
export function toolSettings(
  config: Pick<AppConfig, 'dataDir' | 'rag' | 'documents' | 'images' | 'codeInterpreter' | 'web' | 'mcp' | 'llm'>,
  opts: { webSearch?: () => WebSearchState; allowLocalPaths?: boolean } = {},
): ToolSettings {
  const { search, searchProblem } = config.web;
  const fromConfig: WebSearchState = { ...(search ? { search } : {}), ...(searchProblem ? { searchProblem } : {}) };
  return {
    dataDir: config.dataDir,
    rag: config.rag,
    documents: config.documents,
    images: config.images,
    sandbox: new CodeSandbox(config.codeInterpreter),
    webFetch: config.web.fetch,
    mcp: config.mcp,
    ...(config.web.amap ? { amap: config.web.amap } : {}),
    ...(config.web.imageSearch ? { imageSearch: config.web.imageSearch } : {}),
    imageModel: { baseURL: config.llm.baseURL, apiKey: config.llm.apiKey, imageModel: config.llm.imageModel },
    webSearch: opts.webSearch ?? (() => fromConfig),
    allowLocalPaths: opts.allowLocalPaths ?? false,
  };
}

let defaults: ToolSettings | undefined;

/**
 * The settings of agents and tools given none: the core used from a plain Node script (examples/, a plugin), whose
 * process has no other composition root. Read from the environment once, on first use, as Qwen-Agent's settings.py
 * reads its variables; made once (one sandbox pool). The app never falls back to them: its root passes its own.
 */
export function defaultToolSettings(): ToolSettings {
  return (defaults ??= toolSettings(loadConfig()));
}

/** Where agents and tools given no settings keep files (DATA_DIR of the environment, default ./data). */
export function dataDir(): string {
  return defaultToolSettings().dataDir;
}

/** A call's settings: the context's, else the defaults. */
export function settingsOf(ctx: { settings?: ToolSettings } | undefined): ToolSettings {
  return ctx?.settings ?? defaultToolSettings();
}
