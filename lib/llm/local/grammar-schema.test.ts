// The schema narrowing, and node-llama-cpp's grammar builder accepting what it makes of every builtin tool.
import { describe, expect, it } from 'vitest';
import { TOOL_REGISTRY } from '../../../tools';
import { nousCallSchema, toGrammarSchema } from './grammar-schema';

describe('toGrammarSchema', () => {
  it('keeps what a grammar can enforce and drops the rest', () => {
    expect(
      toGrammarSchema({
        type: 'object',
        properties: {
          city: { type: 'string', description: 'City', pattern: '^[A-Z]', maxLength: 40 },
          days: { type: 'integer', minimum: 1 },
          unit: { enum: ['c', 'f', { odd: 1 }] },
          when: { type: 'string', format: 'date' },
          email: { type: 'string', format: 'email' },
          tags: { type: 'array', items: { type: 'string' }, maxItems: 3 },
          either: { anyOf: [{ type: 'string' }, { type: 'null' }] },
          nullable: { type: ['number', 'null'] },
        },
        required: ['city', 'ghost'],
        additionalProperties: false,
      }),
    ).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', maxLength: 40, description: 'City' },
        days: { type: 'integer' },
        unit: { enum: ['c', 'f'] },
        when: { type: 'string', format: 'date' },
        email: { type: 'string' },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 3 },
        either: { oneOf: [{ type: 'string' }, { type: 'null' }] },
        nullable: { type: ['number', 'null'] },
      },
      required: ['city'],
    });
  });

  it('follows local $refs and accepts any value where there is no type', () => {
    const s = toGrammarSchema({
      type: 'object',
      properties: { where: { $ref: '#/$defs/place' }, extra: {} },
      $defs: { place: { type: 'object', properties: { lat: { type: 'number' } } } },
    }) as { properties: Record<string, unknown> };
    expect(s.properties.where).toEqual({ type: 'object', properties: { lat: { type: 'number' } } });
    expect(s.properties.extra).toHaveProperty('oneOf');
    expect(toGrammarSchema({ type: 'object' })).toEqual({ type: 'object', properties: {}, additionalProperties: true });
  });

  it('gives node-llama-cpp a schema it builds a grammar from, for every builtin tool', async () => {
    const { getLlama } = await import('node-llama-cpp');
    const llama = await getLlama({ gpu: false, build: 'never' });
    const functions = [...TOOL_REGISTRY.values()].map((ToolClass) => new ToolClass().function);
    expect(functions.length).toBeGreaterThan(5);
    for (const f of functions) {
      const grammar = await llama.createGrammarForJsonSchema(toGrammarSchema(f.parameters) as never);
      expect(grammar.grammar.length, f.name).toBeGreaterThan(0);
    }
    const call = await llama.createGrammarForJsonSchema(nousCallSchema(functions) as never);
    expect(call.grammar).toContain('code_interpreter');
  });

  it('makes grammars node-llama-cpp would refuse or leave loose from the raw schema', async () => {
    const { getLlama } = await import('node-llama-cpp');
    const llama = await getLlama({ gpu: false, build: 'never' });
    const grammarOf = async (schema: unknown) => (await llama.createGrammarForJsonSchema(schema as never)).grammar;
    const mixedEnum = { type: 'object', properties: { a: { enum: ['x', { y: 1 }] } } };
    await expect(grammarOf(mixedEnum)).rejects.toThrow(/Unrecognized literal type/);
    expect(await grammarOf(toGrammarSchema(mixedEnum))).toContain('x');
    // anyOf is not a keyword node-llama-cpp reads: raw, the property takes any value; narrowed, string or null only.
    const anyOf = {
      type: 'object',
      properties: { a: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
      required: ['a'],
    };
    const loose = await grammarOf({ type: 'object', properties: { a: {} }, required: ['a'] });
    expect(await grammarOf(anyOf)).toBe(loose);
    expect(await grammarOf(toGrammarSchema(anyOf))).not.toBe(loose);
  });
});
