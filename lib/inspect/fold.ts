// Folds a run's events (as stored: requests and input included) into the inspector's model. Pure and linear in the
// number of events; the requests are kept by reference, never copied.
import { RUN_STATUSES, type HandoffReason, type RunStatus } from '../protocol/enums';
import type { AgentEvent, Usage } from '../protocol/events';
import type { RunOutcome } from '../protocol/enums';
import { endsRun, runningCall, unfinishedCall } from '../protocol/unfinished-calls';
import { callCost, contextGauge, runCost, sumCosts } from '../llm/cost';
import type { ChildRun, InspectedRun, Iteration, RetrievalStep, StopInfo, ToolStep } from './model';

function newIteration(n: number, startT: number): Iteration {
  return {
    n,
    format: 'none',
    startT,
    retries: [],
    response: {
      content: '',
      reasoning: '',
      separateReasoning: '',
      shownText: '',
      toolCalls: [],
      differsFromShown: false,
    },
    parseErrors: [],
    tools: [],
    retrievals: [],
    reactSteps: [],
    cost: { state: 'no-price' },
  };
}

export function explainStop(reason: RunStatus, maxLlmCalls?: number, errorMessage?: string): string {
  switch (reason) {
    case 'answered':
      return 'Answered: the model’s last reply called no tool.';
    case 'max-iterations':
      return `Stopped at the limit of ${maxLlmCalls ?? 'N'} model calls per run, before the model gave an answer.`;
    case 'aborted':
      return 'Stopped by the user (or the page was closed) before the run finished.';
    case 'error':
      return `Failed: ${errorMessage ?? 'an error ended the run.'}`;
    case 'tool-calls':
      return 'Ended handing tool calls back to the caller (the tools its client declared), as a model ends its turn with tool_calls.';
    case 'interrupted':
      return 'Interrupted: the server stopped before the run finished.';
    case 'running':
      return 'Still running (or cut off before it ended): no run-end event was recorded.';
  }
}

const ZERO: Usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };

function storedOutcome(status: string | undefined): RunOutcome | undefined {
  if (status === undefined || status === 'running') return undefined;
  return (RUN_STATUSES as readonly string[]).includes(status) ? (status as RunOutcome) : undefined;
}

/** The calls an ended run left without a result: running then, or never started (unfinished-calls.ts). */
function markUnfinished(iterations: readonly Iteration[], outcome: RunOutcome, awaiting: ReadonlySet<ToolStep>): void {
  const calls = iterations.flatMap((it) => it.tools);
  const running = runningCall(
    calls.map((s) => ({
      settled: s.ok !== undefined,
      endsRun: endsRun(s.error?.kind),
      awaiting: awaiting.has(s),
      client: s.client,
    })),
  );
  calls.forEach((step, i) => {
    if (step.ok === undefined && !step.client) step.unfinished = unfinishedCall(i === running, outcome);
  });
}

/** `status`: the run's as stored (`interrupted`: its server stopped before its run-end); a child run without a
 *  run-end is given its parent's outcome. */
