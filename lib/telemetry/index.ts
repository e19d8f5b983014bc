// Runs as OpenTelemetry traces, when OTEL_EXPORTER_OTLP_ENDPOINT is set. The chat service hands every event of every
// run to traceRunEvent(); with tracing off that is all it costs. With it on, the SDK (./otlp) is loaded on the first
// event, and the events that arrive while it loads wait in a bounded buffer.
import type { AgentEvent } from '../agent/events';
import { loadConfig } from '../config';
import type { Tracing, TracingOptions, TracingStats } from './otlp';

export type { TracingOptions } from './otlp';

/** The endpoint and the last export error are left out (they go to the server log): /api/health is public, and they
 *  may name internal hosts or carry credentials. */
export type TelemetryStatus =
  { enabled: false } | ({ enabled: true; droppedEvents?: number } & Omit<TracingStats, 'lastError'>);

/** Events held while the SDK loads (a few hundred ms); past this many they are dropped, and counted. */
const MAX_BUFFERED_EVENTS = 10_000;

interface Holder {
  tracing?: Tracing;
  loading?: Promise<void>;
  buffer: [AgentEvent, string, number][];
  droppedEvents: number;
}

// On globalThis, as the store is: Next dev re-evaluates modules, and the SDK must be started once per process.
// undefined: not decided yet (the environment is read on the first event); null: off.
const g = globalThis as { __agentStudioTelemetry?: Holder | null };

function set(next: Holder | null): Holder | null {
  g.__agentStudioTelemetry = next;
  return next;
}

/** The one hook: called for each event of a run, in order, where the chat service stores it. */
export function traceRunEvent(event: AgentEvent, conversationId: string): void {
  const holder = g.__agentStudioTelemetry === undefined ? fromEnvironment() : g.__agentStudioTelemetry;
  if (!holder) return;
  if (holder.tracing) return holder.tracing.record(event, conversationId);
  if (holder.buffer.length < MAX_BUFFERED_EVENTS)
    holder.buffer.push([event, conversationId, performance.timeOrigin + performance.now()]);
  else holder.droppedEvents++;
}

function fromEnvironment(): Holder | null {
  const config = loadConfig().telemetry;
  if (!config.enabled) return set(null);
  return begin({
    protocol: config.protocol,
    captureContent: config.captureContent,
    serviceName: config.serviceName,
    batch: config.batch,
  });
}

function begin(options: TracingOptions): Holder {
  const started: Holder = set({ buffer: [], droppedEvents: 0 })!;
  started.loading = import('./otlp').then(
    ({ startTracing }) => {
      if (g.__agentStudioTelemetry !== started) return; // stopped while loading
      const tracing = startTracing(options);
      for (const [event, conversationId, at] of started.buffer) tracing.record(event, conversationId, at);
      started.buffer = [];
      started.tracing = tracing;
    },
    (e: unknown) => {
      console.error(`[telemetry] tracing is off: the OpenTelemetry SDK did not load (${(e as Error).message})`);
      if (g.__agentStudioTelemetry === started) set(null);
    },
  );
  return started;
}

/** Starts tracing with these options (instead of the environment's); resolves once the SDK is up. */
export async function startTelemetry(options: TracingOptions): Promise<void> {
  await stopTelemetry();
  await begin(options).loading;
}

/** Sends the spans queued so far. */
export async function flushTelemetry(): Promise<void> {
  const holder = g.__agentStudioTelemetry;
  await holder?.loading;
  await holder?.tracing?.flush();
}

/** Flushes and stops tracing; traceRunEvent does nothing until startTelemetry() is called again. */
export async function stopTelemetry(): Promise<void> {
  const current = g.__agentStudioTelemetry;
  set(null);
  await current?.loading;
  await current?.tracing?.shutdown();
}

/** For /api/health: whether runs are traced, and what became of their spans. */
export function telemetryStatus(): TelemetryStatus {
  const holder = g.__agentStudioTelemetry === undefined ? fromEnvironment() : g.__agentStudioTelemetry;
  if (!holder) return { enabled: false };
  const { lastError: _lastError, ...stats } = holder.tracing?.stats() ?? {
    exportedSpans: 0,
    droppedSpans: 0,
    failedSpans: 0,
    pendingSpans: 0,
    openRuns: 0,
  };
  return {
    enabled: true,
    ...stats,
    ...(holder.droppedEvents ? { droppedEvents: holder.droppedEvents } : {}),
  };
}
