// OTLP's protobuf encoding of a trace export, decoded with protobufjs into the same shape as OTLP JSON (camelCase
// fields, hex ids, nanoseconds as strings), so one decoder reads both. The schema is the part of
// opentelemetry-proto's trace, common and resource messages this receiver reads (field numbers as published there).
import protobuf from 'protobufjs';

const SCHEMA = `
syntax = "proto3";
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; string schema_url = 3; }
message Resource { repeated KeyValue attributes = 1; uint32 dropped_attributes_count = 2; }
message ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; string schema_url = 3; }
message InstrumentationScope { string name = 1; string version = 2; repeated KeyValue attributes = 3; }
message Span {
  bytes trace_id = 1;
  bytes span_id = 2;
  string trace_state = 3;
  bytes parent_span_id = 4;
  string name = 5;
  int32 kind = 6;
  fixed64 start_time_unix_nano = 7;
  fixed64 end_time_unix_nano = 8;
  repeated KeyValue attributes = 9;
  repeated Event events = 11;
  Status status = 15;
  fixed32 flags = 16;
}
message Event { fixed64 time_unix_nano = 1; string name = 2; repeated KeyValue attributes = 3; }
message Status { string message = 2; int32 code = 3; }
message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue {
  oneof value {
    string string_value = 1;
    bool bool_value = 2;
    int64 int_value = 3;
    double double_value = 4;
    ArrayValue array_value = 5;
    KeyValueList kvlist_value = 6;
    bytes bytes_value = 7;
  }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
`;

const Request = protobuf.parse(SCHEMA).root.lookupType('ExportTraceServiceRequest');

const ID_FIELDS = new Set(['traceId', 'spanId', 'parentSpanId']);

/** Ids from bytes to lowercase hex, as OTLP JSON writes them. */
function hexIds(value: unknown, key = ''): unknown {
  if (value instanceof Uint8Array) return ID_FIELDS.has(key) ? Buffer.from(value).toString('hex') : value;
  if (Array.isArray(value)) return value.map((v) => hexIds(v));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, hexIds(v, k)]));
  return value;
}

export function decodeProtobufTraces(body: Uint8Array): unknown {
  const message = Request.decode(body);
  return hexIds(Request.toObject(message, { longs: String }));
}
