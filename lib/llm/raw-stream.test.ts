import { describe, expect, it } from 'vitest';
import { RAW_STREAM_LIMITS, RawStreamRecorder } from './raw-stream';

describe('RawStreamRecorder', () => {
  it('keeps chunks up to its bounds and counts the rest', () => {
    const r = new RawStreamRecorder(performance.now());
    for (let i = 0; i < RAW_STREAM_LIMITS.chunks + 5; i++) r.add(`{"i":${i}}`);
    const out = r.result();
    expect(out.chunks).toHaveLength(RAW_STREAM_LIMITS.chunks);
    expect(out.dropped).toBe(5);
    expect(out.chunks[0]!.data).toBe('{"i":0}');

    const big = new RawStreamRecorder(performance.now());
    big.add('x'.repeat(RAW_STREAM_LIMITS.bytes - 1));
    big.add('yy');
    big.add('z');
    expect(big.result()).toMatchObject({ dropped: 1, bytes: RAW_STREAM_LIMITS.bytes });
  });
});
