// Errors the page says in its own language: the server raises them with a code (the page's catalog has a sentence
// for each, under `errors`) and an English message for everything else that reads it (logs, the HTTP API, a model).

export const ERROR_CODES = [
  'address-refused',
  'admin-only',
  'agent-document-not-yours',
  'agent-documents-many',
  'agent-field-invalid',
  'agent-gone',
  'agent-groupchat-documents',
  'agent-holds-itself',
  'agent-import-member-missing',
  'agent-import-no-agent',
  'agent-import-not-export',
  'agent-import-not-json',
  'agent-import-other-schema',
  'agent-import-plugin-missing',
  'agent-import-too-large',
  'agent-import-unsent',
  'agent-member-gone',
  'agent-members-many',
  'agent-members-missing',
  'agent-members-over',
  'agent-name-long',
  'agent-name-missing',
  'agent-name-reserved',
  'agent-names-twice',
  'agent-not-object',
  'agent-only-member',
  'agent-plugin-gone',
  'agent-plugin-member-gone',
  'agent-suggestions-many',
  'agent-too-deep',
  'agent-tool-unknown',
  'answer-too-long',
  'bad-sign-up-mode',
  'connection-http',
  'connection-key-needed',
  'connection-unauthorized',
  'connection-unreachable',
  'conversation-busy',
  'conversation-gone',
  'delete-self',
  'disable-self',
  'disk-full',
  'embeddings-malformed',
  'empty-title',
  'found-admin-only',
  'group-background-long',
  'group-describe-first',
  'group-draft-long',
  'group-field-invalid',
  'group-last-not-user',
  'group-member-description-long',
  'group-member-instructions-long',
  'group-member-name-long',
  'group-member-name-missing',
  'group-member-name-taken',
  'group-members-many',
  'group-members-missing',
  'group-message-long',
  'group-name-long',
  'group-name-missing',
  'invite-gone',
  'key-name-long',
  'key-name-missing',
  'key-scope-missing',
  'local-model-failed',
  'local-model-load-failed',
  'mcp-config-invalid',
  'mcp-not-editable',
  'mcp-server-down',
  'message-gone',
  'model-disconnected',
  'model-http',
  'model-http-silent',
  'model-idle',
  'model-input-invalid',
  'model-stream-cut',
  'model-stream-error',
  'model-stream-error-silent',
  'model-timeout',
  'model-unreachable',
  'no-accounts',
  'not-found',
  'not-openai',
  'password-short',
  'plugin-agent-documents',
  'plugin-agent-not-object',
  'plugin-agent-schema',
  'plugin-agent-taken',
  'plugin-agent-tool-unknown',
  'plugin-empty',
  'plugin-member-missing',
  'plugin-tool-not-class',
  'response-too-large',
  'run-gone',
  'run-no-events',
  'run-not-waiting',
  'run-still-going',
  'run-storage-budget',
  'run-storage-spent',
  'runs-differ',
  'server-fault',
  'too-many-runs',
  'too-many-starts',
  'tool-address-refused',
  'tool-arguments-invalid',
  'tool-call-unknown',
  'tool-definition-invalid',
  'tool-failed',
  'tool-file-missing',
  'tool-name-taken',
  'tool-not-enabled',
  'tool-timeout',
  'tool-unavailable',
  'tool-unknown',
  'tools-refused',
  'upload-budget',
  'web-search-http',
  'web-search-not-json',
  'web-search-unreachable',
  'wrong-password',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** What a coded message fills in (the catalog's sentence names the same arguments). */
export type ErrorValues = Record<string, string | number>;

/** A refusal the page says in its language. `status` is the HTTP status a caller is answered with: 400 (their input)
 *  unless the refusal says otherwise (404 what is not theirs, 409 what is not in a state for it, 429 a limit). */
export class CodedError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly values?: ErrorValues,
    status = 400,
  ) {
    super(message);
    this.name = 'CodedError';
    this.status = status;
  }
}

/** `error` with a shared code and its values, its name and message kept: text made from it (what a model is told of a
 *  tool's failure, `Error: …`) reads as before, and the page says it in its language. */
export function withCode<E extends Error>(error: E, code: ErrorCode, values?: ErrorValues): E {
  return Object.assign(error, values ? { code, values } : { code });
}

/**
 * Whether `e` is an error raised under one of these names (the `name` each of our error classes sets). Errors are told
 * apart by name, never with `instanceof`: the server loads a module once per bundle that uses it (a page's, each
 * route's), and the process-wide services built by one bundle throw that bundle's classes, which are not the classes
 * another bundle imports (an upload refused as 404 in one bundle became a 500 in another). The lint rule
 * `no-restricted-syntax` (eslint.config.mjs) refuses `x instanceof SomethingError`.
 */
export function isErrorNamed<T extends Error = Error>(e: unknown, ...names: string[]): e is T {
  return e instanceof Error && names.includes(e.name);
}

/** The code and values of a coded error (a CodedError of any bundle, or a subclass), or undefined. */
export function codedOf(e: unknown): { code: ErrorCode; values?: ErrorValues } | undefined {
  if (!(e instanceof Error)) return undefined;
  const { code, values } = e as Error & { code?: unknown; values?: unknown };
  if (typeof code !== 'string' || !(ERROR_CODES as readonly string[]).includes(code)) return undefined;
  return values && typeof values === 'object'
    ? { code: code as ErrorCode, values: values as ErrorValues }
    : { code: code as ErrorCode };
}

/** An error's own HTTP status (404 for what is not the caller's, 403 for a tool not allowed, 400 for bad input), read
 *  from its `status` field whatever bundle made it, else `fallback`. An error with a 4xx status is a refusal, said to
 *  the caller as it is; one without is a fault, said only with an error id (lib/llm/error-report.ts faultMessage).
 *  The accounts library's refusals (better-auth's APIError) spell their status as a name and keep the number in
 *  `statusCode`. */
export function statusOf(e: unknown, fallback: number): number {
  const { status, statusCode, name } = (e ?? {}) as { status?: unknown; statusCode?: unknown; name?: unknown };
  const own = typeof status === 'number' ? status : name === 'APIError' ? statusCode : undefined;
  return typeof own === 'number' && own >= 400 && own < 600 ? own : fallback;
}
