// A run's feed (lib/chat/feed.ts) as OpenAI Chat Completions answers: `chat.completion.chunk`s while it streams, or
// one `chat.completion` at its end. The answer text is `content`, thinking is `reasoning_content` (as DeepSeek and
// vLLM send it), calls of the caller's own tools are `tool_calls` (finish_reason "tool_calls"), and totals are
// `usage`. Each step the agent takes itself (a tool it ran and its result, a Router's or GroupChat's handoff) goes
// out as a chunk whose choice has an empty delta and whose extra top-level field `agent_step` describes it:
// standard clients read only `choices[].delta` and see an empty delta (as in any stream's last chunk), ours reads
// the step. A child run's text (a helper's, a member's) is the answer's text.
import { contentText } from '../llm/schema';
import type { StopReason } from '../protocol/enums';
import type { ErrorInfo, FeedEvent, Usage } from '../protocol/events';

export interface AgentStep {
  type: 'tool_call' | 'tool_result' | 'handoff';
  /** The agent that took the step (a child run's name; absent for the top run). */
  agent?: string;
  id?: string;
  name?: string;
  arguments?: string;
  ok?: boolean;
  content?: string;
  to?: string;
  reason?: string;
}

/** A call as a whole message holds it; a stream's delta also says its `index`. */
export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface WireToolCallDelta extends WireToolCall {
  index: number;
}

export interface ChunkDelta {
  role?: 'assistant';
  content?: string;
  reasoning_content?: string;
  tool_calls?: WireToolCallDelta[];
}

export interface CompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: { index: 0; delta: ChunkDelta; finish_reason: FinishReason | null }[];
  usage?: WireUsage | null;
  agent_step?: AgentStep;
}

export type FinishReason = 'stop' | 'length' | 'tool_calls';

export interface WireUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface Completion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: {
    index: 0;
    message: {
      role: 'assistant';
      content: string | null;
      reasoning_content?: string;
      tool_calls?: WireToolCall[];
    };
    finish_reason: FinishReason;
  }[];
  usage: WireUsage;
  /** The steps the agent took itself, in order (the same as the stream's agent_step chunks). */
  agent_steps: AgentStep[];
}

/** The run failed: answered in OpenAI's error shape (lib/openai-api/run-failure.ts). */
export class RunFailedError extends Error {
  override name = 'RunFailedError';
  constructor(
    readonly error: ErrorInfo,
    /** A tool of the agent's ran or started in the run: asking again would run it again. */
    readonly toolsRan: boolean,
  ) {
    super(error.message);
  }
}

/** Folds a run's feed, event by event, into chunks; at the end, into one completion. */
export class CompletionFold {
  readonly created = Math.floor(Date.now() / 1000);
  private content = '';
  private reasoning = '';
  private readonly toolCalls: WireToolCallDelta[] = [];
  private readonly steps: AgentStep[] = [];
  private finish?: FinishReason;
  private usage?: WireUsage;
  private error?: ErrorInfo;
  private toolsRan = false;
  /** The run whose text came last (a new child's text starts a new paragraph). */
  private lastTextRun = '';

  constructor(
    readonly id: string,
    readonly model: string,
  ) {}

  /** The first chunk of a stream: the role. */
  start(): CompletionChunk {
    return this.chunk({ role: 'assistant', content: '' });
  }

