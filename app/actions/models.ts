'use server';
// Server actions of Settings → Models and the header's model picker. Wiring only: the work is in lib/models (built
// once in lib/server/context.ts). Each acts for the user guardAction resolves: they see the server-wide connections
// and their own, and change only their own (an admin: the server-wide ones too). No answer carries an API key: connections come back as ConnectionView ("key set").
import { z } from '@/lib/protocol/zod';
import type { ActionResult } from '@/lib/chat/page';
import type { ServerModelsResult } from '@/lib/llm/server-models';
import type { LocalModelsView } from '@/lib/models/local-files';
import { ModelRequestError, type ConnectionView, type FoundServerView, type ModelGroup } from '@/lib/models/service';
import { appContext, type AppContext } from '@/lib/server/context';
import { failure } from './action-error';
import { guardAction } from './guard';

async function attempt<T>(fn: (ctx: AppContext) => T | Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, value: await fn(await appContext()) };
  } catch (e) {
    return failure(e);
  }
}

const hints = z.record(
  z.string(),
  z.object({
    tools: z.boolean().optional(),
    vision: z.boolean().optional(),
    reasoning: z.boolean().optional(),
    imageGeneration: z.boolean().optional(),
  }),
);
const rates = z.record(
  z.string(),
  z.object({
    pricing: z.object({ inputPerMTok: z.number(), outputPerMTok: z.number() }).optional(),
    contextLength: z.number().optional(),
  }),
);
const ConnectionSchema = z.object({
  name: z.string({ error: 'Give the connection a name.' }),
  baseURL: z.string({ error: 'Enter the server’s base URL.' }),
  apiKey: z.string().nullable().optional(),
  capabilities: hints.optional(),
  rates: rates.optional(),
  saveAnyway: z.boolean().optional(),
});
const ConnectionPatchSchema = ConnectionSchema.partial();
const TestSchema = z.object({
  id: z.string().optional(),
  baseURL: z.string().optional(),
  apiKey: z.string().nullable().optional(),
});

function parsed<T>(schema: z.ZodType<T>, input: unknown): T {
  const r = schema.safeParse(input);
  if (!r.success) throw new ModelRequestError(r.error.issues[0]?.message ?? 'Invalid input.');
  return r.data;
}

/** Every model of every connection, grouped by connection (`refresh` asks the servers again). */
export async function listModels(refresh = false): Promise<ActionResult<ModelGroup[]>> {
  const me = await guardAction('listModels');
  return attempt((ctx) => ctx.models.listModels(me, { refresh }));
}

export async function listConnections(): Promise<ActionResult<ConnectionView[]>> {
  const me = await guardAction('listConnections');
  return attempt((ctx) => ctx.models.pageConnections(me));
}

export async function addConnection(input: unknown): Promise<ActionResult<ConnectionView>> {
  const me = await guardAction('addConnection');
  return attempt((ctx) => ctx.models.addConnection(me, parsed(ConnectionSchema, input)));
}

export async function updateConnection(id: string, patch: unknown): Promise<ActionResult<ConnectionView>> {
  const me = await guardAction('updateConnection');
  return attempt((ctx) => ctx.models.updateConnection(me, String(id), parsed(ConnectionPatchSchema, patch)));
}

export async function removeConnection(id: string): Promise<ActionResult<null>> {
  const me = await guardAction('removeConnection');
  return attempt(async (ctx) => {
    await ctx.models.removeConnection(me, String(id));
    return null;
  });
}

/** Test connection: the server's models, or what failed (unreachable, unauthorized, not-openai, timeout...). */
export async function testConnection(input: unknown): Promise<ActionResult<ServerModelsResult>> {
  const me = await guardAction('testConnection');
  return attempt((ctx) => ctx.models.testConnection(me, parsed(TestSchema, input)));
}

/** The servers found on this machine's loopback ports (`again`: scan now). */
export async function scanServers(again = false): Promise<ActionResult<FoundServerView[]>> {
  const me = await guardAction('scanServers');
  return attempt((ctx) => ctx.models.scan(me, Boolean(again)));
}

/** Use a found server: its connection (made when missing) and its first model's id. */
export async function useFoundServer(
  port: number,
): Promise<ActionResult<{ connection: ConnectionView; modelId?: string }>> {
  const me = await guardAction('useFoundServer');
  return attempt((ctx) => ctx.models.useFound(me, Number(port)));
}

// ---- the built-in local model's files ----

export async function localModels(): Promise<ActionResult<LocalModelsView>> {
  await guardAction('localModels');
  return attempt(async (ctx) => ctx.localModels.view());
}

/** Starts (or resumes) a download from the catalog or a pasted URL; answers with the file name to follow. */
export async function startDownload(input: {
  catalogId?: string;
  url?: string;
  allowHost?: boolean;
}): Promise<ActionResult<string>> {
  await guardAction('startDownload');
  return attempt((ctx) =>
    ctx.localModels.start({
      catalogId: typeof input?.catalogId === 'string' ? input.catalogId : undefined,
      url: typeof input?.url === 'string' ? input.url : undefined,
      allowHost: input?.allowHost === true,
    }),
  );
}

export async function stopDownload(name: string): Promise<ActionResult<boolean>> {
  await guardAction('stopDownload');
  return attempt((ctx) => ctx.localModels.stop(String(name)));
}

export async function dismissDownload(name: string): Promise<ActionResult<null>> {
  await guardAction('dismissDownload');
  return attempt((ctx) => {
    ctx.localModels.dismiss(String(name));
    return null;
  });
}