export function foldInspection(events: readonly AgentEvent[], opts: { status?: string } = {}): InspectedRun {
  const run: InspectedRun = {
    runId: events[0]?.runId ?? '',
    agent: '',
    kind: undefined,
    model: '',
    toolNames: [],
    iterations: [],
    retrievals: [],
    stop: { reason: 'running', explanation: explainStop('running') },
    usage: { ...ZERO },
    llmCalls: 0,
    toolCalls: 0,
    durationMs: 0,
    cost: { state: 'no-price' },
  };
  const childEvents = new Map<string, { child: ChildRun; events: AgentEvent[] }>();
  let handoff: { round: number; reason: HandoffReason } | undefined;
  const byN = new Map<number, Iteration>();
  const at = (n: number, t: number): Iteration => {
    let it = byN.get(n);
    if (!it) {
      it = newIteration(n, t);
      byN.set(n, it);
      run.iterations.push(it);
    }
    return it;
  };
  let ended = false;
  let endT = 0;
  /** Iterations whose model call began (llm-start). */
  const called = new Set<number>();
  /** Calls the run paused before for the user's decision. */
  const awaiting = new Set<ToolStep>();
  let summedUsage: Usage = { ...ZERO };

  for (const e of events) {
    run.durationMs = Math.max(run.durationMs, e.t);
    switch (e.type) {
      case 'handoff':
        if (e.to && !e.user) handoff = { round: e.round, reason: e.reason };
        break;
      case 'child': {
        let entry = childEvents.get(e.event.runId);
        if (!entry) {
          const child: ChildRun = { agent: e.agent, startT: e.t, endT: e.t, run: foldInspection([]) };
          if (handoff) Object.assign(child, handoff);
          handoff = undefined;
          entry = { child, events: [] };
          childEvents.set(e.event.runId, entry);
          (run.children ??= []).push(child);
        }
        entry.child.endT = e.t;
        entry.events.push(e.event);
        break;
      }
      case 'run-start':
        run.runId = e.runId;
        run.agent = e.agent;
        run.kind = e.kind;
        run.model = e.model;
        if (e.connection) run.connection = e.connection;
        run.fncallMode = e.fncallMode;
        run.maxLlmCalls = e.maxLlmCalls;
        run.toolNames = e.tools;
        if (e.input) run.input = e.input;
        if (e.pricing) run.pricing = e.pricing;
        if (e.contextLength) run.contextLength = e.contextLength;
        break;
      case 'llm-start': {
        const it = at(e.iteration, e.t);
        called.add(e.iteration);
        it.startT = e.t;
        it.format = e.format;
        if (e.request) it.request = e.request;
        if (e.truncation) it.truncation = e.truncation;
        break;
      }
      case 'llm-retry':
        at(e.iteration, e.t).retries.push({ attempt: e.attempt, delayMs: e.delayMs, error: e.error });
        break;
      case 'reasoning-delta':
        at(e.iteration, e.t).response.reasoning += e.text;
        break;
      case 'text-delta':
        // A step heading (ArticleAgent's) is the agent's own text, not part of a model call's response.
        if (!e.newMessage) at(e.iteration, e.t).response.shownText += e.text;
        break;
      case 'llm-end': {
        const it = at(e.iteration, e.t);
        it.endT = e.t;
        it.durationMs = e.durationMs;
        it.finishReason = e.finishReason;
        if (e.usage) {
          it.usage = e.usage;
          summedUsage = {
            promptTokens: summedUsage.promptTokens + e.usage.promptTokens,
            completionTokens: summedUsage.completionTokens + e.usage.completionTokens,
            totalTokens: summedUsage.totalTokens + e.usage.totalTokens,
          };
        }
        if (e.ttftMs !== undefined) it.ttftMs = e.ttftMs;
        if (e.rawStream) it.rawStream = e.rawStream;
        const r = it.response;
        if (e.raw) {
          r.content = e.raw.content;
          // Reasoning that came out of think tags is already in the raw content; only reasoning_content is apart.
          r.separateReasoning = e.raw.reasoning ?? '';
          r.toolCalls = e.raw.toolCalls ?? [];
          r.differsFromShown = e.raw.content !== r.shownText;
        } else {
          r.content = r.shownText;
          r.separateReasoning = r.reasoning;
        }
        if (e.parseErrors) it.parseErrors = e.parseErrors;
        break;
      }
      case 'tool-call': {
        const step: ToolStep = { functionId: e.functionId, name: e.name, arguments: e.arguments, startT: e.t };
        if (e.client) step.client = true;
        at(e.iteration, e.t).tools.push(step);
        break;
      }
      case 'tool-approval': {
        const step = byN.get(e.iteration)?.tools.find((s) => s.functionId === e.functionId && s.endT === undefined);
        if (step) awaiting.add(step);
        break;
      }
      case 'tool-decision': {
        const step = byN.get(e.iteration)?.tools.find((s) => s.functionId === e.functionId && s.endT === undefined);
        if (step) awaiting.delete(step);
        break;
      }
      case 'tool-result': {
        const it = at(e.iteration, e.t);
        let step = it.tools.find((s) => s.functionId === e.functionId && s.endT === undefined);
        if (!step) {
          // A result with no recorded call (a log cut mid-way): keep it, timed from its duration.
          step = { functionId: e.functionId, name: e.name, arguments: '', startT: Math.max(0, e.t - e.durationMs) };
          it.tools.push(step);
        }
        awaiting.delete(step);
        step.endT = e.t;
        step.durationMs = e.durationMs;
        step.ok = e.ok;
        step.content = e.content;
        if (e.error) step.error = e.error;
        if (e.files) step.files = e.files;
        break;
      }
      case 'retrieval': {
        const step: RetrievalStep = {
          by: e.by,
          query: e.query,
          candidates: e.candidates,
          budgetTokens: e.budgetTokens,
          usedTokens: e.usedTokens,
          durationMs: e.durationMs,
          startT: Math.max(0, e.t - e.durationMs),
        };
        if (e.functionId) step.functionId = e.functionId;
        if (e.iteration > 0) at(e.iteration, step.startT).retrievals.push(step);
        else run.retrievals.push(step);
        break;
      }
      case 'react-step': {
        const { type: _t, runId: _r, iteration, t, ...step } = e;
        at(iteration, t).reactSteps.push(step);
        break;
      }
      case 'run-end': {
        ended = true;
        endT = e.t;
        run.usage = e.usage;
        run.llmCalls = e.llmCalls;
        run.toolCalls = e.toolCalls;
        run.durationMs = e.durationMs;
        const stop: StopInfo = {
          reason: e.reason,
          explanation: explainStop(e.reason, run.maxLlmCalls, e.error?.message),
        };
        if (e.error) stop.error = e.error;
        run.stop = stop;
        break;
      }
    }
  }
  const outcome: RunOutcome | undefined = ended ? (run.stop.reason as RunOutcome) : storedOutcome(opts.status);
  if (!ended && outcome) run.stop = { reason: outcome, explanation: explainStop(outcome) };
  for (const { child, events: inner } of childEvents.values())
    child.run = foldInspection(inner, outcome ? { status: outcome } : {});
  // A call the run's end cut (a stop, a failure) has no llm-end: it lasted until then, and answered what streamed.
  if (ended)
    for (const it of run.iterations)
      if (it.endT === undefined && called.has(it.n)) {
        it.cut = true;
        it.endT = Math.max(it.startT, endT);
        it.durationMs = it.endT - it.startT;
        it.response.content = it.response.shownText;
        it.response.separateReasoning = it.response.reasoning;
      }
  if (!ended) {
    run.usage = summedUsage;
    run.llmCalls = run.iterations.length;
    run.toolCalls = run.iterations.reduce((n, it) => n + it.tools.length, 0);
  }
  run.iterations.sort((a, b) => a.n - b.n);
  if (outcome) markUnfinished(run.iterations, outcome, awaiting);
  for (const it of run.iterations) {
    it.cost = callCost(it.usage, run.pricing);
    const context = contextGauge(it.usage?.promptTokens, run.contextLength);
    if (context) it.context = context;
  }
  run.cost = runCost(
    run.iterations.map((it) => it.usage),
    run.pricing,
  );
  if (run.children?.length)
    run.totalCost = sumCosts([
      { cost: run.cost, calls: run.iterations.length },
      ...run.children.map(({ run: child }) => ({ cost: child.totalCost ?? child.cost, calls: child.llmCalls })),
    ]);
  return run;
}
