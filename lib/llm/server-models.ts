// Asks an OpenAI-compatible server which models it serves (GET <base URL>/models), and says plainly what failed:
// nothing answers (unreachable), the key was refused (401/403), something answered but not as an OpenAI-compatible
// server, the address policy refused the address, or it took too long. Used by "Test connection", the model picker
// and the loopback scan. A failure is told in our own words only: nothing of what the server answered is repeated
// (a user could otherwise read a page of the server's network through a connection's error).
import { blockedAddressIn } from '../net/address-policy';
import { blockedPortMessage } from '../net/blocked-port';
import { limitBody, megabytes, responseTooLargeIn } from '../net/bounded-body';
import { networkReason } from '../net/network-reason';
import type { FetchLike } from '../net/guarded-fetch';
import { hintsFromModelEntry, type CapabilityHints } from './capabilities';

export interface ServerModel {
  id: string;
  /** What the server's list says the model can do (absent: it says nothing). */
  hints: CapabilityHints;
  /** owned_by, as the server gives it (Ollama says "library"). */
  ownedBy?: string;
  /** Tokens of context, when the list says (see contextLengthOf). */
  contextLength?: number;
}

/** The context length a model list entry names: `context_length` (OpenRouter, LM Studio), `max_model_len` (vLLM),
 *  `context_window`, or llama.cpp's `meta.n_ctx_train`. */
export function contextLengthOf(entry: unknown): number | undefined {
  if (!entry || typeof entry !== 'object') return undefined;
  const e = entry as Record<string, unknown>;
  const meta = e.meta as Record<string, unknown> | undefined;
  for (const v of [e.context_length, e.max_model_len, e.context_window, meta?.n_ctx_train])
    if (typeof v === 'number' && Number.isInteger(v) && v > 0) return v;
  return undefined;
}

/** Most a model list (GET /models) may be: OpenRouter's, hundreds of models with their descriptions, is ~1 MB. */
export const MODEL_LIST_MAX_BYTES = 16 * 1024 * 1024;
/** Most one of Ollama's /api/show answers (a model's template, parameters and licence) may be. */
const MODEL_INFO_MAX_BYTES = 4 * 1024 * 1024;

export type ServerModelsProblem =
  'bad-url' | 'unreachable' | 'unauthorized' | 'not-openai' | 'timeout' | 'http' | 'blocked';

export type ServerModelsResult =
  { ok: true; models: ServerModel[] } | { ok: false; problem: ServerModelsProblem; message: string; status?: number };

export interface ServerModelsOptions {
  apiKey?: string;
  /** Default 8 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The fetch to ask with: the connection's address policy (lib/net/guarded-fetch.ts); default the global one. */
  fetch?: FetchLike;
}

/** The base URL as given, checked: http(s), no credentials in it, no trailing slash. */
export function normalizeBaseUrl(raw: string): { ok: true; url: string } | { ok: false; message: string } {
  const text = raw.trim();
  // "localhost:8000/v1" parses as a URL of scheme "localhost:": what was meant is said back.
  const schemeless = /^[\w.-]+:\d+(\/|$)/.test(text) || /^[\w-]+(\.[\w-]+)+(\/|$)/.test(text);
  if (schemeless) {
    const scheme = /^(localhost|[\d.]+)(:|\/|$)/.test(text) ? 'http' : 'https';
    return { ok: false, message: `A base URL starts with http:// or https://: did you mean ${scheme}://${text}?` };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: `"${text}" is not a URL. A base URL looks like http://localhost:11434/v1.` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, message: `A base URL starts with http:// or https:// (got ${url.protocol}).` };
  if (url.username || url.password) return { ok: false, message: 'Put the key in the API key field, not in the URL.' };
  url.hash = '';
  return { ok: true, url: url.toString().replace(/\/+$/, '') };
}

function hostOf(baseURL: string): string {
  try {
    return new URL(baseURL).host;
  } catch {
    return baseURL;
  }
}

