// The global name -> tool class map, the registration decorator, and the declaration checks it runs.
import { isPlainObject } from '../lib/protocol/json';
import { checkSchema } from './args';
import { BaseTool, legacyParametersToSchema, type LegacyToolParameter } from './base-tool';
import { ToolDefinitionError } from './errors';
import { defaultToolSettings, type ToolSettings } from './settings';

// `never` lets classes whose constructor takes a narrower cfg type register too.
type RegistrableToolClass = new (cfg?: never) => BaseTool;
export type ToolClass = new (cfg?: Record<string, unknown>) => BaseTool;

export const TOOL_REGISTRY = new Map<string, ToolClass>();

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function legacyListProblem(list: readonly unknown[]): string | undefined {
  const seen = new Set<string>();
  for (const [i, entry] of list.entries()) {
    if (!isPlainObject(entry) || typeof entry.name !== 'string' || !entry.name.trim()) {
      return `parameters[${i}] must be an object with a non-empty name`;
    }
    if (seen.has(entry.name)) return `parameters lists '${entry.name}' twice`;
    seen.add(entry.name);
  }
  return undefined;
}

/** Why `parameters` is not a usable tool schema, or undefined when it is. */
function parametersProblem(parameters: unknown): string | undefined {
  let schema: Record<string, unknown>;
  if (Array.isArray(parameters)) {
    const problem = legacyListProblem(parameters);
    if (problem) return problem;
    schema = legacyParametersToSchema(parameters as LegacyToolParameter[]);
  } else if (isPlainObject(parameters)) {
    schema = parameters;
  } else {
    return 'parameters must be a JSON Schema object (or a list of parameter entries)';
  }
  if (schema.type !== 'object') return `parameters.type must be 'object' (got ${JSON.stringify(schema.type)})`;
  const properties = schema.properties;
  if (!isPlainObject(properties)) return 'parameters.properties must be an object';
  if (schema.required !== undefined) {
    if (!Array.isArray(schema.required) || !schema.required.every((r) => typeof r === 'string')) {
      return 'parameters.required must be an array of property names';
    }
    const missing = schema.required.find((r: string) => !Object.hasOwn(properties, r));
    if (missing !== undefined) return `parameters.required lists '${missing}', which is not in properties`;
  }
  return checkSchema(schema).problem;
}

/** "Tool 'x': <problem>", coded (the problem is a detail of code, said as it is). */
function declaredWrongly(name: string, problem: string, cause?: unknown): ToolDefinitionError {
  return new ToolDefinitionError(`Tool '${name}': ${problem}`, {
    code: 'tool-definition-invalid',
    values: { name, problem },
    ...(cause === undefined ? {} : { cause }),
  });
}

/** Validates a tool instance's declaration; throws a ToolDefinitionError naming the tool and the problem. */
export function checkTool(tool: BaseTool): void {
  const hasName = typeof tool.name === 'string' && tool.name.trim() !== '';
  const fail = (problem: string): never => {
    throw declaredWrongly(hasName ? tool.name : tool.constructor.name, problem);
  };
  if (!hasName) fail('name must be a non-empty string');
  if (typeof tool.description !== 'string') fail('description must be a string');
  const problem = parametersProblem(tool.parameters);
  if (problem) fail(problem);
}

/**
 * Registers a tool class under `name`. Usable as a standard (TC39) class decorator, `@registerTool('x')`, or as a
 * plain call, `registerTool('x')(XTool)`. The class is instantiated once without a config to check its fields.
 */
export function registerTool(name: string, opts: { allowOverwrite?: boolean } = {}) {
  return <C extends RegistrableToolClass>(cls: C, context?: ClassDecoratorContext): C => {
    if (context && context.kind !== 'class')
      throw new ToolDefinitionError(`registerTool('${name}') can only decorate a class`);
    if (TOOL_REGISTRY.has(name) && !opts.allowOverwrite) {
      throw new ToolDefinitionError(
        `Tool '${name}' is already registered; pick a unique name or pass { allowOverwrite: true }.`,
        { code: 'tool-name-taken', values: { name } },
      );
    }
    let instance: BaseTool;
    try {
      instance = new cls();
    } catch (err) {
      throw declaredWrongly(name, `${cls.name} cannot be constructed without a config: ${errorMessage(err)}`, err);
    }
    if (!(instance instanceof BaseTool)) throw declaredWrongly(name, `${cls.name} does not extend BaseTool`);
    if (instance.name !== name) {
      const declared =
        typeof instance.name === 'string' && instance.name
          ? `declares name '${instance.name}'`
          : 'does not declare a name';
      throw declaredWrongly(
        name,
        `${cls.name} ${declared}; it must be name = '${name}' to match registerTool('${name}')`,
      );
    }
    checkTool(instance);
    TOOL_REGISTRY.set(name, cls as unknown as ToolClass);
    return cls;
  };
}

/** Removes a registered tool (tools that come and go at run time, such as an MCP server's). */
export function unregisterTool(name: string): boolean {
  return TOOL_REGISTRY.delete(name);
}

/** A tool class may say it cannot run with these settings (web_search without a provider):
 *  `static unavailableReason(settings)`. */
export function unavailableReason(cls: ToolClass, settings: ToolSettings = defaultToolSettings()): string | undefined {
  return (cls as { unavailableReason?: (s: ToolSettings) => string | undefined }).unavailableReason?.(settings);
}

/** A registered tool that cannot run with these settings, as a run is refused with it (HTTP 400). Coded, so the page
 *  says it (and what to do) in its language; `reason` stays the tool's own words. */
export function toolUnavailableError(name: string, reason: string): ToolDefinitionError {
  return new ToolDefinitionError(`Tool ${name} is not available: ${reason}`, {
    status: 400,
    code: 'tool-unavailable',
    values: { name, reason },
  });
}

/**
 * Qwen-Agent's Agent._init_tool: a registered name (no config), a config object {name, ...cfg} (the whole object is
 * the cfg), or a ready instance. `settings`: the agent's, which the tool's availability is judged by.
 */
export function createTool(
  spec: string | ({ name: string } & Record<string, unknown>) | BaseTool,
  settings?: ToolSettings,
): BaseTool {
  if (spec instanceof BaseTool) return spec;
  const name = typeof spec === 'string' ? spec : spec.name;
  const cls = TOOL_REGISTRY.get(name);
  // Upstream's words (ValueError in _init_tool); the code lets the page say it in its language.
  if (!cls)
    throw new ToolDefinitionError(`Tool ${name} is not registered.`, {
      status: 400,
      code: 'tool-unknown',
      values: { name },
    });
  const unavailable = unavailableReason(cls, settings);
  if (unavailable) throw toolUnavailableError(name, unavailable);
  return typeof spec === 'string' ? new cls() : new cls(spec);
}
