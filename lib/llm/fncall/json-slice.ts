// JSON helpers for prompt-based tool calling: tolerant parsing (JSON5), Python-style serialisation, and a
// string slicer that pulls a tool name and arguments out of text that is not valid JSON (streaming, typos).
import JSON5 from 'json5';

export type Json5Result = { ok: true; value: unknown } | { ok: false; error: string };

export function parseJson5(text: string): Json5Result {
  try {
    return { ok: true, value: JSON5.parse(text) as unknown };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * Serialises like Python's json.dumps(value, ensure_ascii=False): ", " and ": " separators, non-ASCII kept.
 * The prompts the Qwen models were trained on were produced that way, so the spacing is part of the format.
 */
export function pyJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'NaN';
    if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
    return JSON.stringify(value);
  }
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pyJsonDumps).join(', ')}]`;
  if (typeof value === 'object') {
    const withJson = value as { toJSON?: () => unknown };
    if (typeof withJson.toJSON === 'function') return pyJsonDumps(withJson.toJSON());
    const parts: string[] = [];
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
      parts.push(`${JSON.stringify(k)}: ${pyJsonDumps(v)}`);
    }
    return `{${parts.join(', ')}}`;
  }
  return 'null';
}

/**
 * Index of the bracket that closes the object/array opening at `text[0]`, or -1 when it never closes.
 * Quotes (double or single, as JSON5 allows) and backslash escapes are respected.
 */
export function matchingClose(text: string): number {
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i;
      if (depth < 0) return -1;
    }
  }
  return -1;
}

const NAME_KEY = /"name"\s*:\s*"/;
const ARGS_KEY = /"arguments"\s*:\s*/;

/** End index (exclusive of the quote) of a JSON string body starting at `from`, or -1 if unterminated. */
function stringEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

/**
 * Best-effort {name, arguments} from text shaped like `{"name": "x", "arguments": {...}}` that JSON5 rejected or
 * that is still streaming (Qwen-Agent's extract_fn). The name is returned only once its closing quote is there.
 * Arguments: an object/array is cut at its matching close bracket, or kept as-is while it is still open; any other
 * value loses its last character (the wrapper's closing brace), as upstream does, and values of ≤ 2 chars become ''.
 */
export function extractFn(text: string): { name: string; args: string } {
  let name = '';
  const nameMatch = NAME_KEY.exec(text);
  if (nameMatch) {
    const start = nameMatch.index + nameMatch[0].length;
    const end = stringEnd(text, start);
    if (end >= 0) {
      const raw = text.slice(start, end);
      const decoded = parseJson5(`"${raw}"`);
      name = decoded.ok && typeof decoded.value === 'string' ? decoded.value : raw;
    }
  }
  let args = '';
  const argsMatch = ARGS_KEY.exec(text);
  if (argsMatch) {
    const rest = text.slice(argsMatch.index + argsMatch[0].length).trim();
    if (rest.startsWith('{') || rest.startsWith('[')) {
      const close = matchingClose(rest);
      args = close >= 0 ? rest.slice(0, close + 1) : rest;
    } else {
      args = rest.length > 2 ? rest.slice(0, -1) : '';
    }
  }
  return { name, args };
}
