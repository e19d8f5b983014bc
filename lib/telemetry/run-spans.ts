// Folds runs' events into OpenTelemetry spans, following the GenAI semantic conventions: one `invoke_agent` span per
// run (the trace's root), and under it a `chat` span per model call, an `execute_tool` span per tool call and a
// `retrieval` span per document search. Every event carries `t` (ms since its run started), so each span gets the
// times the run itself measured, whenever the event reaches this fold.
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context } from '@opentelemetry/api';
import type { Span, Tracer } from '@opentelemetry/api';
import type { AgentEvent, EventOf, ToolDecision } from '../protocol/events';
import { toWireMessages } from '../llm/oai-wire';
import { inputMessages, outputMessages, toolResult } from './content';

export const TRACER_NAME = 'agent-studio';
/** Every model server this project talks to speaks OpenAI's Chat Completions API. */
const PROVIDER = 'openai';
/** A run whose end never arrives (its events stopped: a store failure) must not hold memory for ever. */
export const MAX_OPEN_RUNS = 10_000;

export interface RunSpansOptions {
  captureContent: boolean;
  /** Starts a run's root span; the exporter uses it to give the trace the run's id. */
  startRoot?: (runId: string, start: () => Span) => Span;
}

interface OpenChat {
  iteration: number;
  span: Span;
  text: string;
  reasoning: string;
  toolCalls: { id: string; name: string; arguments: string }[];
  finishReason?: string;
  /** Set by llm-end: the span then waits for the call's tool-call events (they follow llm-end) before it ends. */
  endAt?: number;
}

interface OpenRun {
  conversationId: string;
  /** Epoch ms of the run's t = 0. */
  origin: number;
  span: Span;
  ctx: Context;
  model: string;
  /** Iterations before this one were copied from another run (a replay). */
  copiedBefore: number;
  chat?: OpenChat;
  /** Tool calls announced and not yet answered, by iteration and function id. */
  calls: Map<string, EventOf<'tool-call'>>;
  /** What the user decided for the calls the run paused before, by `<iteration>:<functionId>`. */
  decisions: Map<string, ToolDecision['action']>;
  /** The latest model call's answer text (only kept when content is captured). */
  answer: string;
}

/** Epoch milliseconds with sub-millisecond precision. */
export function epochNow(): number {
  return performance.timeOrigin + performance.now();
}

