import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, it, expect } from 'vitest';
import { BaseTool } from './base-tool';
import { ToolDefinitionError } from './errors';
import { checkTool, createTool, registerTool, TOOL_REGISTRY } from './registry';

const WEATHER_SCHEMA = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

function weatherClass(name: string, parameters: unknown = WEATHER_SCHEMA) {
  return class extends BaseTool {
    name = name;
    description = 'Get the weather.';
    parameters = parameters as Record<string, unknown>;
    async call() {
      return 'sunny';
    }
  };
}

function definitionError(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(ToolDefinitionError);
    return (err as Error).message;
  }
  throw new Error('expected a ToolDefinitionError');
}

// The decorator call shape used by TypeScript's standard decorators.
function classContext(name: string): ClassDecoratorContext {
  return { kind: 'class', name, addInitializer: () => {}, metadata: {} } as unknown as ClassDecoratorContext;
}

describe('registerTool', () => {
  it('registers with a plain call and returns the class', () => {
    const Cls = weatherClass('reg_plain');
    expect(registerTool('reg_plain')(Cls)).toBe(Cls);
    expect(TOOL_REGISTRY.get('reg_plain')).toBe(Cls);
  });

  it('registers when called the way a standard class decorator is', () => {
    const Cls = weatherClass('reg_decorator');
    expect(registerTool('reg_decorator')(Cls, classContext('Cls'))).toBe(Cls);
    expect(TOOL_REGISTRY.get('reg_decorator')).toBe(Cls);
  });

  it('works with real @registerTool syntax (run through tsx)', async () => {
    const tsx = path.resolve(__dirname, '../node_modules/.bin/tsx');
    const { stdout } = await promisify(execFile)(tsx, [path.join(__dirname, '__fixtures__/decorated-tool.ts')]);
    const out = JSON.parse(stdout.trim());
    expect(out.same).toBe(true);
    expect(out.echoed).toBe('hi');
    expect(out.duplicate).toContain("Tool 'decorated_echo' is already registered");
  });

  it('rejects a duplicate name', () => {
    registerTool('reg_dup')(weatherClass('reg_dup'));
    expect(definitionError(() => registerTool('reg_dup')(weatherClass('reg_dup')))).toBe(
      "Tool 'reg_dup' is already registered; pick a unique name or pass { allowOverwrite: true }.",
    );
  });

  it('replaces the class when allowOverwrite is set', () => {
    const First = weatherClass('reg_over');
    const Second = weatherClass('reg_over');
    registerTool('reg_over')(First);
    registerTool('reg_over', { allowOverwrite: true })(Second);
    expect(TOOL_REGISTRY.get('reg_over')).toBe(Second);
  });

  it('rejects a class whose name differs from the registered name, or that declares none', () => {
    expect(definitionError(() => registerTool('reg_a')(weatherClass('reg_b')))).toContain("declares name 'reg_b'");
    expect(TOOL_REGISTRY.has('reg_a')).toBe(false);
    class Nameless extends BaseTool {
      declare name: string;
      description = '';
      parameters = WEATHER_SCHEMA;
      async call() {
        return '';
      }
    }
    expect(definitionError(() => registerTool('reg_nameless')(Nameless))).toContain('Nameless does not declare a name');
  });

  it('reads class fields after construction, including ones that depend on cfg', () => {
    class Configurable extends BaseTool {
      name = 'reg_cfg';
      description = 'd';
      parameters = { type: 'object', properties: { [String(this.cfg.argName ?? 'q')]: { type: 'string' } } };
      async call() {
        return '';
      }
    }
    registerTool('reg_cfg')(Configurable);
    const tool = createTool({ name: 'reg_cfg', argName: 'query' });
    expect(tool.function).toEqual({
      name: 'reg_cfg',
      description: 'd',
      parameters: { type: 'object', properties: { query: { type: 'string' } } },
    });
  });

  it('rejects invalid schemas with a message naming the tool and the problem', () => {
    const bad = (parameters: unknown) =>
      definitionError(() => registerTool('get_weather')(weatherClass('get_weather', parameters)));
    expect(bad({ type: 'object', properties: { city: { type: 'string' } }, required: ['town'] })).toBe(
      "Tool 'get_weather': parameters.required lists 'town', which is not in properties",
    );
    expect(bad({ type: 'array', properties: {} })).toBe(
      `Tool 'get_weather': parameters.type must be 'object' (got "array")`,
    );
    expect(bad({ type: 'object' })).toBe("Tool 'get_weather': parameters.properties must be an object");
    expect(bad({ type: 'object', properties: {}, required: 'city' })).toBe(
      "Tool 'get_weather': parameters.required must be an array of property names",
    );
    expect(bad({ type: 'object', properties: { city: { type: 'strin' } } })).toMatch(
      /^Tool 'get_weather': parameters is not a valid JSON Schema: parameters\.properties\.city\.type must be equal to one of the allowed values/,
    );
    expect(bad({ type: 'object', properties: { n: { type: 'number', minimum: 'zero' } } })).toContain(
      'parameters.properties.n.minimum must be number',
    );
    expect(bad('city')).toBe(
      "Tool 'get_weather': parameters must be a JSON Schema object (or a list of parameter entries)",
    );
    expect(TOOL_REGISTRY.has('get_weather')).toBe(false);
  });

  it("accepts upstream's legacy list form and shows it to the model as a JSON Schema", () => {
    const Legacy = weatherClass('reg_legacy', [
      { name: 'city', type: 'string', description: 'City name', required: true },
      { name: 'days', type: 'int' },
    ]);
    registerTool('reg_legacy')(Legacy);
    expect(new Legacy().function.parameters).toEqual({
      type: 'object',
      properties: { city: { type: 'string', description: 'City name' }, days: { type: 'integer' } },
      required: ['city'],
    });
    expect(
      definitionError(() => registerTool('reg_legacy_bad')(weatherClass('reg_legacy_bad', [{ type: 'string' }]))),
    ).toBe("Tool 'reg_legacy_bad': parameters[0] must be an object with a non-empty name");
  });

  it('names the tool when its constructor fails without a config', () => {
    class NeedsKey extends BaseTool {
      name = 'reg_needs_key';
      description = '';
      parameters = WEATHER_SCHEMA;
      constructor(cfg?: { apiKey?: string }) {
        super(cfg);
        if (!cfg?.apiKey) throw new Error('apiKey is required');
      }
      async call() {
        return '';
      }
    }
    expect(definitionError(() => registerTool('reg_needs_key')(NeedsKey))).toBe(
      "Tool 'reg_needs_key': NeedsKey cannot be constructed without a config: apiKey is required",
    );
  });
});

describe('checkTool', () => {
  it('accepts a well-formed instance', () => {
    expect(() => checkTool(new (weatherClass('ok_tool'))())).not.toThrow();
  });

  it('rejects an empty name, naming the class instead', () => {
    const Empty = weatherClass('');
    expect(definitionError(() => checkTool(new Empty()))).toMatch(/^Tool '.*': name must be a non-empty string$/);
  });

  it('rejects a non-string description', () => {
    const tool = new (weatherClass('desc_tool'))();
    (tool as unknown as { description: unknown }).description = 42;
    expect(definitionError(() => checkTool(tool))).toBe("Tool 'desc_tool': description must be a string");
  });
});

describe('createTool', () => {
  it('creates from a registered name, a config object, or passes an instance through', () => {
    registerTool('create_me')(weatherClass('create_me'));
    expect(createTool('create_me').name).toBe('create_me');
    expect(createTool({ name: 'create_me', extra: 1 }).cfg).toEqual({ name: 'create_me', extra: 1 });
    const instance = new (weatherClass('inst'))();
    expect(createTool(instance)).toBe(instance);
  });

  it('rejects an unregistered name with the upstream wording', () => {
    expect(definitionError(() => createTool('nope'))).toBe('Tool nope is not registered.');
  });
});
