// Tool arguments: lenient parsing of what the model wrote, and JSON Schema validation with ajv.
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';
import JSON5 from 'json5';
import type { FunctionDef } from '../lib/llm/schema';
import { isPlainObject } from '../lib/protocol/json';
import { ToolArgumentsError, ToolDefinitionError } from './errors';

/** What validation needs of a tool: the schema the model sees. */
type WithParameters = { readonly function: FunctionDef };

export const INVALID_JSON_MESSAGE = 'Parameters must be formatted as a valid JSON!';

function describeJsonValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

function parseJsonLeniently(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    try {
      return JSON5.parse(text);
    } catch {
      throw new ToolArgumentsError(INVALID_JSON_MESSAGE);
    }
  }
}

/**
 * The model's argument string as an object: surrounding whitespace and a ``` fence (its first and last line) are
 * removed, then strict JSON is tried, then JSON5. An object passes through unchanged.
 */
export function parseToolArgs(raw: string | Record<string, unknown>): Record<string, unknown> {
  if (typeof raw !== 'string') {
    if (isPlainObject(raw)) return raw;
    throw new ToolArgumentsError(`Parameters must be a JSON object, not ${describeJsonValue(raw)}.`);
  }
  let text = raw.trim();
  if (text.startsWith('```') && text.endsWith('```') && text.includes('\n')) {
    text = text.split('\n').slice(1, -1).join('\n').trim();
  }
  // Models calling a tool without parameters often send nothing at all; that means "no arguments".
  if (text === '') return {};
  let value = parseJsonLeniently(text);
  // Some models encode the arguments object twice ("{\"a\": 1}" as a JSON string).
  if (typeof value === 'string' && value.trim().startsWith('{')) value = parseJsonLeniently(value.trim());
  if (!isPlainObject(value))
    throw new ToolArgumentsError(`Parameters must be a JSON object, not ${describeJsonValue(value)}.`);
  return value;
}

// ---- ajv ----------------------------------------------------------------------------------------------------

type AnyAjv = Ajv | Ajv2019 | Ajv2020;

// strict:false because real-world tool schemas (MCP servers especially) carry keywords ajv does not know;
// formats are not checked because ajv-formats is not a dependency; addUsedSchema:false so two schemas with
// the same $id do not collide in the shared instance.
const AJV_OPTIONS = {
  allErrors: true,
  strict: false,
  validateFormats: false,
  logger: false,
  addUsedSchema: false,
} as const;
let ajv07: Ajv | undefined;
let ajv2019: Ajv2019 | undefined;
let ajv2020: Ajv2020 | undefined;

/** The ajv instance that understands this schema's draft, and the schema as that instance should see it. */
export function ajvFor(schema: Record<string, unknown>): { ajv: AnyAjv; schema: Record<string, unknown> } {
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (dialect.includes('2020-12')) return { ajv: (ajv2020 ??= new Ajv2020(AJV_OPTIONS)), schema };
  if (dialect.includes('2019-09')) return { ajv: (ajv2019 ??= new Ajv2019(AJV_OPTIONS)), schema };
  ajv07 ??= new Ajv(AJV_OPTIONS);
  if (!dialect || dialect.includes('draft-07')) return { ajv: ajv07, schema };
  // Older drafts (04/06) are close enough to 07 for tool parameters; ajv would refuse the unknown $schema.
  const rest = { ...schema };
  delete rest.$schema;
  return { ajv: ajv07, schema: rest };
}

/** JSON pointer "/items/0/name" as "items[0].name". */
function readablePath(pointer: string, extra?: string): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra !== undefined) parts.push(extra);
  let out = '';
  for (const part of parts) out += /^\d+$/.test(part) ? `[${part}]` : out ? `.${part}` : part;
  return out;
}

function showValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function describeAjvError(e: ErrorObject): string {
  const params = e.params as Record<string, unknown>;
  const at = readablePath(e.instancePath);
  const subject = at ? `property '${at}'` : 'the arguments';
  switch (e.keyword) {
    case 'required':
      return `missing required property '${readablePath(e.instancePath, String(params.missingProperty))}'`;
    case 'type': {
      const types = Array.isArray(params.type) ? params.type.join(' or ') : String(params.type);
      return `${subject} must be ${types}`;
    }
    case 'enum': {
      const allowed = Array.isArray(params.allowedValues) ? params.allowedValues : [];
      return `${subject} must be one of: ${allowed.map(showValue).join(', ')}`;
    }
    case 'const':
      return `${subject} must be ${showValue(params.allowedValue)}`;
    case 'additionalProperties':
      return `unexpected property '${readablePath(e.instancePath, String(params.additionalProperty))}'`;
    default:
      return `${subject} ${e.message ?? 'is invalid'}`;
  }
}

/** ajv errors as one readable sentence list, e.g. "missing required property 'city'; property 'a' must be number". */
export function formatValidationErrors(errors: readonly ErrorObject[] | null | undefined): string {
  const lines = (errors ?? []).map(describeAjvError);
  return [...new Set(lines)].join('; ') || 'the arguments do not match the schema';
}

// Every run builds its tools afresh, and ajv's own cache knows a schema by its object, so a fresh copy of the same
// schema was checked and compiled again (about half a millisecond each, before every first model call). Checked
// schemas are kept by their JSON text instead; MCP servers may bring many, hence the bound.
const CHECKED_MAX = 500;
const checked = new Map<string, SchemaCheck>();

/** A parameters schema as ajv sees it: its compiled validator, or why it is not a usable schema. */
export type SchemaCheck =
  { validate: ValidateFunction; problem?: undefined } | { validate?: undefined; problem: string };

// The same schema object (a tool's own `parameters`, asked for on every call) is known without serialising it.
const checkedObjects = new WeakMap<object, SchemaCheck>();

export function checkSchema(schema: Record<string, unknown>): SchemaCheck {
  const known = checkedObjects.get(schema);
  if (known) return known;
  const key = JSON.stringify(schema);
  let result = checked.get(key);
  if (!result) {
    result = compile(schema);
    if (checked.size >= CHECKED_MAX) checked.delete(checked.keys().next().value!);
    checked.set(key, result);
  }
  checkedObjects.set(schema, result);
  return result;
}

function compile(schema: Record<string, unknown>): SchemaCheck {
  const prepared = ajvFor(schema);
  if (!prepared.ajv.validateSchema(prepared.schema)) {
    const detail = (prepared.ajv.errors ?? [])
      .map((e) => `parameters${e.instancePath.replace(/\//g, '.')} ${e.message ?? 'is invalid'}`)
      .join('; ');
    return {
      problem: `parameters is not a valid JSON Schema: ${detail || formatValidationErrors(prepared.ajv.errors)}`,
    };
  }
  try {
    return { validate: prepared.ajv.compile(prepared.schema) };
  } catch (err) {
    return { problem: `parameters schema cannot be compiled: ${err instanceof Error ? err.message : String(err)}` };
  }
}

function validatorFor(tool: WithParameters): ValidateFunction {
  const result = checkSchema(tool.function.parameters);
  // A registered tool's schema was checked when it was made; this is for a tool object that never was.
  if (result.problem !== undefined) throw new ToolDefinitionError(`The tool's ${result.problem}`);
  return result.validate;
}

/** Checks parsed arguments against the tool's parameters schema; throws ToolArgumentsError with readable text. */
export function validateToolArgs(tool: WithParameters, args: unknown): void {
  const validate = validatorFor(tool);
  if (!validate(args)) throw new ToolArgumentsError(formatValidationErrors(validate.errors));
}
