// A child run: a Router's helper or a GroupChat's member answering as part of its parent's run. Its events go out
// wrapped in `child` events (lib/protocol/events.ts) as they come; its totals count in the parent's; its messages
// come back to the parent, named by the child. It runs for the same user with the same access as its parent: every
// option of the parent's run is passed on (which uploads it may read, its conversation and work directory, the pause
// before tools...) but the few that belong to the parent's run itself, so that an option added later reaches child
// runs unless it is named here.
import { randomUUID } from 'node:crypto';
import type { Message } from '../llm/schema';
import type { AgentEvent, EventOf } from '../protocol/events';
import type { Agent } from './agent';
import { MessageFold } from './fold';
import type { RunOptions, RunState } from './run-state';

/** The parent's options a child run takes over: all but its id, its replay state and its client's own tools (which
 *  are the parent's to offer); the signal and language are the parent run's live ones. */
export function childRunOptions(run: RunState): RunOptions {
  const { runId: _runId, resume: _resume, clientTools: _clientTools, ...inherited } = run.options;
  return { ...inherited, signal: run.signal, runId: randomUUID(), lang: run.lang };
}

/** A child run ended in an error: the parent's run ends with it, saying whose it was. */
export class ChildRunError extends Error {
  override name = 'ChildRunError';
  constructor(
    readonly agent: string,
    readonly info: NonNullable<EventOf<'run-end'>['error']>,
  ) {
    super(`${agent}: ${info.message}`);
  }
}

export interface ChildOutcome {
  /** The child's new messages (each named by it). */
  messages: Message[];
  end: EventOf<'run-end'>;
}

export interface ChildRunOptions {
  /** The child is a step whose output the parent reads, not an answer (its `child` events say so). */
  aside?: boolean;
  /** Stops the child besides the parent's own signal (ParallelDocQA stops the other readers when one fails). */
  signal?: AbortSignal;
  /** Sees each of the child's events as it comes (before the parent emits it). */
  onEvent?: (event: AgentEvent) => void;
}

/** Runs `agent` on `messages` as a child of `run` and waits for its end. Throws when the parent is stopped, and a
 *  ChildRunError when the child's run failed. Several may run at once: their events interleave, each wrapped. */
export async function runChild(
  agent: Agent,
  messages: Message[],
  run: RunState,
  opts: ChildRunOptions = {},
): Promise<ChildOutcome> {
  const fold = new MessageFold();
  let end: EventOf<'run-end'> | undefined;
  const options = childRunOptions(run);
  if (opts.signal) options.signal = AbortSignal.any([run.signal, opts.signal]);
  const events = agent.runEvents(messages, options);
  for await (const event of events) {
    fold.apply(event);
    if (event.type === 'run-end') end = event;
    opts.onEvent?.(event);
    run.emit(
      opts.aside
        ? { type: 'child', agent: agent.name, event, aside: true }
        : { type: 'child', agent: agent.name, event },
    );
  }
  if (!end) throw new Error(`${agent.name}'s run ended without a run-end event.`);
  run.addChild(end);
  run.signal.throwIfAborted();
  opts.signal?.throwIfAborted();
  if (end.reason === 'error') throw new ChildRunError(agent.name, end.error ?? { name: 'Error', message: 'failed' });
  return { messages: fold.snapshot(), end };
}
