// What a caller of POST /v1/chat/completions may send, checked at the door (OpenAI's Chat Completions request: the
// fields an agent can honour; any other field is ignored, as OpenAI-compatible servers do), and what it becomes: the
// messages in Qwen-Agent's form, the caller's own tools, the generation settings.
import { fromWireMessages, type IncomingWireMessage } from '../llm/oai-wire';
import type { FunctionDef, Message } from '../llm/schema';
import { z } from '../protocol/zod';

const text = z.object({ type: z.literal('text'), text: z.string() });
const image = z.object({ type: z.literal('image_url'), image_url: z.object({ url: z.string() }) });
const content = z.union([z.string(), z.array(z.discriminatedUnion('type', [text, image])), z.null()]).optional();
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
  type: z.literal('function'),
  function: z.object({
    name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a tool name is 1-64 letters, digits, _ or -'),
    description: z.string().default(''),
    parameters: z.record(z.string(), z.unknown()).default({ type: 'object', properties: {} }),
  }),
});

const finite = z.number().refine(Number.isFinite, 'must be a finite number');

export const CompletionRequestSchema = z.object({
  model: z.string({ error: '"model" must name one of GET /v1/models (an agent id or name).' }).min(1),
  messages: z.array(MessageSchema).min(1, '"messages" must hold at least one message.'),
  stream: z.boolean().optional(),
  stream_options: z.object({ include_usage: z.boolean().optional() }).nullable().optional(),
  tools: z.array(ToolSchema).optional(),
  temperature: finite.nullable().optional(),
  top_p: finite.nullable().optional(),
  max_tokens: z.number().int().positive().nullable().optional(),
  max_completion_tokens: z.number().int().positive().nullable().optional(),
  presence_penalty: finite.nullable().optional(),
  frequency_penalty: finite.nullable().optional(),
  seed: z.number().int().nullable().optional(),
});
export type CompletionRequest = z.infer<typeof CompletionRequestSchema>;

/** A request OpenAI's way would refuse: the message says which field and why (answered as a 400). */
export class InvalidRequestError extends Error {
  override name = 'InvalidRequestError';
  constructor(
    message: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

export interface ParsedCompletion {
  request: CompletionRequest;
  messages: Message[];
  clientTools: FunctionDef[];
  generateCfg: Record<string, number>;
}

export function parseCompletionRequest(body: unknown): ParsedCompletion {
  const parsed = CompletionRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const param = issue.path.join('.') || undefined;
    throw new InvalidRequestError(param ? `${param}: ${issue.message}` : issue.message, param);
  }
  const request = parsed.data;
  let messages: Message[];
  try {
    messages = fromWireMessages(request.messages as IncomingWireMessage[]);
  } catch (e) {
    throw new InvalidRequestError((e as Error).message, 'messages');
  }
  if (!messages.some((m) => m.role === 'user'))
    throw new InvalidRequestError('"messages" must hold a user message.', 'messages');
  const generateCfg: Record<string, number> = {};
  for (const key of ['temperature', 'top_p', 'presence_penalty', 'frequency_penalty', 'seed'] as const) {
    const v = request[key];
    if (typeof v === 'number') generateCfg[key] = v;
  }
  const maxTokens = request.max_completion_tokens ?? request.max_tokens;
  if (typeof maxTokens === 'number') generateCfg.max_tokens = maxTokens;
  const clientTools = (request.tools ?? []).map((t) => ({
    name: t.function.name,
    description: t.function.description,
    parameters: t.function.parameters,
  }));
  return { request, messages, clientTools, generateCfg };
}