/** GET <baseURL>/models. Never throws: every failure comes back as a problem with a message a user can act on. */
export async function listServerModels(baseURL: string, opts: ServerModelsOptions = {}): Promise<ServerModelsResult> {
  const base = normalizeBaseUrl(baseURL);
  if (!base.ok) return { ok: false, problem: 'bad-url', message: base.message };
  const host = hostOf(base.url);
  const timeoutMs = opts.timeoutMs ?? 8000;
  const timer = AbortSignal.timeout(timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timer]) : timer;
  const seconds = timeoutMs >= 1000 ? `${Math.round(timeoutMs / 100) / 10} s` : `${timeoutMs} ms`;
  const fetch = opts.fetch ?? globalThis.fetch;
  const modelsPath = `${new URL(base.url).pathname.replace(/\/+$/, '')}/models`;
  const endsInV1 = /\/v1$/.test(new URL(base.url).pathname);
  const v1Hint = endsInV1 ? '' : ` OpenAI-compatible base URLs usually end in /v1: try ${base.url}/v1.`;
  let response: Response;
  let text: string;
  try {
    response = await fetch(`${base.url}/models`, {
      headers: { accept: 'application/json', ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}) },
      signal,
      redirect: 'follow',
    });
    text = await limitBody(response, MODEL_LIST_MAX_BYTES).text();
  } catch (e) {
    if (timer.aborted) return { ok: false, problem: 'timeout', message: `${host} did not answer within ${seconds}.` };
    if (responseTooLargeIn(e))
      return {
        ok: false,
        problem: 'not-openai',
        message: `${host} answered GET ${modelsPath} with more than ${megabytes(MODEL_LIST_MAX_BYTES)}: that is no list of models.`,
      };
    if (opts.signal?.aborted) throw e;
    const blocked = blockedAddressIn(e);
    if (blocked) return { ok: false, problem: 'blocked', message: blocked.message };
    const badPort = blockedPortMessage(e, base.url);
    if (badPort) return { ok: false, problem: 'unreachable', message: badPort };
    return {
      ok: false,
      problem: 'unreachable',
      message: `Nothing answers at ${host} (${networkReason(e)}). Is the server running, and is the address right?`,
    };
  }
  const status = response.status;
  if (status === 401 || status === 403)
    return {
      ok: false,
      problem: 'unauthorized',
      status,
      message: `${host} refused the API key (HTTP ${status}): check the key${opts.apiKey ? '' : ', this server needs one'}.`,
    };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const data = (body as { data?: unknown } | undefined)?.data;
  if (status === 404 || (response.ok && !Array.isArray(data)))
    return {
      ok: false,
      problem: 'not-openai',
      status,
      message: `${host} answered, but it is not an OpenAI-compatible server: GET ${modelsPath} ${
        response.ok ? 'gave no list of models' : `answered HTTP ${status}`
      }.${v1Hint}`,
    };
  if (!response.ok)
    return { ok: false, problem: 'http', status, message: `${host} answered HTTP ${status} to GET ${modelsPath}.` };
  const models: ServerModel[] = [];
  const seen = new Set<string>();
  for (const entry of data as unknown[]) {
    const id = (entry as { id?: unknown } | null)?.id;
    if (typeof id !== 'string' || !id || seen.has(id)) continue;
    seen.add(id);
    const ownedBy = (entry as { owned_by?: unknown }).owned_by;
    const contextLength = contextLengthOf(entry);
    models.push({
      id,
      hints: hintsFromModelEntry(entry),
      ...(typeof ownedBy === 'string' ? { ownedBy } : {}),
      ...(contextLength ? { contextLength } : {}),
    });
  }
  return { ok: true, models };
}

/**
 * Ollama's /v1/models says nothing of what a model can do; its own POST /api/show does ("capabilities": ["completion",
 * "tools", "vision", "thinking"]). Asked for models listed as Ollama's (owned_by "library"), a few at a time; a model
 * it cannot tell about keeps what it had.
 */
export async function withOllamaCapabilities(
  baseURL: string,
  models: ServerModel[],
  opts: { timeoutMs?: number; max?: number; fetch?: FetchLike } = {},
): Promise<ServerModel[]> {
  const fetch = opts.fetch ?? globalThis.fetch;
  const origin = new URL(baseURL).origin;
  const asked = models.filter((m) => m.ownedBy === 'library').slice(0, opts.max ?? 50);
  if (!asked.length) return models;
  const found = new Map<string, CapabilityHints>();
  await Promise.all(
    asked.map(async (m) => {
      try {
        const res = await fetch(`${origin}/api/show`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: m.id }),
          signal: AbortSignal.timeout(opts.timeoutMs ?? 3000),
        });
        if (!res.ok) return;
        const hints = hintsFromModelEntry(await limitBody(res, MODEL_INFO_MAX_BYTES).json());
        if (Object.keys(hints).length) found.set(m.id, hints);
      } catch {
        // not Ollama after all, or too slow: the model keeps what /v1/models said
      }
    }),
  );
  return models.map((m) => (found.has(m.id) ? { ...m, hints: { ...m.hints, ...found.get(m.id) } } : m));
}
