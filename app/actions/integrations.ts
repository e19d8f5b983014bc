'use server';
// Server actions for the settings page's MCP servers and web tools. Wiring only: the work is in
// lib/server/integrations.ts.
import type { ActionFailure, ActionResult } from '@/lib/chat/page';
import type { WebSearchInput, WebSearchView } from '@/lib/server/web-search-settings';
import {
  integrationsStatus as statusOf,
  readMcpConfigText as readConfig,
  saveMcpConfigText as saveConfig,
  type ConfigFileResult,
  type IntegrationsStatus,
} from '@/lib/server/integrations';
import { appContext, type AppContext } from '@/lib/server/context';
import { failure } from './action-error';
import { headers } from 'next/headers';
import { guardAction } from './guard';

/** The servers' states as they are now; `wait` waits for connecting servers to settle first. */
export async function integrationsStatus(wait = false): Promise<IntegrationsStatus> {
  const me = await guardAction('integrationsStatus');
  return statusOf(await appContext(), me, wait);
}

/** The file as text: the admin's only (it may hold secrets). */
export async function readMcpConfigText(): Promise<ConfigFileResult> {
  const me = await guardAction('readMcpConfigText');
  return readConfig(await appContext(), me).catch(failure);
}

/** Validates and saves the file, then reconnects the servers. Nothing is written when the text is invalid, or when
 *  `password` (asked again when accounts are on) is not the admin's. */
export async function saveMcpConfigText(
  text: string,
  password?: string,
): Promise<{ ok: true; status: IntegrationsStatus } | ActionFailure> {
  const me = await guardAction('saveMcpConfigText');
  // A refusal (an invalid config) is answered by saveConfig; anything it throws is a fault, with an error id.
  return saveConfig(await appContext(), me, text, { headers: await headers(), value: password }).catch(failure);
}

/** Sets web search on the admin page: a provider with its URL and key (kept sealed on the server), off, or back to
 *  the environment's. A provider is kept once it answered a test search, or when saved anyway. The admin's only. */
export async function saveWebSearchSetting(input: WebSearchInput): Promise<ActionResult<WebSearchView>> {
  await guardAction('saveWebSearchSetting');
  return attempt((ctx) =>
    ctx.webSearch.save({
      provider: String(input?.provider) as WebSearchInput['provider'],
      url: typeof input?.url === 'string' ? input.url : undefined,
      apiKey: typeof input?.apiKey === 'string' ? input.apiKey : undefined,
      saveAnyway: input?.saveAnyway === true,
    }),
  );
}

async function attempt<T>(fn: (ctx: AppContext) => T | Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, value: await fn(await appContext()) };
  } catch (e) {
    return failure(e);
  }
}
