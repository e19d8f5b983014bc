// Where a model's context length and the environment connection's prices come from: the server's model list entry
// (the fields servers use), and the OPENAI_PRICE_* / OPENAI_CONTEXT_LENGTH variables, checked.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import { contextLengthOf } from './server-models';

describe('the context length a model list names', () => {
  it('reads the fields OpenRouter / LM Studio, vLLM and llama.cpp use', () => {
    expect(contextLengthOf({ id: 'a', context_length: 32768 })).toBe(32768);
    expect(contextLengthOf({ id: 'a', max_model_len: 8192 })).toBe(8192);
    expect(contextLengthOf({ id: 'a', meta: { n_ctx_train: 4096 } })).toBe(4096);
    expect(contextLengthOf({ id: 'a', context_window: 200000 })).toBe(200000);
  });

  it('says nothing for an entry without one, or with a value that is no length', () => {
    expect(contextLengthOf({ id: 'a' })).toBeUndefined();
    expect(contextLengthOf({ id: 'a', context_length: '32k' })).toBeUndefined();
    expect(contextLengthOf({ id: 'a', max_model_len: -1 })).toBeUndefined();
    expect(contextLengthOf(null)).toBeUndefined();
  });
});

describe('the environment connection’s rates', () => {
  it('are read from OPENAI_PRICE_INPUT, OPENAI_PRICE_OUTPUT and OPENAI_CONTEXT_LENGTH', () => {
    const env = { OPENAI_PRICE_INPUT: '0.4', OPENAI_PRICE_OUTPUT: '1.6', OPENAI_CONTEXT_LENGTH: '131072' };
    expect(loadConfig(env).llm.rates).toEqual({
      pricing: { inputPerMTok: 0.4, outputPerMTok: 1.6 },
      contextLength: 131072,
    });
    expect(loadConfig({}).llm.rates).toEqual({});
  });

  it('refuses one price without the other, and prices that are not numbers', () => {
    expect(() => loadConfig({ OPENAI_PRICE_INPUT: '1' })).toThrow(ConfigError);
    expect(() => loadConfig({ OPENAI_PRICE_INPUT: 'cheap', OPENAI_PRICE_OUTPUT: '1' })).toThrow(/OPENAI_PRICE_INPUT/);
    expect(() => loadConfig({ OPENAI_CONTEXT_LENGTH: '8k' })).toThrow(/OPENAI_CONTEXT_LENGTH/);
  });
});
