// Running a replay: the new run starts from the state a plan describes (plan.ts). The agent goes on from iteration
// N with the counts and clock of the iterations before it; this puts those iterations' events, copied from the
// original run, right after the new run's run-start, so its log tells the whole story.
import type { Agent, RunOptions } from '../agent';
import type { ResumeState } from '../agent/run-state';
import type { AgentEvent } from '../protocol/events';
import type { ReplayPlan } from './plan';

/** What the agent needs to go on where the copied iterations end. */
export function resumeState(plan: ReplayPlan): ResumeState {
  const usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  let toolCalls = 0;
  let elapsedMs = 0;
  for (const e of plan.events) {
    if (e.type === 'tool-result') toolCalls++;
    if (e.type === 'llm-end' && e.usage) {
      usage.promptTokens += e.usage.promptTokens;
      usage.completionTokens += e.usage.completionTokens;
      usage.totalTokens += e.usage.totalTokens;
    }
    elapsedMs = Math.max(elapsedMs, e.t);
  }
  return {
    messages: plan.messages,
    iterations: plan.replay.fromIteration - 1,
    toolCalls,
    usage,
    elapsedMs,
    replay: plan.replay,
  };
}

/** The events of a replay run: the agent's run-start, the copied iterations (as events of the new run, with their
 *  original timings), then the agent's own. */
export async function* replayEvents(
  agent: Agent,
  plan: ReplayPlan,
  opts: Omit<RunOptions, 'resume'> = {},
): AsyncGenerator<AgentEvent> {
  let copied = false;
  for await (const event of agent.runEvents(plan.input, { ...opts, resume: resumeState(plan) })) {
    yield event;
    // A run that failed before its loop (an MCP server down) says so without the copied iterations.
    if (!copied && event.type === 'run-start' && event.replay) {
      copied = true;
      for (const e of plan.events) yield { ...e, runId: event.runId };
    }
  }
}
