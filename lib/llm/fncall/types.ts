// The contract shared by the prompt-based function-calling formats (nous, qwen ✿). A format turns a tool-using
// history into plain chat messages, and turns the model's plain-text answer back into function_call messages.
import type { FncallMode } from '../../protocol/enums';
import type { FunctionDef, Lang, Message } from '../schema';

/** The modes that put tools into the prompt text (native uses the tools API). */
export type FncallFormatName = Exclude<FncallMode, 'native'>;

export interface RenderOptions {
  lang: Lang;
  parallelFunctionCalls: boolean;
  /** 'auto', 'none', or the name of the tool the model must call (qwen only). */
  functionChoice: 'auto' | 'none' | string;
}

export interface ParseOptions {
  parallelFunctionCalls: boolean;
  /** The functionChoice the request was rendered with; qwen restores the call prefix it pre-filled. */
  functionChoice?: string;
}

export interface ParseResult {
  messages: Message[];
  /** Human-readable notes on what failed to parse or was discarded (shown in the trace inspector). */
  errors: string[];
}

export interface FncallFormat {
  readonly name: FncallFormatName;
  /** A call starts where this marker appears in the output; the streaming layer stops showing text there. */
  readonly toolStartMarker: string;
  /** Stop words this format adds to the request. */
  readonly stopWords: string[];
  /** What the model's answer may start with because the prompt ended mid-line (qwen: ": " after ✿RETURN✿); never
   *  shown as text. */
  readonly continuationPrefixes?: readonly string[];
  /** Where the answer to a forced call starts (qwen pre-fills "✿FUNCTION✿: name", so the model writes ✿ARGS✿). */
  readonly forcedCallMarker?: string;
  /**
   * History (system/user/assistant/function, with function_call/extra) + tools → system/user/assistant messages with
   * string (or text-item) content, ready for a plain chat completion. Ends with a user message: a trailing partial
   * assistant message is folded into the last user message so a chat endpoint can "continue" it.
   */
  render(messages: Message[], functions: FunctionDef[], opts: RenderOptions): Message[];
  /**
   * Model output text (reasoning already removed) → an assistant text message for the text before the first call
   * (if not blank), then one assistant message per call with function_call {name, arguments} and
   * extra.function_id '1','2',…. Never throws; works on incomplete (streaming) text.
   */
  parse(text: string, opts: ParseOptions): ParseResult;
}
