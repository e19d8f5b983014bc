// A model known by its configuration and made on its first call: an agent given Qwen-Agent's llm config dict takes
// it at once (a refused config throws when the agent is made), while the provider's SDK loads only when the agent
// first calls the model (importing the agents stays light: test/integration/agent-imports.test.ts).
import type { FncallMode } from '../protocol/enums';
import type { ModelConfig } from './model-config';
import { serverEmbedderId, type Embedder } from './embeddings';
import type { ChatModel, ChatRequest, LlmCallResult, LlmEventSink } from './model';

export class DeferredChatModel implements ChatModel {
  readonly model: string;
  readonly fncallMode: FncallMode;
  private built?: Promise<ChatModel>;

  constructor(private readonly config: ModelConfig & { model: string; fncallMode: FncallMode }) {
    this.model = config.model;
    this.fncallMode = config.fncallMode;
  }

  /** The model itself (made on first use). */
  resolve(): Promise<ChatModel> {
    return (this.built ??= import('./factory').then(({ createChatModel }) => createChatModel(this.config)));
  }

  /** The made model's embedder; its id from the configuration, so stored vectors are found before the model is made. */
  embedder(model?: string): Embedder {
    const name = model?.trim();
    const id = this.config.local
      ? `local:${name || this.config.local.file.split(/[\\/]/).pop()}`
      : serverEmbedderId(this.config.baseURL ?? 'https://api.openai.com/v1', name || this.model);
    return {
      id,
      embed: async (texts, opts) => {
        const made = await this.resolve();
        if (!made.embedder) throw new Error('this model makes no embeddings');
        return made.embedder(name).embed(texts, opts);
      },
    };
  }

  async chat(req: ChatRequest, onEvent?: LlmEventSink): Promise<LlmCallResult> {
    return (await this.resolve()).chat(req, onEvent);
  }
}
