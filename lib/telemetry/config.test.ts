import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';

const telemetry = (env: Record<string, string>) => loadConfig(env).telemetry;

describe('telemetry configuration', () => {
  it('is off without an endpoint, and with OTEL_SDK_DISABLED or OTEL_TRACES_EXPORTER=none', () => {
    expect(telemetry({}).enabled).toBe(false);
    expect(telemetry({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }).enabled).toBe(true);
    expect(telemetry({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' }).enabled).toBe(true);
    expect(telemetry({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }).enabled).toBe(false);
    expect(telemetry({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' }).enabled).toBe(
      false,
    );
  });

  it('takes protobuf by default, JSON when asked (the traces variable first), and refuses anything else', () => {
    expect(telemetry({}).protocol).toBe('http/protobuf');
    expect(telemetry({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }).protocol).toBe('http/json');
    expect(
      telemetry({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' })
        .protocol,
    ).toBe('http/protobuf');
    expect(() => telemetry({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(ConfigError);
    expect(() => telemetry({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(/http\/protobuf or http\/json/);
  });

  it('captures content only with OTEL_CAPTURE_CONTENT=1, and reads the batch bounds with the specification’s defaults', () => {
    expect(telemetry({}).captureContent).toBe(false);
    expect(telemetry({ OTEL_CAPTURE_CONTENT: '1' }).captureContent).toBe(true);
    expect(telemetry({}).batch).toEqual({
      maxQueueSize: 2048,
      maxExportBatchSize: 512,
      scheduledDelayMillis: 5000,
      exportTimeoutMillis: 30_000,
    });
    expect(telemetry({ OTEL_BSP_MAX_QUEUE_SIZE: '100', OTEL_BSP_SCHEDULE_DELAY: '250' }).batch).toMatchObject({
      maxQueueSize: 100,
      scheduledDelayMillis: 250,
    });
    expect(() => telemetry({ OTEL_BSP_MAX_QUEUE_SIZE: 'lots' })).toThrow(/OTEL_BSP_MAX_QUEUE_SIZE must be an integer/);
    expect(telemetry({}).serviceName).toBe('agent-studio');
    expect(telemetry({ OTEL_SERVICE_NAME: 'team-agents' }).serviceName).toBe('team-agents');
  });
});
