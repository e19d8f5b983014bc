// The local model as createChatModel hands it out: its name and mode are known at once, and LocalChatModel (with the
// worker thread and node-llama-cpp behind it) loads on the first call. So building the model a configuration names
// loads none of the local model's code, and a server that never runs a local model never loads it.
import type { Pricing } from '../../protocol/events';
import type { FncallMode } from '../../protocol/enums';
import type { Embedder } from '../embeddings';
import type { ChatModel, ChatRequest, LlmCallResult, LlmEventSink } from '../model';
import type { LocalChatModel, LocalModelOptions } from './local-model';
import { localModelName } from './model-name';

export class DeferredLocalModel implements ChatModel {
  readonly model: string;
  readonly fncallMode: FncallMode;
  readonly file: string;
  readonly connection?: string;
  readonly pricing?: Pricing;
  readonly contextLength?: number;
  private made?: Promise<LocalChatModel>;

  constructor(
    private readonly options: LocalModelOptions,
    connection?: string,
    meter: { pricing?: Pricing; contextLength?: number } = {},
  ) {
    this.file = options.file;
    if (connection) this.connection = connection;
    if (meter.pricing) this.pricing = meter.pricing;
    if (meter.contextLength) this.contextLength = meter.contextLength;
    this.model = options.model ?? localModelName(options.file);
    this.fncallMode = options.fncallMode ?? 'native';
  }

  get maxInputTokens(): number {
    return this.options.generateCfg?.max_input_tokens ?? this.options.maxInputTokens ?? 58_000;
  }

  /** The LocalChatModel itself, loaded on first use (for info() and the exact token counts). */
  local(): Promise<LocalChatModel> {
    this.made ??= import('./local-model').then(
      ({ LocalChatModel }) => new LocalChatModel({ ...this.options, model: this.model, fncallMode: this.fncallMode }),
    );
    return this.made;
  }

  /** The local model's embedder, its GGUF loaded on the first embed(). */
  embedder(model?: string): Embedder {
    const name = model?.trim();
    return {
      id: `local:${name || this.file.split(/[\\/]/).pop()}`,
      embed: async (texts) => (await this.local()).embedder(name).embed(texts),
    };
  }

  async chat(req: ChatRequest, onEvent?: LlmEventSink): Promise<LlmCallResult> {
    return (await this.local()).chat(req, onEvent);
  }
}
