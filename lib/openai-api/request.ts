// What a caller of POST /v1/chat/completions may send, checked at the door (OpenAI's Chat Completions request: each
// parameter is honoured, passed to the model, accepted without effect, or refused with a 400 naming it; a field
// OpenAI does not define is ignored, as OpenAI-compatible servers do), and what it becomes: the messages in
// Qwen-Agent's form, the caller's own tools, the generation settings, the run's tool choice. docs/qwen-agent.md has
// the table.
import type { Agent, GenerateCfg, ToolChoice } from '../agent';
import { fromWireMessages, type IncomingWireMessage, type UnansweredToolMessageError } from '../llm/oai-wire';
import type { FunctionDef, Message } from '../llm/schema';
import type { AgentKind } from '../protocol/enums';
import { isErrorNamed } from '../protocol/errors';
import { z } from '../protocol/zod';
import { issueCode, paramOf, whatToSend } from './request-words';

const text = z.object({ type: z.literal('text'), text: z.string() });
const image = z.object({ type: z.literal('image_url'), image_url: z.object({ url: z.string() }) });
const content = z
  .union([z.string(), z.array(z.discriminatedUnion('type', [text, image])), z.null()], {
    error:
      'content is a string, or an array of text and image_url parts (input_audio, file and refusal parts are not accepted).',
  })
  .optional();
const toolCall = z.object({
  id: z.string(),
  type: z.literal('function').default('function'),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

const MessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.enum(['system', 'developer']), content, name: z.string().optional() }),
  z.object({ role: z.literal('user'), content, name: z.string().optional() }),
  z.object({
    role: z.literal('assistant'),
    content,
    reasoning_content: z.string().nullable().optional(),
    name: z.string().optional(),
    tool_calls: z.array(toolCall).nullable().optional(),
  }),
  z.object({ role: z.literal('tool'), content, tool_call_id: z.string() }),
]);

const ToolSchema = z.object({
  type: z.literal('function', { error: 'function tools only (custom tools are not accepted).' }),
  function: z.object({
    name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a tool name is 1-64 letters, digits, _ or -'),
    description: z.string().default(''),
    parameters: z.record(z.string(), z.unknown()).default({ type: 'object', properties: {} }),
  }),
});

const finite = z.number().refine(Number.isFinite, 'must be a finite number');
/** A number in OpenAI's range for the parameter (OpenAI refuses one outside it; so does this API, before any call). */
const between = (min: number, max: number) =>
  finite.min(min, `must be between ${min} and ${max}`).max(max, `must be between ${min} and ${max}`);

/** The parameters that take whole numbers (OpenAI's codes for their bounds say integer, not decimal). */
const WHOLE_NUMBERS = new Set(['max_tokens', 'max_completion_tokens', 'n', 'seed', 'top_logprobs']);

/** A count of something (tokens, answers): a whole number above 0. */
const count = z.number().int().positive('must be a whole number above 0.');

/** OpenAI's stop: up to 4 sequences (zod's union alone would say only "Invalid input"). */
const STOP = 'a string or a list of at most 4 strings.';

const ToolChoiceSchema = z.union(
  [
    z.enum(['none', 'auto', 'required']),
    z.object({ type: z.literal('function'), function: z.object({ name: z.string().min(1) }) }),
  ],
  {
    error:
      'send "none", "auto", "required" or {"type": "function", "function": {"name": ...}} (allowed_tools and custom tool choices are not accepted).',
  },
);

const ResponseFormatSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }),
  z.object({ type: z.literal('json_object') }),
  z.object({
    type: z.literal('json_schema'),
    json_schema: z.object({
      name: z.string().min(1),
      description: z.string().optional(),
      schema: z.record(z.string(), z.unknown()).optional(),
      strict: z.boolean().nullable().optional(),
    }),
  }),
]);

