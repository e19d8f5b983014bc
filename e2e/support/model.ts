// Drives the scripted model server that playwright.config.ts starts with --control: each test sets its own scenario
// and can read back exactly what the app sent to the model.
import type { Scenario } from '../../lib/protocol/fixture';
import type { RecordedRequest } from '../../scripts/model-server/script';

export type { Scenario, ScriptedReply } from '../../lib/protocol/fixture';

/** Base URL of the scripted model server (without /v1). */
export function modelServerUrl(): string {
  const url = process.env.E2E_MODEL_URL;
  if (!url) throw new Error('E2E_MODEL_URL is not set: run the browser tests through playwright.config.ts');
  return url;
}

async function control(method: string, path: string, body?: unknown): Promise<Response> {
  const res = await fetch(`${modelServerUrl()}/_control/${path}`, {
    method,
    headers: body === undefined ? undefined : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`model server ${method} /_control/${path}: HTTP ${res.status} ${await res.text()}`);
  return res;
}

/** Replaces the model server's script (and forgets the requests recorded so far). */
export async function setScenario(scenario: Scenario): Promise<void> {
  await control('PUT', 'scenario', scenario);
}

/** Every request the model server received since the scenario was set, oldest first. */
export async function requests(): Promise<RecordedRequest[]> {
  return (await control('GET', 'requests')).json() as Promise<RecordedRequest[]>;
}

/** Only the chat-completion requests (what the agent sent to the model). */
export async function chatRequests(): Promise<RecordedRequest[]> {
  return (await requests()).filter((r) => r.method === 'POST' && r.path === '/v1/chat/completions');
}
