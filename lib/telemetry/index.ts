// Runs as OpenTelemetry traces, when OTEL_EXPORTER_OTLP_ENDPOINT is set. The registry of runs in progress hands every
// event of every run to traceRunEvent() once it is stored; with tracing off that is all it costs. With it on (the
// composition root calls configureTelemetry), the SDK (./otlp) loads in the background, and the events that arrive
// while it loads wait in a bounded buffer.
import type { TelemetryEnvConfig } from '../config';
import { dropProcessWide, existingProcessWide, processWide } from '../config/process-wide';
import type { AgentEvent } from '../protocol/events';
import type { Tracing, TracingOptions, TracingStats } from './otlp';

export type { TracingOptions } from './otlp';

/** The endpoint and the last export error are left out (they go to the server log): /api/health answers every client
 *  the app lets in, and they may name internal hosts or carry credentials. */
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

// Process-wide: Next dev re-evaluates modules, and the SDK must be started once per process. Absent: off.
const TELEMETRY = 'telemetry';

function current(): Holder | undefined {
  return existingProcessWide<Holder>(TELEMETRY);
}

/** The one hook: called for each event of a run, in order, once it is stored. */
export function traceRunEvent(event: AgentEvent, conversationId: string): void {
  const holder = current();
  if (!holder) return;
  if (holder.tracing) return holder.tracing.record(event, conversationId);
  if (holder.buffer.length < MAX_BUFFERED_EVENTS)
    holder.buffer.push([event, conversationId, performance.timeOrigin + performance.now()]);
  else holder.droppedEvents++;
}

/** Tracing as the configuration says, once per process: a later call keeps what is running (stopTelemetry first to
 *  change it). The SDK loads in the background; nothing of it loads when tracing is off. */
export function configureTelemetry(config: TelemetryEnvConfig): void {
  if (!config.enabled || current()) return;
  begin({
    protocol: config.protocol,
    captureContent: config.captureContent,
    serviceName: config.serviceName,
    batch: config.batch,
  });
}

function begin(options: TracingOptions): Holder {
  const started: Holder = { buffer: [], droppedEvents: 0 };
  dropProcessWide(TELEMETRY);
  processWide(TELEMETRY, () => started);
  started.loading = import('./otlp').then(
    ({ startTracing }) => {
      if (current() !== started) return; // stopped while loading
      const tracing = startTracing(options);
      for (const [event, conversationId, at] of started.buffer) tracing.record(event, conversationId, at);
      started.buffer = [];
      started.tracing = tracing;
    },
    (e: unknown) => {
      console.error(`[telemetry] tracing is off: the OpenTelemetry SDK did not load (${(e as Error).message})`);
      if (current() === started) dropProcessWide(TELEMETRY);
    },
  );
  return started;
}

/** Starts tracing with these options (instead of the configuration's); resolves once the SDK is up. */
export async function startTelemetry(options: TracingOptions): Promise<void> {
  await stopTelemetry();
  await begin(options).loading;
}

/** Sends the spans queued so far. */
export async function flushTelemetry(): Promise<void> {
  const holder = current();
  await holder?.loading;
  await holder?.tracing?.flush();
}

/** Flushes and stops tracing; traceRunEvent does nothing until tracing is started again. */
export async function stopTelemetry(): Promise<void> {
  const holder = current();
  dropProcessWide(TELEMETRY);
  await holder?.loading;
  await holder?.tracing?.shutdown();
}

/** For /api/health: whether runs are traced, and what became of their spans. */
export function telemetryStatus(): TelemetryStatus {
  const holder = current();
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
