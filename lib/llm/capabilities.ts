// What a model can do: call tools natively (the tools API), see images, reason before it answers. Each is known from
// the most trustworthy source there is: the user's setting on the connection, then what the server said (its model
// list, or a 400 to a `tools` request, remembered), then the model's name.

/** One capability, and where it was learnt. */
export interface Capability {
  value: boolean;
  source: CapabilitySource;
}

/** user: set on the connection; server: the server's model list says; learned: the server refused it once (a 400
 *  to a tools request); name: guessed from the model's name; default: nothing said either way. */
export type CapabilitySource = 'user' | 'server' | 'learned' | 'name' | 'default';

export interface ModelCapabilities {
  /** Tool calls through the tools API; else they go in the text (the nous format). */
  tools: Capability;
  /** Images may be sent (as image_url parts). */
  vision: Capability;
  /** The model thinks before it answers (reasoning_content or <think>). */
  reasoning: Capability;
}

export const CAPABILITY_NAMES = ['tools', 'vision', 'reasoning'] as const;
export type CapabilityName = (typeof CAPABILITY_NAMES)[number];

/** What one source says: true, false, or nothing (absent). `imageGeneration` is the user's word only (set on a
 *  connection for one of its models): that model makes images at the connection's /images/generations (image_gen). */
export type CapabilityHints = Partial<Record<CapabilityName, boolean>> & { imageGeneration?: boolean };

/** The model a connection's settings mark as making images (its first, by the order they were set), if any. */
export function imageModelOf(capabilities: Record<string, CapabilityHints>): string | undefined {
  return Object.entries(capabilities).find(([model, hints]) => model !== '*' && hints.imageGeneration === true)?.[0];
}

/** The name rule for vision: `*-vl-*`, `*vision*`, `gpt-4o*`, `qwen-vl-*` (case-insensitive; a trailing `-vl`, or
 *  `-vl` before an Ollama tag, counts as `-vl-`). */
export function nameSuggestsVision(model: string): boolean {
  const name = baseName(model);
  return /-vl(-|:|$)/.test(name) || name.includes('vision') || name.startsWith('gpt-4o') || name.startsWith('qwen-vl-');
}

/** Models known for thinking before they answer: QwQ, Qwen3 (its hybrid thinking), DeepSeek-R1, OpenAI's o-series,
 *  anything named "thinking" or "reasoner". */
export function nameSuggestsReasoning(model: string): boolean {
  const name = baseName(model);
  return (
    /(^|[-_/])(qwq|qwen3|deepseek-r1|r1-distill)/.test(name) ||
    /^o[134](-|$)/.test(name) ||
    /thinking|reasoner|reasoning/.test(name)
  );
}

/** Qwen-family models (Qwen, QwQ): trained on the nous tool-call format, which Qwen-Agent uses for them. */
export function isQwenFamily(model: string): boolean {
  return /(^|[-_/:])(qwen|qwq)/.test(model.toLowerCase());
}

/** The model's name without an organisation prefix ("Qwen/Qwen2.5-VL-7B" → "qwen2.5-vl-7b"), lower-cased. */
function baseName(model: string): string {
  return (model.split('/').pop() ?? model).toLowerCase();
}

/**
 * The capabilities of `model`: the user's setting wins, then what the server said, then what it taught us (a refused
 * tools request), then the name. Tool calls are assumed native until something says otherwise (the common case, and
 * a refusal is learnt on the first call).
 */
export function resolveCapabilities(
  model: string,
  sources: { user?: CapabilityHints; server?: CapabilityHints; learned?: CapabilityHints } = {},
): ModelCapabilities {
  const pick = (name: CapabilityName, byName: boolean | undefined, fallback: boolean): Capability => {
    const user = sources.user?.[name];
    if (user !== undefined) return { value: user, source: 'user' };
    const server = sources.server?.[name];
    if (server !== undefined) return { value: server, source: 'server' };
    const learned = sources.learned?.[name];
    if (learned !== undefined) return { value: learned, source: 'learned' };
    if (byName !== undefined) return { value: byName, source: 'name' };
    return { value: fallback, source: 'default' };
  };
  return {
    tools: pick('tools', undefined, true),
    vision: pick('vision', nameSuggestsVision(model) || undefined, false),
    reasoning: pick('reasoning', nameSuggestsReasoning(model) || undefined, false),
  };
}

/** Can images be sent to this model? The name rule unless the connection (or the server) says otherwise. */
export function canSee(model: string | { name: string; capabilities?: ModelCapabilities }): boolean {
  if (typeof model === 'string') return resolveCapabilities(model).vision.value;
  return (model.capabilities ?? resolveCapabilities(model.name)).vision.value;
}

/**
 * What a server's model list says of one model, in the shapes servers use: a `capabilities` list (Ollama's
 * /api/show: "tools", "vision", "thinking"; LM Studio: "tool_use") or object ({vision: true, function_calling: true}),
 * OpenRouter's `architecture.input_modalities` and `supported_parameters`, LM Studio's `type: "vlm"`.
 */
export function hintsFromModelEntry(entry: unknown): CapabilityHints {
  if (!entry || typeof entry !== 'object') return {};
  const e = entry as Record<string, unknown>;
  const hints: CapabilityHints = {};
  const caps = e.capabilities;
  if (Array.isArray(caps)) {
    const names = caps.filter((c): c is string => typeof c === 'string').map((c) => c.toLowerCase());
    if (names.length) {
      hints.tools = names.some((c) => c === 'tools' || c === 'tool_use' || c === 'function_calling');
      hints.vision = names.some((c) => c === 'vision' || c === 'image' || c === 'images');
      if (names.some((c) => c === 'thinking' || c === 'reasoning')) hints.reasoning = true;
    }
  } else if (caps && typeof caps === 'object') {
    const c = caps as Record<string, unknown>;
    const flag = (...keys: string[]) => keys.map((k) => c[k]).find((v): v is boolean => typeof v === 'boolean');
    const tools = flag('tools', 'tool_calls', 'function_calling', 'tool_use');
    const vision = flag('vision', 'images');
    const reasoning = flag('reasoning', 'thinking');
    if (tools !== undefined) hints.tools = tools;
    if (vision !== undefined) hints.vision = vision;
    if (reasoning !== undefined) hints.reasoning = reasoning;
  }
  const architecture = e.architecture as { input_modalities?: unknown } | undefined;
  if (Array.isArray(architecture?.input_modalities)) hints.vision = architecture.input_modalities.includes('image');
  if (Array.isArray(e.supported_parameters)) {
    const params = e.supported_parameters as unknown[];
    hints.tools = params.includes('tools');
    if (params.includes('reasoning') || params.includes('include_reasoning')) hints.reasoning = true;
  }
  if (e.type === 'vlm') hints.vision = true;
  return hints;
}
