// The OpenTelemetry SDK, started for runs' traces: the official NodeSDK with an OTLP/HTTP exporter (protobuf, or JSON)
// behind a batch span processor. Loaded only when tracing is on (lib/telemetry/index.ts imports this file on demand).
//
// Export never slows or breaks a run: ending a span only appends it to a bounded queue; the batches leave on a timer,
// one request at a time, each bounded by the exporter's timeout. A span that finds the queue full is dropped and
// counted, as is every span of a batch the endpoint refused or never answered; the counts are in stats() (and
// /api/health), and a log line reports them at most every 30 s.
import { trace, context, TraceFlags, type Span } from '@opentelemetry/api';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { core, NodeSDK } from '@opentelemetry/sdk-node';
import {
  BatchSpanProcessor,
  RandomIdGenerator,
  StackContextManager,
  type IdGenerator,
  type ReadableSpan,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace';
import type { AgentEvent } from '../protocol/events';
import type { TelemetryEnvConfig } from '../config';
import { RunSpans, TRACER_NAME } from './run-spans';

export interface TracingOptions extends Pick<TelemetryEnvConfig, 'captureContent' | 'serviceName' | 'batch'> {
  /** Default http/protobuf. */
  protocol?: TelemetryEnvConfig['protocol'];
  /** The traces URL (…/v1/traces). Unset: the exporter takes it from the OTEL_EXPORTER_OTLP_* variables. */
  url?: string;
  /** How long one export request may take, retries included. Unset: OTEL_EXPORTER_OTLP_TIMEOUT, else 10 s. */
  timeoutMillis?: number;
  /** Where the "spans lost" line goes (console.warn by default). */
  warn?: (line: string) => void;
}

export interface TracingStats {
  /** Spans the endpoint accepted. */
  exportedSpans: number;
  /** Spans dropped because the queue was full (the endpoint is slower than the runs). */
  droppedSpans: number;
  /** Spans of batches the endpoint refused, or did not answer in time. */
  failedSpans: number;
  /** Spans waiting in the queue or in the request on its way. */
  pendingSpans: number;
  /** Runs begun whose run-end has not been seen yet. */
  openRuns: number;
  lastError?: string;
}

export interface Tracing {
  record(event: AgentEvent, conversationId: string, at?: number): void;
  stats(): TracingStats;
  /** Sends what is queued now (tests, and before the process exits). */
  flush(): Promise<void>;
  /** Flushes, stops the SDK and releases the global tracer provider (another start may follow). */
  shutdown(): Promise<void>;
}

const WARN_EVERY_MS = 30_000;

/** A run's trace id is its run id (a UUID without dashes), so a run found in the app is found in the backend. */
class RunTraceIds implements IdGenerator {
  private readonly random = new RandomIdGenerator();
  private next?: string;

  generateTraceId(): string {
    const id = this.next;
    this.next = undefined;
    return id ?? this.random.generateTraceId();
  }

  generateSpanId(): string {
    return this.random.generateSpanId();
  }

  /** Runs `start` (which starts one root span) with `runId` as the trace id, when it is a UUID. */
  startRoot(runId: string, start: () => Span): Span {
    const hex = runId.replace(/-/g, '').toLowerCase();
    if (/^[0-9a-f]{32}$/.test(hex) && !/^0+$/.test(hex)) this.next = hex;
    try {
      return start();
    } finally {
      this.next = undefined;
    }
  }
}

/** Counts what the endpoint accepted and what it refused. */
class CountingExporter implements SpanExporter {
  exported = 0;
  failed = 0;
  lastError?: string;

  constructor(
    private readonly inner: SpanExporter,
    private readonly onFailure: () => void,
  ) {}

  get settled(): number {
    return this.exported + this.failed;
  }

  export(spans: ReadableSpan[], done: (result: core.ExportResult) => void): void {
    this.inner.export(spans, (result) => {
      if (result.code === core.ExportResultCode.SUCCESS) this.exported += spans.length;
      else {
        this.failed += spans.length;
        this.lastError = result.error?.message ?? 'export failed';
        this.onFailure();
      }
      done(result);
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

/**
 * Hands this project's spans (not those of other tracers in the process, such as Next.js's own) to the batch
 * processor, and drops, counting, whatever would go past the queue's bound: spans queued or on their way never
 * exceed maxQueueSize, so the batch processor never drops one unseen.
 */
class BoundedRunSpans implements SpanProcessor {
  handed = 0;
  dropped = 0;
  private lastWarn = 0;

  constructor(
    private readonly batch: SpanProcessor,
    private readonly exporter: CountingExporter,
    private readonly maxQueueSize: number,
    private readonly warn: () => void,
  ) {}

  get pending(): number {
    return this.handed - this.exporter.settled;
  }

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    if (span.instrumentationScope.name !== TRACER_NAME) return;
    if ((span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    if (this.pending >= this.maxQueueSize) {
      this.dropped++;
      this.maybeWarn();
      return;
    }
    this.handed++;
    this.batch.onEnd(span);
  }

  maybeWarn(): void {
    const now = Date.now();
    if (now - this.lastWarn < WARN_EVERY_MS) return;
    this.lastWarn = now;
    this.warn();
  }

  forceFlush(): Promise<void> {
    return this.batch.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.batch.shutdown();
  }
}

export function startTracing(opts: TracingOptions): Tracing {
  const warnLine = opts.warn ?? ((line: string) => console.warn(line));
  const report = () =>
    warnLine(
      `[telemetry] spans lost so far: ${processor.dropped} dropped (queue of ${opts.batch.maxQueueSize} full), ` +
        `${exporter.failed} failed to export${exporter.lastError ? ` (${exporter.lastError})` : ''}`,
    );
  const Exporter = opts.protocol === 'http/json' ? JsonExporter : ProtobufExporter;
  const otlp = new Exporter({
    ...(opts.url ? { url: opts.url } : {}),
    ...(opts.timeoutMillis ? { timeoutMillis: opts.timeoutMillis } : {}),
  });
  const exporter = new CountingExporter(otlp, () => processor.maybeWarn());
  const batch = new BatchSpanProcessor({ exporter, ...opts.batch });
  const processor = new BoundedRunSpans(batch, exporter, opts.batch.maxQueueSize, report);
  const ids = new RunTraceIds();
  const sdk = new NodeSDK({
    serviceName: opts.serviceName,
    spanProcessors: [processor],
    idGenerator: ids,
    // Spans get their parents explicitly (run-spans.ts), so no context needs to follow async calls: the default
    // AsyncLocalStorage context manager would make every promise of the process pay for the tracking.
    contextManager: new StackContextManager(),
    // Traces only: no metrics, no logs, no instrumentation of other libraries, no propagation headers.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [],
    textMapPropagator: null,
  });
  sdk.start();
  const spans = new RunSpans(trace.getTracer(TRACER_NAME), {
    captureContent: opts.captureContent,
    startRoot: (runId, start) => ids.startRoot(runId, start),
  });
  let recordErrors = 0;
  return {
    record(event, conversationId, at) {
      try {
        spans.record(event, conversationId, at);
      } catch (e) {
        // A bug here must never reach the run; it is told once.
        if (recordErrors++ === 0) warnLine(`[telemetry] could not trace an event: ${(e as Error).message}`);
      }
    },
    stats: () => ({
      exportedSpans: exporter.exported,
      droppedSpans: processor.dropped,
      failedSpans: exporter.failed,
      pendingSpans: processor.pending,
      openRuns: spans.openRuns,
      ...(exporter.lastError ? { lastError: exporter.lastError } : {}),
    }),
    async flush() {
      await processor.forceFlush().catch(() => undefined);
      // A batch the timer sent just before is still on its way: wait for it too, as long as an export may take.
      const deadline = Date.now() + opts.batch.exportTimeoutMillis;
      while (processor.pending > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    },
    async shutdown() {
      await sdk.shutdown().catch(() => undefined);
      trace.disable();
      context.disable();
    },
  };
}