function errorStatus(span: Span, type: string, message: string): void {
  span.setAttribute('error.type', type);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

function setDefined(attributes: Attributes, key: string, value: unknown): void {
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') attributes[key] = value;
}

export class RunSpans {
  private readonly runs = new Map<string, OpenRun>();

  constructor(
    private readonly tracer: Tracer,
    private readonly opts: RunSpansOptions,
  ) {}

  get openRuns(): number {
    return this.runs.size;
  }

  /** `at` is when the event was seen (epoch ms); only a run-start's matters, to place the run's t = 0. */
  record(event: AgentEvent, conversationId: string, at = epochNow()): void {
    if (event.type === 'run-start') return this.start(event, conversationId, at);
    const run = this.runs.get(event.runId);
    if (!run) return;
    if (run.chat?.endAt !== undefined && !(event.type === 'tool-call' && event.iteration === run.chat.iteration))
      this.endChat(run);
    switch (event.type) {
      case 'llm-start':
        return this.chatStart(run, event);
      case 'llm-retry':
        run.chat?.span.addEvent(
          'retry',
          {
            'error.type': event.error.status ? String(event.error.status) : event.error.name,
            'agent_studio.retry.attempt': event.attempt,
            'agent_studio.retry.delay_ms': event.delayMs,
            'agent_studio.retry.error': event.error.message,
          },
          run.origin + event.t,
        );
        return;
      case 'text-delta':
        if (this.opts.captureContent && run.chat) run.chat.text += event.text;
        return;
      case 'reasoning-delta':
        if (this.opts.captureContent && run.chat) run.chat.reasoning += event.text;
        return;
      case 'llm-end':
        return this.chatEnd(run, event);
      case 'tool-call':
        run.calls.set(`${event.iteration}:${event.functionId}`, event);
        if (run.chat?.iteration === event.iteration && !run.chat.toolCalls.some((c) => c.id === event.functionId))
          run.chat.toolCalls.push({ id: event.functionId, name: event.name, arguments: event.arguments });
        return;
      case 'tool-approval':
        run.span.addEvent(
          'tool-approval',
          { 'gen_ai.tool.name': event.name, 'gen_ai.tool.call.id': event.functionId },
          run.origin + event.t,
        );
        return;
      case 'tool-decision':
        run.decisions.set(`${event.iteration}:${event.functionId}`, event.decision.action);
        return;
      case 'tool-result':
        return this.tool(run, event);
      case 'retrieval':
        return this.retrieval(run, event);
      case 'run-end':
        return this.end(run, event);
    }
  }

  private start(e: EventOf<'run-start'>, conversationId: string, at: number): void {
    const stale = this.runs.get(e.runId);
    if (stale) this.abandon(e.runId, stale);
    if (this.runs.size >= MAX_OPEN_RUNS) {
      const [oldestId, oldest] = this.runs.entries().next().value!;
      this.abandon(oldestId, oldest);
    }
    const origin = at - e.t;
    const attributes: Attributes = {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.provider.name': PROVIDER,
      'gen_ai.agent.name': e.agent,
      'gen_ai.request.model': e.model,
      'gen_ai.conversation.id': conversationId,
      'agent_studio.run.id': e.runId,
      'agent_studio.agent.kind': e.kind,
      'agent_studio.run.max_llm_calls': e.maxLlmCalls,
      'agent_studio.run.tools': e.tools,
    };
    setDefined(attributes, 'agent_studio.fncall_mode', e.fncallMode);
    setDefined(attributes, 'agent_studio.replay.of', e.replay?.of);
    setDefined(attributes, 'agent_studio.replay.from_iteration', e.replay?.fromIteration);
    if (this.opts.captureContent && e.input) {
      try {
        attributes['gen_ai.input.messages'] = inputMessages(
          toWireMessages(e.input) as unknown as Record<string, unknown>[],
        );
      } catch {
        // content that cannot be shown is left out; the run's trace still goes
      }
    }
    const begin = () =>
      this.tracer.startSpan(
        `invoke_agent ${e.agent}`,
        { kind: SpanKind.INTERNAL, root: true, startTime: origin + e.t, attributes },
        ROOT_CONTEXT,
      );
    const span = this.opts.startRoot ? this.opts.startRoot(e.runId, begin) : begin();
    this.runs.set(e.runId, {
      conversationId,
      origin,
      span,
      ctx: trace.setSpan(ROOT_CONTEXT, span),
      model: e.model,
      copiedBefore: e.replay?.fromIteration ?? 0,
      calls: new Map(),
      decisions: new Map(),
      answer: '',
    });
  }

  private child(run: OpenRun, name: string, kind: SpanKind, startMs: number, attributes: Attributes): Span {
    attributes['gen_ai.conversation.id'] = run.conversationId;
    return this.tracer.startSpan(name, { kind, startTime: run.origin + startMs, attributes }, run.ctx);
  }

  private iterationAttributes(run: OpenRun, iteration: number, attributes: Attributes): Attributes {
    attributes['agent_studio.iteration'] = iteration;
    if (iteration < run.copiedBefore) attributes['agent_studio.copied'] = true;
    return attributes;
  }

  private chatStart(run: OpenRun, e: EventOf<'llm-start'>): void {
    if (run.chat?.iteration === e.iteration) return;
    if (run.chat) this.endChat(run, e.t);
    const model = e.request?.model ?? run.model;
    const attributes = this.iterationAttributes(run, e.iteration, {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': PROVIDER,
      'gen_ai.request.model': model,
      'agent_studio.fncall_format': e.format,
    });
    const params = e.request?.params ?? {};
    setDefined(attributes, 'gen_ai.request.temperature', params.temperature);
    setDefined(attributes, 'gen_ai.request.top_p', params.top_p);
    setDefined(attributes, 'gen_ai.request.max_tokens', params.max_tokens);
    setDefined(attributes, 'gen_ai.request.seed', params.seed);
    setDefined(attributes, 'gen_ai.request.stream', params.stream);
    if (e.request?.stop?.length) attributes['gen_ai.request.stop_sequences'] = e.request.stop;
    if (e.truncation) attributes['agent_studio.input_truncated_tokens'] = e.truncation.inputTokens;
    if (this.opts.captureContent && e.request) attributes['gen_ai.input.messages'] = inputMessages(e.request.messages);
    const span = this.child(run, `chat ${model}`, SpanKind.CLIENT, e.t, attributes);
    run.chat = { iteration: e.iteration, span, text: '', reasoning: '', toolCalls: [] };
  }

  private chatEnd(run: OpenRun, e: EventOf<'llm-end'>): void {
    const chat = run.chat;
    if (!chat || chat.iteration !== e.iteration) return;
    const span = chat.span;
    span.setAttribute('gen_ai.response.finish_reasons', [e.finishReason]);
    if (e.usage) {
      span.setAttribute('gen_ai.usage.input_tokens', e.usage.promptTokens);
      span.setAttribute('gen_ai.usage.output_tokens', e.usage.completionTokens);
    }
    if (e.ttftMs !== undefined) span.setAttribute('gen_ai.response.time_to_first_chunk', e.ttftMs / 1000);
    if (e.parseErrors?.length) span.setAttribute('agent_studio.parse_errors', e.parseErrors);
    chat.finishReason = e.finishReason;
    // What the model wrote, markup included, when it differs from what was streamed.
    if (e.raw?.content) chat.text = e.raw.content;
    if (e.raw?.reasoning) chat.reasoning = e.raw.reasoning;
    for (const c of e.raw?.toolCalls ?? []) chat.toolCalls.push(c);
    chat.endAt = e.t;
  }

  /** Ends the open model call: at its llm-end, or at `t` when it never ended (the run stopped or failed inside). */
  private endChat(run: OpenRun, t?: number): void {
    const chat = run.chat!;
    run.chat = undefined;
    if (this.opts.captureContent) {
      chat.span.setAttribute('gen_ai.output.messages', outputMessages(chat));
      run.answer = chat.text;
    }
    chat.span.end(run.origin + (chat.endAt ?? t ?? 0));
  }

  private tool(run: OpenRun, e: EventOf<'tool-result'>): void {
    const key = `${e.iteration}:${e.functionId}`;
    const decision = run.decisions.get(key);
    run.calls.delete(key);
    run.decisions.delete(key);
    const attributes = this.iterationAttributes(run, e.iteration, {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': e.name,
      'gen_ai.tool.call.id': e.functionId,
      'gen_ai.tool.type': 'function',
    });
    setDefined(attributes, 'agent_studio.tool.decision', decision);
    if (e.files?.length) attributes['agent_studio.tool.files'] = e.files.length;
    // Stopped while it ran: unfinished, as a call the run never answered, and no more an error than the stop is.
    const stopped = e.error?.kind === 'stopped';
    if (stopped) attributes['agent_studio.tool.unfinished'] = true;
    if (this.opts.captureContent) {
      attributes['gen_ai.tool.call.arguments'] = e.arguments; // as it ran: the user's edit, when there was one
      attributes['gen_ai.tool.call.result'] = toolResult(e.content);
    }
    const span = this.child(run, `execute_tool ${e.name}`, SpanKind.INTERNAL, e.t - e.durationMs, attributes);
    if (!e.ok && !stopped) errorStatus(span, e.error?.kind ?? '_OTHER', e.error?.message ?? toolResult(e.content));
    span.end(run.origin + e.t);
  }

  private retrieval(run: OpenRun, e: EventOf<'retrieval'>): void {
    const attributes = this.iterationAttributes(run, e.iteration, {
      'gen_ai.operation.name': 'retrieval',
      'agent_studio.retrieval.by': e.by,
      'agent_studio.retrieval.candidates': e.candidates.length,
      'agent_studio.retrieval.used': e.candidates.filter((c) => c.used).length,
      'agent_studio.retrieval.budget_tokens': e.budgetTokens,
      'agent_studio.retrieval.used_tokens': e.usedTokens,
    });
    setDefined(attributes, 'gen_ai.tool.call.id', e.functionId);
    setDefined(attributes, 'agent_studio.retrieval.mode', e.mode);
    if (this.opts.captureContent) attributes['gen_ai.retrieval.query.text'] = e.query;
    const span = this.child(run, 'retrieval', SpanKind.INTERNAL, e.t - e.durationMs, attributes);
    if (e.errors?.length) span.setAttribute('agent_studio.retrieval.errors', e.errors);
    span.end(run.origin + e.t);
  }

  private end(run: OpenRun, end: EventOf<'run-end'>): void {
    // The run-end the writer makes for a run whose log failed has no clock of its own (t = 0): the run ends now.
    const e = end.t > 0 ? end : { ...end, t: epochNow() - run.origin };
    this.runs.delete(e.runId);
    const failed = e.reason === 'error';
    const errorType = e.error ? (e.error.status ? String(e.error.status) : e.error.code || e.error.name) : '_OTHER';
    if (run.chat) {
      const open = run.chat.endAt === undefined;
      if (open && failed) errorStatus(run.chat.span, errorType, e.error?.message ?? 'the model call failed');
      this.endChat(run, e.t);
    }
    // Calls the run never answered: it stopped, or failed, while they ran or waited for approval.
    for (const call of run.calls.values()) {
      const span = this.child(
        run,
        `execute_tool ${call.name}`,
        SpanKind.INTERNAL,
        call.t,
        this.iterationAttributes(run, call.iteration, {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': call.name,
          'gen_ai.tool.call.id': call.functionId,
          'gen_ai.tool.type': 'function',
          'agent_studio.tool.unfinished': true,
        }),
      );
      if (failed) errorStatus(span, errorType, e.error?.message ?? 'the run failed');
      span.end(run.origin + e.t);
    }
    const span = run.span;
    span.setAttribute('agent_studio.run.stop_reason', e.reason);
    span.setAttribute('agent_studio.run.llm_calls', e.llmCalls);
    span.setAttribute('agent_studio.run.tool_calls', e.toolCalls);
    span.setAttribute('gen_ai.usage.input_tokens', e.usage.promptTokens);
    span.setAttribute('gen_ai.usage.output_tokens', e.usage.completionTokens);
    if (this.opts.captureContent)
      span.setAttribute(
        'gen_ai.output.messages',
        outputMessages({ text: run.answer, reasoning: '', toolCalls: [], finishReason: e.reason }),
      );
    if (failed) errorStatus(span, errorType, e.error?.message ?? 'the run failed');
    span.end(run.origin + e.t);
  }

  /** A run whose events stopped before its end: its spans end now, marked as such. */
  private abandon(runId: string, run: OpenRun): void {
    this.runs.delete(runId);
    const now = epochNow();
    if (run.chat) {
      run.chat.span.end(run.chat.endAt !== undefined ? run.origin + run.chat.endAt : now);
      run.chat = undefined;
    }
    errorStatus(run.span, 'abandoned', "the run's end was never seen");
    run.span.end(now);
  }
}
