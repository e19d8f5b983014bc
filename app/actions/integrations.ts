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
import { guardAction } from './guard';

/** The servers' states as they are now; `wait` waits for connecting servers to settle first. */
export async function integrationsStatus(wait = false): Promise<IntegrationsStatus> {
  await guardAction();
  return statusOf(await appContext(), wait);
}

export async function readMcpConfigText(): Promise<ConfigFileResult> {
  await guardAction();
  return readConfig(await appContext());
}

/** Validates and saves the file, then reconnects the servers. Nothing is written when the text is invalid. */
export async function saveMcpConfigText(
  text: string,
): Promise<{ ok: true; status: IntegrationsStatus } | ActionFailure> {
  await guardAction();
  return saveConfig(await appContext(), text);
}