  /** The chunks one feed event makes (none for most). */
  apply(e: FeedEvent, agent?: string, runKey = ''): CompletionChunk[] {
    if (ranTool(e)) this.toolsRan = true;
    switch (e.type) {
      case 'child':
        // A step the agent read (ParallelDocQA's readers, a keyword strategy) is not part of the answer.
        if (e.aside) return [];
        return this.apply(e.event, e.agent, `${runKey}/${e.event.runId}`);
      case 'text-delta': {
        // ReAct's transcript: its final answer is the answer; the rest is the agent's reasoning.
        if (e.part && e.part !== 'answer') return [];
        return this.say(e.text, runKey);
      }
      case 'react-step':
        // A ReAct reply that skipped the format streamed as a thought; the whole reply is the answer.
        return e.plainReply && e.finalAnswer ? this.say(e.finalAnswer, runKey) : [];
      case 'reasoning-delta':
        this.reasoning += e.text;
        return [this.chunk({ reasoning_content: e.text })];
      case 'tool-call': {
        if (e.client && !agent) {
          const call: WireToolCallDelta = {
            index: this.toolCalls.length,
            id: e.functionId,
            type: 'function',
            function: { name: e.name, arguments: e.arguments },
          };
          this.toolCalls.push(call);
          return [this.chunk({ tool_calls: [call] })];
        }
        return [this.step({ type: 'tool_call', id: e.functionId, name: e.name, arguments: e.arguments }, agent)];
      }
      case 'tool-result':
        return [
          this.step(
            { type: 'tool_result', id: e.functionId, name: e.name, ok: e.ok, content: contentText(e.content) },
            agent,
          ),
        ];
      case 'handoff': {
        const step: AgentStep = { type: 'handoff', reason: e.reason };
        if (e.to) step.to = e.to;
        return [this.step(step, agent)];
      }
      case 'run-end': {
        if (agent) return [];
        if (e.reason === 'error') this.error = e.error ?? { name: 'Error', message: 'The run failed.' };
        this.finish = finishReason(e.reason, e.finishReason);
        this.usage = wireUsage(e.usage);
        return [];
      }
      default:
        return [];
    }
  }

  /** The stream's last chunks once the run ended: the finish reason, then usage when asked. Throws RunFailedError
   *  when the run failed. */
  end(includeUsage: boolean): CompletionChunk[] {
    if (this.error !== undefined) throw new RunFailedError(this.error, this.toolsRan);
    const out = [
      { ...this.chunk({}), choices: [{ index: 0 as const, delta: {}, finish_reason: this.finish ?? 'stop' }] },
    ];
    if (includeUsage) out.push({ ...this.chunk({}), choices: [], usage: this.usage ?? wireUsage() });
    return out;
  }

  /** The whole answer (a non-streamed request). Throws RunFailedError when the run failed. */
  completion(): Completion {
    if (this.error !== undefined) throw new RunFailedError(this.error, this.toolsRan);
    const message: Completion['choices'][number]['message'] = {
      role: 'assistant',
      content: this.content || (this.toolCalls.length ? null : ''),
    };
    if (this.reasoning) message.reasoning_content = this.reasoning;
    if (this.toolCalls.length) message.tool_calls = this.toolCalls.map(({ index: _, ...call }) => call);
    return {
      id: this.id,
      object: 'chat.completion',
      created: this.created,
      model: this.model,
      choices: [{ index: 0, message, finish_reason: this.finish ?? 'stop' }],
      usage: this.usage ?? wireUsage(),
      agent_steps: this.steps,
    };
  }

  /** Answer text, as a content chunk. */
  private say(answer: string, runKey: string): CompletionChunk[] {
    let text = answer;
    if (this.content && runKey !== this.lastTextRun) text = `\n\n${text}`;
    this.lastTextRun = runKey;
    this.content += text;
    return [this.chunk({ content: text })];
  }

  private chunk(delta: ChunkDelta): CompletionChunk {
    return {
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.model,
      choices: [{ index: 0, delta, finish_reason: null }],
    };
  }

  private step(step: AgentStep, agent: string | undefined): CompletionChunk {
    const named = agent ? { ...step, agent } : step;
    this.steps.push(named);
    return { ...this.chunk({}), agent_step: named };
  }
}

/** A tool of the agent's (not the caller's, which is handed back, not run) was called, in the run or a child run:
 *  from then on it may have run. */
function ranTool(e: FeedEvent): boolean {
  if (e.type === 'child') return ranTool(e.event);
  return (e.type === 'tool-call' && !e.client) || e.type === 'tool-result';
}

/** A run's end as OpenAI's finish_reason: an answer cut by max_tokens is "length", as the model said. */
function finishReason(reason: StopReason, lastCall: string | undefined): FinishReason {
  if (reason === 'tool-calls') return 'tool_calls';
  if (reason === 'max-iterations') return 'length';
  if (reason === 'answered' && lastCall === 'length') return 'length';
  return 'stop';
}

function wireUsage(u?: Usage): WireUsage {
  return {
    prompt_tokens: u?.promptTokens ?? 0,
    completion_tokens: u?.completionTokens ?? 0,
    total_tokens: u?.totalTokens ?? 0,
  };
}
