import { describe, expect, it } from 'vitest';
import { getFncallFormat } from './index';

describe('getFncallFormat', () => {
  it('returns the format with its markers and stop words', () => {
    expect(getFncallFormat('nous')).toMatchObject({ name: 'nous', toolStartMarker: '<tool_call>', stopWords: [] });
    expect(getFncallFormat('qwen')).toMatchObject({ name: 'qwen', toolStartMarker: '✿FUNCTION✿' });
  });
  it('rejects an unknown name', () => {
    expect(() => getFncallFormat('hermes' as 'nous')).toThrow(/Unknown/);
  });
});
