// Replay from step N: the messages a stored run had at the start of iteration N, rebuilt from its event log
// (run-start input + what iterations 1..N-1 produced, with edited tool results put in), and the events of those
// earlier iterations, which the new run re-emits so its own log tells the whole story.
import { z } from '../protocol/zod';
import { AGENT_KIND_NAMES, type FncallMode } from '../protocol/enums';
import { GenerationSettingsSchema } from '../protocol/generation-settings';
import type { AgentEvent, EventOf, ReplayInfo } from '../protocol/events';
import { foldEvents } from '../agent/fold';
import type { Message } from '../llm/schema';

/** What a caller may ask of a replay (checked, since it comes from the page). */
export const ReplayRequestSchema = z.object({
  fromIteration: z.number().int(),
  model: z.string().max(200, 'The model name is too long (200 characters at most).').optional(),
  generateCfg: GenerationSettingsSchema.optional(),
  toolResultEdits: z
    .array(z.object({ iteration: z.number().int(), functionId: z.string(), content: z.string() }))
    .optional(),
});
export type ReplayRequest = z.infer<typeof ReplayRequestSchema>;
export type ToolResultEdit = NonNullable<ReplayRequest['toolResultEdits']>[number];

export interface ReplayPlan {
  /** What the original run was given (its system message included). */
  input: Message[];
  /** The events of iterations before N, edits applied. */
  events: AgentEvent[];
  /** The messages at the start of iteration N: input + the messages iterations < N produced. */
  messages: Message[];
  tools: string[];
  fncallMode?: FncallMode;
  replay: ReplayInfo;
}

/** A replay or continuation this run cannot make (HTTP 400): the message says why. */
export class ReplayError extends Error {
  override name = 'ReplayError';
  readonly status = 400;
}

/** Builds the start of a replay from a finished run's events; throws a ReplayError saying what is wrong.
 *  `continuing`: a run that stopped at the model-call limit goes on after its last iteration (Continue): every
 *  iteration is copied, and the new run starts at the next one. `ofRun`: the run's number among its message's runs,
 *  recorded with the replay for the page's label. */
export function planReplay(
  runId: string,
  log: AgentEvent[],
  req: ReplayRequest,
  opts: { continuing?: boolean; ofRun?: number } = {},
): ReplayPlan {
  const start = log.find((e): e is EventOf<'run-start'> => e.type === 'run-start');
  if (!start?.input) throw new ReplayError('This run has no recorded input, so it cannot be replayed.');
  if (start.kind === 'react' || start.kind === 'tir') {
    throw new ReplayError(
      `${AGENT_KIND_NAMES[start.kind]} runs cannot be replayed from a step yet: their whole transcript is one message. Use Regenerate.`,
    );
  }
  if (start.kind === 'virtualmemory') {
    throw new ReplayError(
      'VirtualMemoryAgent runs cannot be replayed from a step yet: their retrieval calls rewrite the system message, which a replay does not rebuild. Use Regenerate.',
    );
  }
  if (start.kind === 'article') {
    throw new ReplayError(
      'ArticleAgent runs cannot be replayed from a step yet: each step writes from the ones before it. Use Regenerate.',
    );
  }
  if (start.kind === 'router' || start.kind === 'groupchat') {
    throw new ReplayError(
      `${start.kind === 'router' ? 'Router' : 'GroupChat'} runs cannot be replayed from a step yet: their answers are child runs of other agents. Use Regenerate.`,
    );
  }
  const iterations = log.filter((e) => e.type === 'llm-start').length;
  const n = req.fromIteration;
  if (opts.continuing) {
    const end = log.find((e) => e.type === 'run-end');
    if (end?.type !== 'run-end' || end.reason !== 'max-iterations')
      throw new ReplayError('Only a run stopped at the model-call limit can be continued.');
    if (n !== iterations + 1) throw new ReplayError(`Continue from iteration ${iterations + 1}, after the last one.`);
  } else if (!Number.isInteger(n) || n < 1 || n > iterations) {
    throw new ReplayError(`Replay from iteration ${n}: this run has iterations 1 to ${iterations}.`);
  }
  const edits = new Map<string, ToolResultEdit>();
  for (const edit of req.toolResultEdits ?? []) {
    if (edit.iteration >= n) {
      throw new ReplayError(
        `The tool result ${edit.functionId} of iteration ${edit.iteration} is not before iteration ${n}: it would be produced again, so it cannot be edited.`,
      );
    }
    const found = log.some(
      (e) => e.type === 'tool-result' && e.iteration === edit.iteration && e.functionId === edit.functionId,
    );
    if (!found) throw new ReplayError(`Iteration ${edit.iteration} has no tool result ${edit.functionId}.`);
    edits.set(`${edit.iteration}/${edit.functionId}`, edit);
  }
  const events = log
    .filter((e) => e.iteration >= 1 && e.iteration < n && e.type !== 'run-end')
    .map((e): AgentEvent => {
      const edit = e.type === 'tool-result' ? edits.get(`${e.iteration}/${e.functionId}`) : undefined;
      if (!edit || e.type !== 'tool-result') return e;
      const { error: _error, files: _files, ...rest } = e;
      return { ...rest, ok: true, content: edit.content };
    });
  const replay: ReplayInfo = { of: runId, fromIteration: n };
  if (opts.ofRun) replay.ofRun = opts.ofRun;
  if (opts.continuing) replay.continued = true;
  if (req.model) replay.model = req.model;
  if (req.generateCfg && Object.keys(req.generateCfg).length) replay.generateCfg = { ...req.generateCfg };
  if (edits.size) replay.toolResultEdits = [...edits.values()];
  return {
    input: start.input,
    events,
    messages: [...start.input, ...foldEvents([start, ...events])],
    tools: start.tools,
    fncallMode: start.fncallMode,
    replay,
  };
}

/** What a replay form needs to know about a stored run: its iterations and the tool results it could edit. */
export interface ReplaySource {
  iterations: number;
  model: string;
  toolResults: { iteration: number; functionId: string; name: string; content: string }[];
}

export function replaySource(log: readonly AgentEvent[]): ReplaySource {
  const start = log.find((e): e is EventOf<'run-start'> => e.type === 'run-start');
  return {
    iterations: log.filter((e) => e.type === 'llm-start').length,
    model: start?.model ?? '',
    toolResults: editableToolResults(log),
  };
}

/** The tool results a replay from iteration N may edit: those of the iterations before it. */
export function editableToolResults(
  log: readonly AgentEvent[],
): { iteration: number; functionId: string; name: string; content: string }[] {
  return log
    .filter((e): e is EventOf<'tool-result'> => e.type === 'tool-result')
    .map((e) => ({
      iteration: e.iteration,
      functionId: e.functionId,
      name: e.name,
      content: typeof e.content === 'string' ? e.content : JSON.stringify(e.content),
    }));
}
