// How the instances sharing one database tell each other about runs: a store across the network (PostgreSQL) offers
// this beside the ChatStore, and the registry of runs in progress (lib/chat/shared-live-runs.ts) uses it to follow,
// stop and answer runs that another instance drives. A single-process store (SQLite) has none.
//
// - The run log is the source: a follower reads events from the store; the bus only says that there is more to read
//   (and when a run ended), it never carries the events themselves.
// - The instance that drives a run holds a lease on it, renewed by a heartbeat; a run whose lease runs out (its
//   instance died) is marked interrupted by another instance. Only the lease holder can append to a run's log or
//   finish it, so two instances never drive the same run.
// - Stops and tool decisions for a run go to the instance that holds it, which answers.
import type { AgentEvent, ToolDecision } from '../protocol/events';

export type RunControl = { kind: 'stop' } | { kind: 'decide'; functionId: string; decision: ToolDecision };

/** What the driving instance answered: a stop ('stopped', or 'not-running' when the run had ended meanwhile), or
 *  a decision ('decided', 'not-waiting' when the run waits on no such tool call, 'not-running'). */
export type ControlAnswer = 'stopped' | 'decided' | 'not-waiting' | 'not-running';

export interface RunTail {
  /** The events after the seq asked for, in order. */
  events: AgentEvent[];
  /** The seq of the last of them (the one asked for when there is none). */
  lastSeq: number;
  /** Still running (its lease is held): more events may come. */
  running: boolean;
}

export interface LeaseTimes {
  /** A lease runs this long past its holder's last heartbeat (RUN_LEASE_MS). */
  leaseMs: number;
  /** How often an instance renews its leases and looks for runs whose lease ran out. */
  heartbeatMs: number;
}

export interface RunBus {
  /** This instance (one per open store). */
  readonly instanceId: string;
  readonly lease: LeaseTimes;
  /** This instance drives the run (started by this store): its lease is renewed until release. */
  hold(runId: string): void;
  release(runId: string): void;
  /** This instance is going away (SIGTERM): the heartbeat stops and every lease it holds ends now, so another
   *  instance marks whatever is still running interrupted at its next heartbeat. */
  releaseAll(): Promise<void>;
  /** The run's events after `afterSeq` (-1: from the first); undefined when the run does not exist. */
  readTail(runId: string, afterSeq: number): Promise<RunTail | undefined>;
  /** Calls `onChange` whenever the run's log may have grown or the run may have ended (after a lost connection
   *  too); resolves once listening, with the function that stops it. */
  watch(runId: string, onChange: () => void): Promise<() => void>;
  /** Sends a stop or a decision to the instance that drives the run and resolves with its answer. */
  control(runId: string, message: RunControl): Promise<ControlAnswer>;
  /** Who answers the controls sent to this instance (the registry of its runs). */
  onControl(handler: (runId: string, message: RunControl) => Promise<ControlAnswer>): void;
  /** The runs of a conversation still running, on any instance. */
  runningRunsOf(conversationId: string): Promise<string[]>;
}
