// The request checks' refusals in words that say what to send (docs/api.md: a refusal's message says what to
// change). zod's own wording ("Invalid input", "expected record, received array", "Too small: expected number to be
// >0") names its types, not the request's; this error map says them as a caller reads them. A field's own message in
// the schema (stop, content, tool_choice…) wins over these. The refusal's `param` and `code` are written as OpenAI's
// API writes them (paramOf, issueCode): clients expose them, and some branch on them.
import type { z } from '../protocol/zod';

type Issue = z.core.$ZodRawIssue;

const TYPES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  record: 'an object',
  array: 'a list',
  null: 'null',
};

/** What was sent, in the same words. */
function sent(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'a list';
  if (typeof input === 'number') return Number.isInteger(input) ? 'a number' : String(input);
  if (typeof input === 'object') return 'an object';
  return TYPES[typeof input] ?? typeof input;
}

const quoted = (values: readonly unknown[]) => values.map((v) => JSON.stringify(v)).join(', ');

/** A schema of whole numbers (z.number().int()): its checks hold the integer format. */
function wholeNumbers(issue: Issue): boolean {
  const checks = (issue.inst as { _zod?: { def?: { checks?: { _zod: { def: { format?: unknown } } }[] } } } | undefined)
    ?._zod?.def?.checks;
  return Boolean(checks?.some((c) => typeof c._zod.def.format === 'string' && /int/.test(c._zod.def.format)));
}

/** zod's error map for the request: undefined leaves zod's own words (a case none of these covers). */
export function whatToSend(issue: Issue): string | undefined {
  switch (issue.code) {
    case 'invalid_type': {
      const expected = wholeNumbers(issue) ? 'a whole number' : (TYPES[issue.expected] ?? issue.expected);
      if (issue.input === undefined) return `must be ${expected}; it is missing.`;
      return `must be ${expected}, not ${sent(issue.input)}.`;
    }
    case 'invalid_value':
      return issue.values.length === 1 ? `must be ${quoted(issue.values)}.` : `must be one of ${quoted(issue.values)}.`;
    case 'invalid_union': {
      // A discriminated union whose tag matched no option (messages[].role, response_format.type).
      const options = (issue as { options?: unknown[] }).options;
      return options?.length ? `must be one of ${quoted(options)}.` : undefined;
    }
    case 'too_small':
    case 'too_big': {
      const small = issue.code === 'too_small';
      const bound = Number(small ? (issue as { minimum: number | bigint }).minimum : issue.maximum);
      const inclusive = issue.inclusive !== false;
      if (issue.origin === 'array')
        return `must hold ${small ? 'at least' : 'at most'} ${bound} ${bound === 1 ? 'item' : 'items'}.`;
      if (issue.origin === 'string')
        return small && bound === 1
          ? 'must not be empty.'
          : `must be ${small ? 'at least' : 'at most'} ${bound} characters.`;
      if (issue.origin === 'number')
        return inclusive
          ? `must be ${bound} or ${small ? 'more' : 'less'}.`
          : `must be ${small ? 'above' : 'below'} ${bound}.`;
      return undefined;
    }
    default:
      return undefined;
  }
}

/** A field's path as OpenAI's API writes its `param`: a list's items in brackets, an object's keys after dots
 *  (messages[1].tool_call_id, tools[0].function.name, response_format.json_schema). */
export function paramOf(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)),
    '',
  );
}

/** The `code` OpenAI's API gives a field sent in the wrong form (missing_required_parameter, invalid_type,
 *  invalid_value, empty_array, integer_below_min_value…), which a client may branch on. The issue carries its input
 *  (parsed with reportInput); `whole`: the field takes whole numbers (OpenAI's code names the field's type, not the
 *  value's). */
export function issueCode(issue: z.core.$ZodIssue, whole = false): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'missing_required_parameter' : 'invalid_type';
    case 'too_small':
    case 'too_big': {
      const side = issue.code === 'too_small' ? 'below_min' : 'above_max';
      if (issue.origin === 'array')
        return Array.isArray(issue.input) && issue.input.length === 0 ? 'empty_array' : `array_${side}_length`;
      if (issue.origin === 'string') return issue.input === '' ? 'empty_string' : `string_${side}_length`;
      if (issue.origin === 'number') return `${whole ? 'integer' : 'decimal'}_${side}_value`;
      return 'invalid_value';
    }
    case 'invalid_union': {
      // A field of several forms (stop: a string or a list; content): its code is the one of the form the input has
      // (stop: [5 strings] is array_above_max_length); none of them is invalid_type. A tag that matched no option
      // (messages[].role) has no forms to go by.
      const forms = issue.errors;
      if (!forms.length) return 'invalid_value';
      const mistyped = (f: z.core.$ZodIssue[]) => f.length === 1 && f[0]!.code === 'invalid_type' && !f[0]!.path.length;
      const taken = forms.filter((f) => !mistyped(f));
      if (!taken.length) return 'invalid_type';
      return taken.length === 1 && taken[0]![0] ? issueCode(taken[0]![0], whole) : 'invalid_value';
    }
    default:
      return 'invalid_value';
  }
}
