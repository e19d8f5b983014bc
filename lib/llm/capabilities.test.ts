import { describe, expect, it } from 'vitest';
import { hintsFromModelEntry, isQwenFamily, nameSuggestsVision, resolveCapabilities } from './capabilities';

describe('model capabilities', () => {
  it('reads what servers say in their model lists', () => {
    expect(hintsFromModelEntry({ capabilities: ['completion', 'tools', 'vision', 'thinking'] })).toEqual({
      tools: true,
      vision: true,
      reasoning: true,
    });
    expect(hintsFromModelEntry({ capabilities: ['completion'] })).toEqual({ tools: false, vision: false });
    expect(hintsFromModelEntry({ type: 'vlm' })).toEqual({ vision: true });
    expect(
      hintsFromModelEntry({
        architecture: { input_modalities: ['text'] },
        supported_parameters: ['tools', 'reasoning'],
      }),
    ).toEqual({ vision: false, tools: true, reasoning: true });
    expect(hintsFromModelEntry({ id: 'plain' })).toEqual({});
  });

  it('takes the user first, then the server, then what was learnt, then the name', () => {
    const name = 'Qwen/Qwen2.5-VL-7B-Instruct';
    expect(nameSuggestsVision(name)).toBe(true);
    expect(resolveCapabilities(name).vision).toEqual({ value: true, source: 'name' });
    expect(resolveCapabilities(name, { server: { vision: false } }).vision).toEqual({ value: false, source: 'server' });
    expect(resolveCapabilities(name, { user: { vision: true }, server: { vision: false } }).vision.source).toBe('user');
    expect(resolveCapabilities('m', { learned: { tools: false } }).tools).toEqual({ value: false, source: 'learned' });
    expect(resolveCapabilities('m').tools).toEqual({ value: true, source: 'default' });
    expect(resolveCapabilities('qwen3-8b').reasoning.value).toBe(true);
    expect(isQwenFamily('qwen2.5:7b')).toBe(true);
    expect(isQwenFamily('llama3')).toBe(false);
  });
});
