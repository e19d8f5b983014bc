// A tool call left without a result when its run ended: was it running (the run failed, or its server stopped,
// while it ran) or did it never start? Read from the run's events and how the run ended, here only, for the chat
// card, the run inspector and the history the model reads next turn.
import type { RunOutcome } from './enums';

/** A call as the run's events have told it so far, in the order the calls were announced. */
export interface CallSoFar {
  /** Its tool-result came. */
  settled: boolean;
  /** Its result ended the run (a fatal fault, a stop): the calls after it never started. */
  endsRun?: boolean;
  /** The run paused before it for the user's decision (tool-approval), and no result came yet. */
  awaiting?: boolean;
  /** A tool the caller declared: handed back, never run here. */
  client?: boolean;
}

/** Tool-error kinds whose call ends its run. */
const RUN_ENDING_KINDS: ReadonlySet<string> = new Set(['fatal', 'stopped']);

export function endsRun(errorKind: string | undefined): boolean {
  return errorKind !== undefined && RUN_ENDING_KINDS.has(errorKind);
}

/**
 * Which call is running (or was, when the run ended), by index; -1 when none. The calls of a model response run one
 * after another, each once the one before it has its result: so it is the first call without a result, unless the
 * result before it ended the run or the run waits for the user's decision on it.
 */
export function runningCall(calls: readonly CallSoFar[]): number {
  let previous: CallSoFar | undefined;
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i]!;
    if (call.client) continue;
    if (!call.settled) return call.awaiting || previous?.endsRun ? -1 : i;
    previous = call;
  }
  return -1;
}

/** What a call without a result reads once its run is over (the card, the inspector, and the model next turn). */
export interface UnfinishedCall {
  /** `interrupted`: it was running when the run failed or its server stopped; `not-run`: it never started. */
  kind: 'interrupted' | 'not-run';
  /** Which sentence: the page shows it in its language by this name. */
  type: 'RunFailed' | 'ServerStopped' | 'NotRun';
  /** The sentence in English, as the model is given it. */
  message: string;
}

const SENTENCES: Record<UnfinishedCall['type'], string> = {
  RunFailed: 'The run failed while this call was running; it has no result.',
  ServerStopped: 'The server stopped while this call was running; it has no result.',
  NotRun: 'The run ended before this call started; it was not run.',
};

/** The name of the sentence an unfinished call was given (its error's type), or undefined for any other error. */
export function unfinishedType(type: string | undefined): UnfinishedCall['type'] | undefined {
  return type !== undefined && Object.hasOwn(SENTENCES, type) ? (type as UnfinishedCall['type']) : undefined;
}

/**
 * A call without a result in a run that ended with `outcome`. Only a failure or the server's end can leave a running
 * call without one: a stop gives the running call its result (`stopped`), so any other call left over never started.
 */
export function unfinishedCall(wasRunning: boolean, outcome: RunOutcome): UnfinishedCall {
  const type =
    wasRunning && outcome === 'error'
      ? 'RunFailed'
      : wasRunning && outcome === 'interrupted'
        ? 'ServerStopped'
        : 'NotRun';
  return { kind: type === 'NotRun' ? 'not-run' : 'interrupted', type, message: SENTENCES[type] };
}
