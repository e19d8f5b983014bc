// A model known by its configuration and made on its first call: an agent given Qwen-Agent's llm config dict takes
// it at once (a refused config throws when the agent is made), while the provider's SDK loads only when the agent
// first calls the model (importing the agents stays light: test/integration/agent-imports.test.ts).
import type { FncallMode } from '../protocol/enums';
import type { ModelConfig } from './model-config';
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

  async chat(req: ChatRequest, onEvent?: LlmEventSink): Promise<LlmCallResult> {
    return (await this.resolve()).chat(req, onEvent);
  }
}
