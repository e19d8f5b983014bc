// A tool's JSON Schema, narrowed to what node-llama-cpp turns into a grammar (its GbnfJsonSchema): types, const,
// enum, oneOf (anyOf too), properties and required, items, string lengths and the date formats, local $refs.
// Keywords a grammar cannot enforce (pattern, minimum, …) are dropped: the model may then write a value the tool
// refuses, which the tool says in its result, as with any model. A part with no type at all accepts any JSON value.

type Schema = Record<string, unknown>;

const PRIMITIVES = new Set(['string', 'number', 'integer', 'boolean', 'null']);
const FORMATS = new Set(['date-time', 'time', 'date']);
const MAX_DEPTH = 12;

const ANY_VALUE: Schema = {
  oneOf: [
    { type: ['string', 'number', 'boolean', 'null'] },
    { type: 'object', additionalProperties: true },
    { type: 'array' },
  ],
};

const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

function withDescription(out: Schema, from: Schema): Schema {
  if (typeof from.description === 'string' && from.description) out.description = from.description;
  return out;
}

function resolveRef(ref: unknown, root: Schema): Schema | undefined {
  if (typeof ref !== 'string') return undefined;
  const m = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
  if (!m) return undefined;
  const defs = root[m[1]!];
  const target = isObject(defs) ? defs[decodeURIComponent(m[2]!)] : undefined;
  return isObject(target) ? target : undefined;
}

function convert(node: unknown, root: Schema, depth: number): Schema {
  if (!isObject(node) || depth > MAX_DEPTH) return ANY_VALUE;
  if ('$ref' in node) {
    const target = resolveRef(node.$ref, root);
    const rest = Object.fromEntries(Object.entries(node).filter(([k]) => k !== '$ref'));
    return target ? convert({ ...target, ...rest }, root, depth + 1) : ANY_VALUE;
  }
  if ('const' in node && isPrimitiveValue(node.const)) return withDescription({ const: node.const }, node);
  if (Array.isArray(node.enum)) {
    const values = node.enum.filter(isPrimitiveValue);
    if (values.length) return withDescription({ enum: values }, node);
  }
  const alternatives = Array.isArray(node.oneOf) ? node.oneOf : Array.isArray(node.anyOf) ? node.anyOf : undefined;
  if (alternatives?.length) {
    return withDescription({ oneOf: alternatives.map((a) => convert(a, root, depth + 1)) }, node);
  }
  const types = Array.isArray(node.type) ? node.type.filter((t) => typeof t === 'string') : [node.type];
  if (types.length > 1) {
    if (types.every((t) => PRIMITIVES.has(t as string))) return withDescription({ type: types }, node);
    return withDescription({ oneOf: types.map((type) => convert({ ...node, type }, root, depth + 1)) }, node);
  }
  const type = types[0];
  if (type === 'object' || (type === undefined && isObject(node.properties))) return objectSchema(node, root, depth);
  if (type === 'array') {
    const out: Schema = { type: 'array' };
    if (isObject(node.items)) out.items = convert(node.items, root, depth + 1);
    if (Array.isArray(node.prefixItems)) out.prefixItems = node.prefixItems.map((i) => convert(i, root, depth + 1));
    copyCount(node, out, 'minItems');
    copyCount(node, out, 'maxItems');
    return withDescription(out, node);
  }
  if (type === 'string') {
    if (typeof node.format === 'string' && FORMATS.has(node.format))
      return withDescription({ type: 'string', format: node.format }, node);
    const out: Schema = { type: 'string' };
    copyCount(node, out, 'minLength');
    copyCount(node, out, 'maxLength');
    return withDescription(out, node);
  }
  if (typeof type === 'string' && PRIMITIVES.has(type)) return withDescription({ type }, node);
  return ANY_VALUE;
}

function objectSchema(node: Schema, root: Schema, depth: number): Schema {
  const out: Schema = { type: 'object' };
  const properties: Schema = {};
  if (isObject(node.properties))
    for (const [key, value] of Object.entries(node.properties)) properties[key] = convert(value, root, depth + 1);
  out.properties = properties;
  if (Array.isArray(node.required)) {
    const required = node.required.filter((k): k is string => typeof k === 'string' && k in properties);
    if (required.length) out.required = required;
  }
  // Only the declared properties, unless the schema asks for more: a model told "any other key" tends to invent some.
  if (node.additionalProperties === true) out.additionalProperties = true;
  else if (isObject(node.additionalProperties))
    out.additionalProperties = convert(node.additionalProperties, root, depth + 1);
  else if (!Object.keys(properties).length && node.additionalProperties !== false) out.additionalProperties = true;
  copyCount(node, out, 'minProperties');
  copyCount(node, out, 'maxProperties');
  return withDescription(out, node);
}

function copyCount(from: Schema, to: Schema, key: string): void {
  const v = from[key];
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) to[key] = v;
}

function isPrimitiveValue(v: unknown): v is string | number | boolean | null {
  return v === null || ['string', 'number', 'boolean'].includes(typeof v);
}

/** `schema` (a tool's parameters) as a schema node-llama-cpp can make a grammar of. */
export function toGrammarSchema(schema: unknown): Record<string, unknown> {
  return convert(schema, isObject(schema) ? schema : {}, 0);
}

/** The grammar schema of a nous call to one of `functions`: {"name": <one of them>, "arguments": <its parameters>}. */
export function nousCallSchema(functions: readonly { name: string; parameters: unknown }[]): Record<string, unknown> {
  const one = (f: { name: string; parameters: unknown }) => ({
    type: 'object',
    properties: { name: { const: f.name }, arguments: toGrammarSchema(f.parameters) },
    required: ['name', 'arguments'],
  });
  return functions.length === 1 ? one(functions[0]!) : { oneOf: functions.map(one) };
}