export const CompletionRequestSchema = z.object({
  model: z.string({ error: 'must name one of GET /v1/models (an agent id or name).' }).min(1),
  messages: z.array(MessageSchema).min(1, 'must hold at least one message.'),
  stream: z.boolean().nullable().optional(),
  stream_options: z.object({ include_usage: z.boolean().optional() }).nullable().optional(),
  tools: z.array(ToolSchema).optional(),
  temperature: between(0, 2).nullable().optional(),
  top_p: between(0, 1).nullable().optional(),
  max_tokens: count.nullable().optional(),
  max_completion_tokens: count.nullable().optional(),
  presence_penalty: between(-2, 2).nullable().optional(),
  frequency_penalty: between(-2, 2).nullable().optional(),
  seed: z.number().int().nullable().optional(),
  tool_choice: ToolChoiceSchema.optional(),
  parallel_tool_calls: z.boolean().optional(),
  response_format: ResponseFormatSchema.optional(),
  stop: z
    .union([z.string(), z.array(z.string()).max(4, STOP)], { error: STOP })
    .nullable()
    .optional(),
  n: count.nullable().optional(),
  logprobs: z.boolean().nullable().optional(),
  top_logprobs: z.number().int().min(0).max(20).nullable().optional(),
  // Passed to the model as given.
  logit_bias: z.record(z.string(), between(-100, 100)).nullable().optional(),
  reasoning_effort: z.string().nullable().optional(),
  verbosity: z.string().nullable().optional(),
  // Accepted without effect: OpenAI's account features (stored completions, tiers, prompt caching, end-user ids) and
  // a latency hint that does not change the answer.
  user: z.string().optional(),
  safety_identifier: z.string().nullable().optional(),
  prompt_cache_key: z.string().nullable().optional(),
  prompt_cache_retention: z.string().nullable().optional(),
  prompt_cache_options: z.unknown().optional(),
  metadata: z.record(z.string(), z.string()).nullable().optional(),
  store: z.boolean().nullable().optional(),
  service_tier: z.string().nullable().optional(),
  prediction: z.unknown().optional(),
  modalities: z.array(z.string()).nullable().optional(),
  // Refused (see REFUSED below).
  audio: z.unknown().optional(),
  web_search_options: z.unknown().optional(),
  moderation: z.unknown().optional(),
  functions: z.unknown().optional(),
  function_call: z.unknown().optional(),
});
export type CompletionRequest = z.infer<typeof CompletionRequestSchema>;

/** A request OpenAI's way would refuse: the message says which field and why (answered as a 400). */
export class InvalidRequestError extends Error {
  override name = 'InvalidRequestError';
  readonly status = 400;
  constructor(
    message: string,
    readonly param?: string,
    /** OpenAI's code for it (invalid_type, unsupported_value…); none where OpenAI gives none. */
    readonly code?: string,
  ) {
    super(message);
  }
}

export interface ParsedCompletion {
  request: CompletionRequest;
  messages: Message[];
  clientTools: FunctionDef[];
  /** Numbers, kept in the stored conversation's settings (the page shows them). */
  generateCfg: Record<string, number>;
  /** For this run only: the other parameters the model is sent or the client honours. */
  runCfg: GenerateCfg;
  toolChoice?: ToolChoice;
}

/** OpenAI's codes for a refusal of what its API has and this server does not: the value (n above 1), or the parameter
 *  whatever its value (audio). */
type Unsupported = 'unsupported_value' | 'unsupported_parameter';

/** Parameters no agent run can honour, and why (answered 400 naming the parameter when set). */
const REFUSED: Record<string, { code: Unsupported; why: (v: unknown) => string | undefined }> = {
  n: {
    code: 'unsupported_value',
    why: (v) =>
      typeof v === 'number' && v > 1 ? 'an agent run gives one answer: n must be 1 (send n requests).' : undefined,
  },
  logprobs: {
    code: 'unsupported_value',
    why: (v) =>
      v === true
        ? "an agent's answer comes from several model calls and tool results: token log probabilities are not returned."
        : undefined,
  },
  top_logprobs: {
    code: 'unsupported_value',
    why: (v) => (typeof v === 'number' && v > 0 ? 'token log probabilities are not returned.' : undefined),
  },
  modalities: {
    code: 'unsupported_value',
    why: (v) =>
      Array.isArray(v) && v.some((m) => m !== 'text')
        ? 'agents answer in text only: modalities must be ["text"].'
        : undefined,
  },
  audio: {
    code: 'unsupported_parameter',
    why: (v) => (v !== undefined && v !== null ? 'agents answer in text only (no audio output).' : undefined),
  },
  web_search_options: {
    code: 'unsupported_parameter',
    why: (v) =>
      v !== undefined && v !== null
        ? "web search is an agent's tool here (web_search): give it to the agent."
        : undefined,
  },
  moderation: {
    code: 'unsupported_parameter',
    why: (v) =>
      v !== undefined && v !== null
        ? 'moderated completions are not offered here: moderate the input and the answer with a moderation model of your own.'
        : undefined,
  },
  functions: {
    code: 'unsupported_parameter',
    why: (v) =>
      v !== undefined && v !== null ? 'the deprecated functions parameter is not supported: send tools.' : undefined,
  },
  function_call: {
    code: 'unsupported_parameter',
    why: (v) =>
      v !== undefined && v !== null
        ? 'the deprecated function_call parameter is not supported: send tool_choice.'
        : undefined,
  },
};

