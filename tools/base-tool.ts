// The tool contract: what a tool declares (name, description, parameters) and how it is called.
import type { ErrorCode, ErrorValues } from '../lib/protocol/errors';
import type { RetrievalStep, ToolFile } from '../lib/protocol/events';
import type { ContentItem, FunctionDef, Lang, Message } from '../lib/llm/schema';
import { hasChinese } from '../lib/llm/schema';
import type { AppConfig, WebSearchState } from '../lib/config';
import { parseToolArgs } from './args';
import type { CodeSandbox } from './code-sandbox';

export interface ToolContext {
  signal?: AbortSignal;
  /** Files of the conversation (URLs or local paths); for file-aware tools, the staged absolute paths. */
  files: string[];
  workDir?: string;
  conversationId?: string;
  /** Which uploads the run may read (lib/chat passes its owner's); staging refuses the rest. */
  uploadAccess?: (hash: string) => Promise<boolean>;
  lang: Lang;
  messages: Message[];
  /** Filled by runTool for file-aware tools: each file that could not be staged, as "<file>: <reason>". */
  stagingErrors?: string[];
  /** Says what a stop of the run would do to the tool's state from now on, beyond ending the call (code_interpreter,
   *  once its code runs: the interpreter is restarted); undefined once that no longer holds. The model and the page
   *  are told it if the run is stopped during the call. */
  setStopNote?: (note: string | undefined) => void;
  /** Reports a step of the tool's work into the run's trace; the agent stamps it (run, iteration, clock, call id). */
  emit?: (event: ToolEvent) => void;
  /** What the tool takes from the configuration (where files are kept, the sandbox, web search…): the agent's
   *  (AgentOptions.toolSettings); unset, the environment's, read once (tools/settings.ts). */
  settings?: ToolSettings;
}

/** Connects the MCP servers an agent's functionList names ({mcpServers: …}) and gives their tools: an MCP manager
 *  (lib/mcp/manager.ts), which lives above this layer. */
export interface McpServers {
  toolsFor(entry: unknown): Promise<BaseTool[]>;
  /** Ends its servers (their child processes too). */
  closeAll(): Promise<void>;
}

/** What the tools (and the agents that search documents themselves) take from the configuration: made by a
 *  composition root (`toolSettings(config)`, tools/settings.ts). Here with the tool contract: a tool is given them,
 *  and they hold the MCP manager, which gives tools. */
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
  /** MCP servers an agent's functionList names ({mcpServers}) connect with these timeouts (MCP_*). */
  mcp: AppConfig['mcp'];
  /** The manager that connects them, shared by every agent given these settings: the root's (the app's root passes
   *  the one its settings page shows). Unset, the first agent that needs one makes it from `mcp` and keeps it here
   *  (lib/agent/function-list.ts): a plain Node script's defaultToolSettings() so get one for the process. Whoever
   *  made the settings closes it (`closeAll`) when done. */
  mcpServers?: McpServers;
  /** Stage local paths outside DATA_DIR/files too. Only a process whose messages come from its own user (the CLI)
   *  sets it: a message from the page naming a path must not read any file of the server. */
  allowLocalPaths: boolean;
}

/** What a tool may put into the trace: a retrieval step (the retrieval tool's search). */
export type ToolEvent = RetrievalStep;

export type ToolOutput =
  string | ContentItem[] | Record<string, unknown> | unknown[] | number | boolean | null | ToolOutputWithFiles;

/** A result plus files the page can offer (code_interpreter's outputs): the model gets `output`, the tool-result
 *  event also carries `files`. */
export class ToolOutputWithFiles {
  constructor(
    readonly output: Exclude<ToolOutput, ToolOutputWithFiles>,
    readonly files: ToolFile[],
  ) {}
}

/** What went wrong in work a tool ran to its end (code that raised): its type (ZeroDivisionError, Timeout…) and one
 *  line saying it. */
export interface ToolFailure {
  type: string;
  message: string;
  /** A shared code the page says the failure with (a time limit: `tool-timeout`), and what its sentence fills in. */
  code?: ErrorCode;
  values?: ErrorValues;
}

/** A result whose work failed, as the tool's own result says (code_interpreter's traceback or time limit): the model
 *  gets `output` unchanged, the tool-result event says the call failed (`ok: false`, kind `failed`). */
export class FailedToolOutput extends ToolOutputWithFiles {
  constructor(
    output: Exclude<ToolOutput, ToolOutputWithFiles>,
    readonly failure: ToolFailure,
    files: ToolFile[] = [],
  ) {
    super(output, files);
  }
}

/** Qwen-Agent's older way of declaring parameters: one entry per argument. */
export interface LegacyToolParameter {
  name: string;
  type?: string;
  description?: string;
  required?: boolean;
  [key: string]: unknown;
}

export type ToolParameters = Record<string, unknown> | LegacyToolParameter[];

const LEGACY_TYPES: Record<string, string> = {
  string: 'string',
  str: 'string',
  text: 'string',
  number: 'number',
  float: 'number',
  double: 'number',
  integer: 'integer',
  int: 'integer',
  boolean: 'boolean',
  bool: 'boolean',
  array: 'array',
  list: 'array',
  object: 'object',
  dict: 'object',
};

/** The JSON Schema equivalent of a legacy parameter list (types we do not recognise are left unconstrained). */
export function legacyParametersToSchema(params: readonly LegacyToolParameter[]): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const { name, type, required: isRequired, ...rest } of params) {
    const prop: Record<string, unknown> = { ...rest };
    const mapped = typeof type === 'string' ? LEGACY_TYPES[type.toLowerCase()] : undefined;
    if (mapped) prop.type = mapped;
    properties[name] = prop;
    if (isRequired) required.push(name);
  }
  return { type: 'object', properties, required };
}

export abstract class BaseTool {
  // Subclasses declare these as class fields. They are assigned after this constructor returns, so nothing in
  // the constructor may read them.
  abstract name: string;
  abstract description: string;
  abstract parameters: ToolParameters;
  readonly fileAccess: boolean = false;
  readonly cfg: Record<string, unknown>;

  constructor(cfg?: Record<string, unknown>) {
    this.cfg = cfg ?? {};
  }

  /**
   * What the tool finds out before the model first sees it, when its description depends on the host (which
   * Python code_interpreter runs). A run awaits it, with the agent's settings, before its first model call. It does
   * not throw: call() reports.
   */
  prepare?(settings: ToolSettings): Promise<void>;

  /** What the model sees of this tool. */
  get function(): FunctionDef {
    const parameters = Array.isArray(this.parameters) ? legacyParametersToSchema(this.parameters) : this.parameters;
    return { name: this.name, description: this.description, parameters };
  }

  get nameForHuman(): string {
    return typeof this.cfg.name_for_human === 'string' ? this.cfg.name_for_human : this.name;
  }

  /** The sentence templates put after the tool's parameters (the ✿ template uses it). */
  get argsFormat(): string {
    if (typeof this.cfg.args_format === 'string') return this.cfg.args_format;
    const metadata = [this.nameForHuman, this.name, this.description, JSON.stringify(this.parameters)].join(' ');
    return hasChinese(metadata) ? '请以 JSON 对象的形式给出参数。' : 'Give the arguments as a JSON object.';
  }

  /** The arguments as an object, parsed leniently (for use inside call()). */
  parseArgs<T = Record<string, unknown>>(params: string | Record<string, unknown>): T {
    return parseToolArgs(params) as T;
  }

  /** `params` is the model's raw argument string (already validated when called through runTool). */
  abstract call(params: string, ctx: ToolContext): Promise<ToolOutput>;
}
