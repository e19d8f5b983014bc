/**
 * A local OTLP/HTTP trace receiver over plain node:http, for tests and benchmarks: it takes what an OpenTelemetry
 * exporter POSTs to /v1/traces (OTLP protobuf or JSON, gzip or not) and keeps every span decoded. It can also leave
 * requests unanswered, or answer them with an error status, to play a sick collector. GET /_stats answers
 * {requests, spans} (for a benchmark in another process).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { decodeProtobufTraces } from './protobuf';

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Absent on a trace's root span. */
  parentSpanId?: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  /** Epoch milliseconds. */
  startMs: number;
  endMs: number;
  attributes: Record<string, unknown>;
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  status: { code: number; message?: string };
  events: { name: string; timeMs: number; attributes: Record<string, unknown> }[];
  scope: string;
  resource: Record<string, unknown>;
}

/** How the receiver answers an export: 'ok' (200), 'hang' (never), or an HTTP status. */
export type ReceiverMode = 'ok' | 'hang' | number;

export interface OtlpReceiver {
  /** The base URL (what OTEL_EXPORTER_OTLP_ENDPOINT takes). */
  url: string;
  /** The traces URL (what an exporter's `url` option takes). */
  tracesUrl: string;
  spans: ReceivedSpan[];
  /** Export requests received, answered or not. */
  requests: number;
  /** The content type of the latest export request (application/x-protobuf or application/json). */
  readonly lastContentType?: string;
  /** Export requests held open in 'hang' mode right now. */
  readonly hanging: number;
  setMode(mode: ReceiverMode): void;
  /** Drops the connections of the requests held in 'hang' mode (their exporter sees a reset). */
  release(): void;
  /** Resolves once at least `count` requests are held in 'hang' mode. */
  waitForHanging(count: number, timeoutMs?: number): Promise<void>;
  /** Resolves with the spans once `ready(spans)` holds; rejects after `timeoutMs`. */
  waitFor(ready: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

type AnyValue = {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
  kvlistValue?: { values?: KeyValue[] };
  bytesValue?: string;
};
type KeyValue = { key: string; value?: AnyValue };
type Nanos = number | string | { low: number; high: number };

function value(v: AnyValue | undefined): unknown {
  if (!v) return undefined;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(value);
  if (v.kvlistValue) return attributes(v.kvlistValue.values);
  return v.bytesValue;
}

function attributes(list: KeyValue[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kv of list ?? []) out[kv.key] = value(kv.value);
  return out;
}

function millis(n: Nanos | undefined): number {
  if (n === undefined) return 0;
  if (typeof n === 'object') return (n.high * 2 ** 32 + (n.low >>> 0)) / 1e6;
  return Number(BigInt(n) / 1000n) / 1000;
}

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: number;
  startTimeUnixNano?: Nanos;
  endTimeUnixNano?: Nanos;
  attributes?: KeyValue[];
  status?: { code?: number; message?: string };
  events?: { name: string; timeUnixNano?: Nanos; attributes?: KeyValue[] }[];
}

interface ExportRequest {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: { scope?: { name?: string }; spans?: OtlpSpan[] }[];
  }[];
}

/** The spans of one OTLP JSON export request, flattened. */
export function decodeTraces(body: ExportRequest): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of body.resourceSpans ?? []) {
    const resource = attributes(rs.resource?.attributes);
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) {
        out.push({
          traceId: s.traceId,
          spanId: s.spanId,
          ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
          name: s.name,
          kind: s.kind ?? 0,
          startMs: millis(s.startTimeUnixNano),
          endMs: millis(s.endTimeUnixNano),
          attributes: attributes(s.attributes),
          status: { code: s.status?.code ?? 0, ...(s.status?.message ? { message: s.status.message } : {}) },
          events: (s.events ?? []).map((e) => ({
            name: e.name,
            timeMs: millis(e.timeUnixNano),
            attributes: attributes(e.attributes),
          })),
          scope: ss.scope?.name ?? '',
          resource,
        });
      }
    }
  }
  return out;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (b: Buffer) => parts.push(b));
    req.on('end', () => resolve(Buffer.concat(parts)));
    req.on('error', reject);
  });
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
}

export async function createOtlpReceiver(opts: { port?: number; mode?: ReceiverMode } = {}): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const sockets = new Set<Socket>();
  const held = new Set<ServerResponse>();
  const waiters = new Set<() => void>();
  let mode: ReceiverMode = opts.mode ?? 'ok';
  let requests = 0;
  let lastContentType: string | undefined;

  /** Resolves once `ready()` holds, checked on every request; rejects after `timeoutMs`. */
  function until(ready: () => boolean, timeoutMs: number, what: () => string): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!ready()) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`the OTLP receiver did not see ${what()} within ${timeoutMs} ms`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (req.method === 'GET' && path === '/_stats') return reply(res, 200, { requests, spans: spans.length });
    if (req.method !== 'POST' || path !== '/v1/traces') return reply(res, 404, { error: `no ${req.method} ${path}` });
    requests++;
    let raw = await readBody(req);
    if (req.headers['content-encoding'] === 'gzip') raw = gunzipSync(raw);
    const type = String(req.headers['content-type'] ?? '');
    lastContentType = type;
    const proto = type.startsWith('application/x-protobuf');
    if (!proto && !type.startsWith('application/json'))
      return reply(res, 415, { error: `unsupported content type ${type}` });
    if (mode === 'hang') {
      held.add(res);
      res.on('close', () => held.delete(res));
      for (const wake of waiters) wake();
      return;
    }
    if (typeof mode === 'number') return reply(res, mode, { error: `scripted status ${mode}` });
    const body = proto ? decodeProtobufTraces(raw) : JSON.parse(raw.toString('utf8'));
    spans.push(...decodeTraces(body as ExportRequest));
    for (const wake of waiters) wake();
    // An empty ExportTraceServiceResponse, in the request's encoding.
    if (proto) {
      res.writeHead(200, { 'content-type': 'application/x-protobuf', 'content-length': '0' });
      res.end();
    } else reply(res, 200, {});
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => reply(res, 400, { error: String(e) }));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    tracesUrl: `${url}/v1/traces`,
    spans,
    get requests() {
      return requests;
    },
    get lastContentType() {
      return lastContentType;
    },
    get hanging() {
      return held.size;
    },
    setMode(next) {
      mode = next;
    },
    release() {
      for (const res of held) res.socket?.destroy();
      held.clear();
    },
    waitFor(ready, timeoutMs = 10_000) {
      return until(
        () => ready(spans),
        timeoutMs,
        () => `the expected spans (has ${spans.length})`,
      ).then(() => spans);
    },
    waitForHanging(count, timeoutMs = 10_000) {
      return until(
        () => held.size >= count,
        timeoutMs,
        () => `${count} held requests (has ${held.size})`,
      );
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}
