// Errors of the tool layer. Only ToolServiceError stops a run; everything else a tool throws is turned into text
// the model can read and react to (see run-tool.ts).

/**
 * The designated fatal tool error (Qwen-Agent's ToolServiceError / DocParserError): runTool re-throws it and the
 * agent run ends with it, instead of handing the model an error message.
 */
export class ToolServiceError extends Error {
  override name = 'ToolServiceError';
  readonly code?: string;
  readonly extra?: Record<string, unknown>;

  constructor(message: string, opts: { code?: string; extra?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, { cause: opts.cause });
    this.code = opts.code;
    this.extra = opts.extra;
  }
}

/** The model's arguments could not be parsed, or do not match the tool's parameters schema. */
export class ToolArgumentsError extends Error {
  override name = 'ToolArgumentsError';
}

/** A tool is declared wrongly (bad name, description or parameters schema); raised at registration/check time. */
export class ToolDefinitionError extends Error {
  override name = 'ToolDefinitionError';
}
