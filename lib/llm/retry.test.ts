import { describe, expect, it } from 'vitest';
import { ModelServiceError } from './errors';
import { isRetryableStatus, parseRetryAfter, retryDelayMs } from './retry';

describe('retry policy', () => {
  it('backs off exponentially from the base with jitter in [1x, 2x), capped at 300 s', () => {
    const err = new ModelServiceError('x', { retryable: true });
    expect(retryDelayMs(1, err, 1000, () => 0)).toBe(1000);
    expect(retryDelayMs(2, err, 1000, () => 0)).toBe(2000);
    expect(retryDelayMs(3, err, 1000, () => 0.5)).toBe(6000);
    expect(retryDelayMs(30, err, 1000, () => 0)).toBe(300_000);
  });

  it('honours Retry-After (seconds, HTTP date, or ms)', () => {
    expect(retryDelayMs(1, new ModelServiceError('x', { retryAfterMs: 2500 }), 1000)).toBe(2500);
    expect(parseRetryAfter((n) => (n === 'retry-after' ? '3' : null))).toBe(3000);
    expect(parseRetryAfter((n) => (n === 'retry-after-ms' ? '150' : null))).toBe(150);
    const now = Date.parse('2026-11-30T00:00:00Z');
    expect(parseRetryAfter((n) => (n === 'retry-after' ? 'Mon, 30 Nov 2026 00:00:05 GMT' : null), now)).toBe(5000);
  });

  it('retries 408/409/429/5xx, never 400, and never context-length or content-inspection errors', () => {
    expect(isRetryableStatus(429, 'slow down')).toBe(true);
    expect(isRetryableStatus(503, 'busy')).toBe(true);
    expect(isRetryableStatus(400, 'bad')).toBe(false);
    expect(isRetryableStatus(401, 'key')).toBe(false);
    expect(isRetryableStatus(500, "This model's maximum context length is 8192 tokens")).toBe(false);
    expect(isRetryableStatus(500, 'DataInspectionFailed')).toBe(false);
  });
});
