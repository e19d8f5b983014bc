'use server';
// Server actions for the settings page's MCP servers and web tools. Wiring only: the work is in
// lib/server/integrations.ts.
import type { ActionFailure } from '@/lib/chat/page';
import {
  integrationsStatus as statusOf,
  readMcpConfigText as readConfig,
  saveMcpConfigText as saveConfig,
  type ConfigFileResult,
  type IntegrationsStatus,
} from '@/lib/server/integrations';
import { appContext } from '@/lib/server/context';
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
  return readConfig(await appContext(), me);
}

/** Validates and saves the file, then reconnects the servers. Nothing is written when the text is invalid, or when
 *  `password` (asked again when accounts are on) is not the admin's. */
export async function saveMcpConfigText(
  text: string,
  password?: string,
): Promise<{ ok: true; status: IntegrationsStatus } | ActionFailure> {
  const me = await guardAction('saveMcpConfigText');
  return saveConfig(await appContext(), me, text, { headers: await headers(), value: password });
}
