// The run export file: a versioned JSON bundle of one run (its stored events, requests included), that the inspector
// can import again to view. Checked with zod on import, with errors a person can act on.
import { z } from '../protocol/zod';
import { AgentEventSchema, type AgentEvent } from '../protocol/events';

export const RUN_EXPORT_SCHEMA = 'agent-studio.run/2';
/** Exports written before the events carried their final facts; their events are read in today's shape. */
const OLDER_SCHEMAS = ['agent-studio.run/1'];

export const RunExportSchema = z
  .object({
    schema: z.literal(RUN_EXPORT_SCHEMA),
    exportedAt: z.string(),
    run: z.object({
      id: z.string().min(1),
      status: z.string(),
      startedAt: z.number().optional(),
      endedAt: z.number().optional(),
      conversationTitle: z.string().optional(),
      /** The user's message the run answered (text). */
      userMessage: z.string().optional(),
    }),
    events: z.array(AgentEventSchema).min(1, 'a run needs at least one event'),
  })
  .superRefine((value, ctx) => {
    const stray = value.events.findIndex((e) => e.runId !== value.run.id);
    if (stray >= 0)
      ctx.addIssue({
        code: 'custom',
        path: ['events', stray, 'runId'],
        message: `belongs to run ${value.events[stray]!.runId}, not to the exported run ${value.run.id}`,
      });
  });

export type RunExport = z.infer<typeof RunExportSchema>;

export function buildRunExport(run: RunExport['run'], events: AgentEvent[], now = new Date()): RunExport {
  return { schema: RUN_EXPORT_SCHEMA, exportedAt: now.toISOString(), run, events };
}

export function runExportFileName(bundle: RunExport): string {
  return `run-${bundle.run.id.slice(0, 12)}.json`;
}

function pathText(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out || '(the file)';
}

const MAX_LISTED = 5;

export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string };

/** Reads an export file's text. Never throws: a bad file gives a message naming what is wrong and where. An export
 *  of an older schema is read in today's shape (the code that does so loads only for such a file). */
export async function parseRunExport(text: string): Promise<ParseResult<RunExport>> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `This file is not JSON (${e instanceof Error ? e.message : String(e)}).` };
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    return { ok: false, error: 'This file is not an Agent Studio run export: it must hold a JSON object.' };
  }
  const schema = (data as { schema?: unknown }).schema;
  const events = (data as { events?: unknown }).events;
  if (typeof schema === 'string' && OLDER_SCHEMAS.includes(schema) && Array.isArray(events)) {
    const { upgradeRunLog } = await import('../agent/upgrade-log');
    data = { ...data, schema: RUN_EXPORT_SCHEMA, events: upgradeRunLog(events) };
  } else if (schema !== RUN_EXPORT_SCHEMA) {
    const other = typeof schema === 'string' && schema.startsWith('agent-studio.run/');
    return {
      ok: false,
      error: other
        ? `This run export uses schema ${schema}; this version of Agent Studio reads ${RUN_EXPORT_SCHEMA}.`
        : `This file is not an Agent Studio run export (its "schema" is ${JSON.stringify(schema) ?? 'missing'}; expected "${RUN_EXPORT_SCHEMA}").`,
    };
  }
  const parsed = RunExportSchema.safeParse(data);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issues = parsed.error.issues;
  const lines = issues.slice(0, MAX_LISTED).map((i) => `${pathText(i.path)}: ${i.message}`);
  if (issues.length > MAX_LISTED) lines.push(`…and ${issues.length - MAX_LISTED} more problems`);
  return { ok: false, error: `This run export is damaged or incomplete:\n${lines.join('\n')}` };
}