/** Passed to the model as given (besides the numbers above). */
const PASSED = ['logit_bias', 'reasoning_effort', 'verbosity'] as const;

/** What OpenAI's API takes and no agent here does, though the request's shape refuses it as any wrong value: a
 *  deprecated function message, audio, file and refusal parts, custom tools and tool choices. OpenAI's code for it
 *  is unsupported_value, not invalid_value (the message already says what is accepted). */
function openAiOnly(issue: z.core.$ZodIssue): boolean {
  const input = issue.input as unknown;
  const type = (v: unknown) => (v && typeof v === 'object' ? (v as { type?: unknown }).type : undefined);
  const [first] = issue.path;
  const last = issue.path.at(-1);
  if (first === 'messages' && last === 'role')
    return input === 'function' || (input as { role?: unknown } | undefined)?.role === 'function';
  if (first === 'messages' && last === 'content')
    return Array.isArray(input) && input.some((p) => ['input_audio', 'file', 'refusal'].includes(String(type(p))));
  if (first === 'tools' && last === 'type') return input === 'custom';
  if (first === 'tool_choice' && issue.path.length === 1)
    return ['allowed_tools', 'custom'].includes(String(type(input)));
  return false;
}

export function parseCompletionRequest(body: unknown): ParsedCompletion {
  const parsed = CompletionRequestSchema.safeParse(body, { error: whatToSend, reportInput: true });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const param = paramOf(issue.path) || undefined;
    const code = openAiOnly(issue) ? 'unsupported_value' : issueCode(issue, WHOLE_NUMBERS.has(String(issue.path[0])));
    throw new InvalidRequestError(
      param ? `${param}: ${issue.message}` : `The request body ${issue.message}`,
      param,
      code,
    );
  }
  const request = parsed.data;
  // OpenAI refuses stream_options on a request that does not stream.
  if (request.stream_options && request.stream !== true)
    throw new InvalidRequestError(
      'stream_options: only allowed with "stream": true (it sets what a stream sends).',
      'stream_options',
    );
  let messages: Message[];
  try {
    messages = fromWireMessages(request.messages as IncomingWireMessage[]);
  } catch (e) {
    if (isErrorNamed<UnansweredToolMessageError>(e, 'UnansweredToolMessageError'))
      throw new InvalidRequestError(e.message, `messages[${e.index}].tool_call_id`, 'invalid_value');
    throw new InvalidRequestError((e as Error).message, 'messages');
  }
  // OpenAI's API takes a conversation without one; an agent's run answers the user's last message.
  if (!messages.some((m) => m.role === 'user'))
    throw new InvalidRequestError('messages: must hold a user message.', 'messages', 'unsupported_value');
  const generateCfg: Record<string, number> = {};
  for (const key of ['temperature', 'top_p', 'presence_penalty', 'frequency_penalty', 'seed'] as const) {
    const v = request[key];
    if (typeof v === 'number') generateCfg[key] = v;
  }
  const maxTokens = request.max_completion_tokens ?? request.max_tokens;
  if (typeof maxTokens === 'number') generateCfg.max_tokens = maxTokens;
  for (const [param, { code, why }] of Object.entries(REFUSED)) {
    const reason = why((request as Record<string, unknown>)[param]);
    if (reason) throw new InvalidRequestError(`${param}: ${reason}`, param, code);
  }
  const clientTools = (request.tools ?? []).map((t) => ({
    name: t.function.name,
    description: t.function.description,
    parameters: t.function.parameters,
  }));
  const runCfg: GenerateCfg = {};
  for (const key of PASSED) if (request[key] !== undefined && request[key] !== null) runCfg[key] = request[key];
  if (request.stop !== undefined && request.stop !== null)
    runCfg.stop = typeof request.stop === 'string' ? [request.stop] : request.stop;
  if (request.parallel_tool_calls !== undefined) runCfg.parallel_function_calls = request.parallel_tool_calls;
  if (request.response_format && request.response_format.type !== 'text')
    runCfg.response_format = request.response_format;
  const choice = request.tool_choice;
  const toolChoice: ToolChoice | undefined =
    choice === undefined || choice === 'auto'
      ? undefined
      : typeof choice === 'string'
        ? choice
        : { name: choice.function.name };
  return { request, messages, clientTools, generateCfg, runCfg, ...(toolChoice ? { toolChoice } : {}) };
}

