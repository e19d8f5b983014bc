// Errors the page says in its own language: the server raises them with a code (the page's catalog has a sentence
// for each, under `errors`) and an English message for everything else that reads it (logs, the HTTP API, a model).

export const ERROR_CODES = [
  'address-refused',
  'admin-only',
  'bad-sign-up-mode',
  'connection-key-needed',
  'conversation-gone',
  'delete-self',
  'disable-self',
  'empty-title',
  'found-admin-only',
  'invite-gone',
  'key-name-missing',
  'mcp-not-editable',
  'no-accounts',
  'not-found',
  'not-openai',
  'password-short',
  'run-gone',
  'runs-differ',
  'too-many-runs',
  'too-many-starts',
  'upload-budget',
  'wrong-password',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** What a coded message fills in (the catalog's sentence names the same arguments). */
export type ErrorValues = Record<string, string | number>;

export class CodedError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly values?: ErrorValues,
  ) {
    super(message);
    this.name = 'CodedError';
  }
}
