// Model servers already running on this machine: the loopback ports the usual ones listen on by default, each asked
// GET /v1/models with a short timeout. Only 127.0.0.1 is ever asked; what answers as an OpenAI-compatible server is
// offered on the page ("found on this machine").
import type { LocalServerKind } from '../protocol/enums';
import { listServerModels, withOllamaCapabilities, type ServerModel } from './server-models';

export { LOCAL_SERVER_KINDS, type LocalServerKind } from '../protocol/enums';

/** What each kind is called on the page. */
export const LOCAL_SERVER_NAMES: Record<LocalServerKind, string> = {
  ollama: 'Ollama',
  lmstudio: 'LM Studio',
  llamacpp: 'llama.cpp',
  vllm: 'vLLM',
  sglang: 'SGLang',
};

export interface ScanTarget {
  kind: LocalServerKind;
  port: number;
}

/** The servers' default ports (Ollama, LM Studio, llama.cpp's server, vLLM, SGLang). */
export const DEFAULT_SCAN_TARGETS: readonly ScanTarget[] = [
  { kind: 'ollama', port: 11434 },
  { kind: 'lmstudio', port: 1234 },
  { kind: 'llamacpp', port: 8080 },
  { kind: 'vllm', port: 8000 },
  { kind: 'sglang', port: 30000 },
];

export interface FoundServer extends ScanTarget {
  /** "Ollama (11434)". */
  name: string;
  baseURL: string;
  models: ServerModel[];
}

export function localServerName(target: ScanTarget): string {
  return `${LOCAL_SERVER_NAMES[target.kind]} (${target.port})`;
}

export function loopbackBaseUrl(port: number): string {
  return `http://127.0.0.1:${port}/v1`;
}

/** Asks every target at once; resolves with those that answered with a model list, in the targets' order. */
export async function scanLocalServers(
  targets: readonly ScanTarget[],
  opts: { timeoutMs?: number } = {},
): Promise<FoundServer[]> {
  const timeoutMs = opts.timeoutMs ?? 400;
  const answers = await Promise.all(
    targets.map(async (target): Promise<FoundServer | undefined> => {
      const baseURL = loopbackBaseUrl(target.port);
      const listed = await listServerModels(baseURL, { timeoutMs });
      if (!listed.ok) return undefined;
      const models =
        target.kind === 'ollama' ? await withOllamaCapabilities(baseURL, listed.models, { timeoutMs }) : listed.models;
      return { ...target, name: localServerName(target), baseURL, models };
    }),
  );
  return answers.filter((a): a is FoundServer => Boolean(a));
}