/**
 * Refuses (InvalidRequestError, a 400 naming the parameter) what this agent's loop cannot honour: tool_choice and
 * the caller's tools need a loop that calls tools by function calling (FnCallAgent, the Assistant and its
 * VirtualMemoryAgent and MemoAssistant); any tool_choice needs a tool offered (the agent's or the request's); 'required'
 * needs the tools API; a named tool must be one the run offers; a JSON response_format needs the tools API or no tools
 * offered (a prompt format writes its calls as text, which JSON output would forbid).
 */
export function checkForAgent(parsed: ParsedCompletion, agent: Agent): void {
  const kind = (agent.constructor as { kind?: AgentKind }).kind ?? 'agent';
  const loops = kind === 'fncall' || kind === 'assistant' || kind === 'virtualmemory' || kind === 'memo';
  const name = agentName(kind);
  const { toolChoice, clientTools, runCfg } = parsed;
  const offered = [...agent.functions.map((f) => f.name), ...clientTools.map((f) => f.name)];
  // OpenAI refuses any tool_choice ("none" and "auto" too) in a request without tools, in these words and with no
  // code. Here the agent's own tools count as tools: a choice among them is kept (docs/api.md).
  if (parsed.request.tool_choice !== undefined && offered.length === 0)
    throw new InvalidRequestError(
      `Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified. This agent has no tools of its own: send tools, or leave tool_choice out.`,
      'tool_choice',
    );
  if (clientTools.length && !loops && kind !== 'router')
    throw new InvalidRequestError(
      `tools: ${name} cannot hand calls of your tools back to you; send no tools.`,
      'tools',
      'unsupported_parameter',
    );
  if (toolChoice && !loops)
    throw new InvalidRequestError(
      `tool_choice: ${name} does not offer tools by function calling.`,
      'tool_choice',
      'unsupported_parameter',
    );
  const mode = agent.llm.fncallMode;
  if (toolChoice === 'required' && mode !== 'native')
    throw new InvalidRequestError(
      `tool_choice: "required" needs a model called through the tools API; this agent's model writes calls as text (${mode}).`,
      'tool_choice',
      'unsupported_value',
    );
  if (typeof toolChoice === 'object' && !offered.includes(toolChoice.name))
    throw new InvalidRequestError(
      `tool_choice: "${toolChoice.name}" is not one of the tools (${offered.join(', ') || 'none'}).`,
      'tool_choice',
      'invalid_value',
    );
  const format = runCfg.response_format as { type: string } | undefined;
  if (format) {
    const noTools = toolChoice === 'none' || offered.length === 0;
    if (!loops)
      throw new InvalidRequestError(
        `response_format: ${name} writes its steps as text, which ${format.type} output would forbid.`,
        'response_format',
        'unsupported_value',
      );
    if (mode !== 'native' && !noTools)
      throw new InvalidRequestError(
        `response_format: this agent's model writes tool calls as text (${mode}), which ${format.type} output would forbid; send tool_choice "none" or no tools.`,
        'response_format',
        'unsupported_value',
      );
  }
}

function agentName(kind: AgentKind): string {
  return {
    agent: 'this agent',
    fncall: 'FnCallAgent',
    assistant: 'the Assistant',
    react: 'ReActChat',
    router: 'a Router',
    groupchat: 'a GroupChat',
    virtualmemory: 'VirtualMemoryAgent',
    memo: 'MemoAssistant',
    tir: 'TIRMathAgent',
    article: 'ArticleAgent',
    basicdocqa: 'BasicDocQA',
    paralleldocqa: 'ParallelDocQA',
  }[kind];
}
