// Native tool calls with a way back: a server that answers 400 to a request carrying `tools` (an Ollama model
// without tool support, vLLM started without a tool parser) gets the same call again once with the tools in the
// text (the nous format); the run is told (an llm-retry whose code is tools-refused, which the page shows on the
// turn), and the owner of the model is told too, so that it remembers and builds the next model with nous at once.
// A 400 that the text request gets as well was not about tools: that error stands and nothing is remembered.
import type { Pricing } from '../protocol/events';
import { TOOLS_REFUSED_CODE, type FncallMode } from '../protocol/enums';
import { errorInfo, isModelServiceError, ModelServiceError } from './errors';
import type { ChatModel, ChatRequest, LlmCallResult, LlmEventSink } from './model';

export { TOOLS_REFUSED_CODE };

export interface ToolFallbackOptions {
  /** The same model with tools in the text (made on the first refusal). */
  text: () => ChatModel;
  /** The server refused tools and the text format worked: remember it for this model. */
  onRefused?: (error: ModelServiceError) => void;
}

export class ToolFallbackModel implements ChatModel {
  readonly model: string;
  readonly fncallMode: FncallMode;
  readonly connection?: string;
  readonly pricing?: Pricing;
  readonly contextLength?: number;
  readonly maxInputTokens?: number;
  private textModel?: ChatModel;

  constructor(
    private readonly native: ChatModel,
    private readonly opts: ToolFallbackOptions,
  ) {
    this.model = native.model;
    this.fncallMode = native.fncallMode;
    this.connection = native.connection;
    if (native.pricing) this.pricing = native.pricing;
    if (native.contextLength) this.contextLength = native.contextLength;
    if (native.maxInputTokens !== undefined) this.maxInputTokens = native.maxInputTokens;
    if (native.embedder) this.embedder = (model) => native.embedder!(model);
  }

  readonly embedder?: ChatModel['embedder'];

  async chat(req: ChatRequest, onEvent: LlmEventSink = () => {}): Promise<LlmCallResult> {
    if (this.textModel) return this.textModel.chat(req, onEvent);
    const withTools = Boolean(req.functions?.length) && req.cfg?.function_choice !== 'none';
    let streamed = false;
    try {
      return await this.native.chat(req, (e) => {
        if (e.type === 'text' || e.type === 'reasoning') streamed = true;
        onEvent(e);
      });
    } catch (e) {
      if (!withTools || streamed || !isModelServiceError(e) || e.status !== 400) throw e;
      const text = this.opts.text();
      const notice = new ModelServiceError(
        `The model server refused native tool calls (${e.message}); the tools now go in the text (nous format), ` +
          'and this model keeps that from now on.',
        { status: 400, code: TOOLS_REFUSED_CODE, values: { detail: e.message } },
      );
      onEvent({ type: 'retry', attempt: 1, delayMs: 0, error: errorInfo(notice) });
      const result = await text.chat(req, onEvent);
      this.textModel = text;
      this.opts.onRefused?.(e);
      return result;
    }
  }
}
