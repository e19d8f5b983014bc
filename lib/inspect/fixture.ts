// "Save as fixture": a recorded run turned into a scenario for the scripted model server (the format is
// lib/protocol/fixture.ts), so the model's side of a real run can be replayed and the run becomes a test.
import type { AgentEvent } from '../protocol/events';
import { AGENT_KIND_NAMES } from '../protocol/enums';
import { FIXTURE_SCHEMA, type RunFixture, type ScriptedReply } from '../protocol/fixture';
import { foldInspection } from './fold';
import { contentText } from '../llm/schema';

export function runToFixture(events: readonly AgentEvent[], now = new Date()): RunFixture {
  const run = foldInspection(events);
  const replies: ScriptedReply[] = [];
  for (const it of run.iterations) {
    // A retried HTTP failure is replayed as the same status, so the retry path runs again too.
    for (const retry of it.retries) {
      if (retry.error.status) replies.push({ fault: { kind: 'status', status: retry.error.status } });
    }
    if (it.endT === undefined || it.cut) continue; // the call never finished: nothing to replay
    const r = it.response;
    const reply: ScriptedReply = {};
    if (r.content) reply.content = r.content;
    if (r.separateReasoning) reply.reasoning = r.separateReasoning;
    if (r.toolCalls.length)
      reply.toolCalls = r.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments }));
    if (it.finishReason) reply.finishReason = it.finishReason;
    if (it.usage) reply.usage = { prompt_tokens: it.usage.promptTokens, completion_tokens: it.usage.completionTokens };
    replies.push(reply);
  }
  const fixture: RunFixture = {
    fixture: FIXTURE_SCHEMA,
    // The agent as the inspector and the Runs page name it (its kind's class name, e.g. FnCallAgent), not the name
    // it gives its messages ("assistant", which reads as the Assistant kind). A log without the kind (older runs)
    // keeps that name.
    source: {
      runId: run.runId,
      model: run.model,
      agent: run.kind ? AGENT_KIND_NAMES[run.kind] : run.agent,
      ...(run.kind && { kind: run.kind }),
      exportedAt: now.toISOString(),
    },
    userMessages: (run.input ?? []).filter((m) => m.role === 'user').map((m) => contentText(m.content)),
    replies,
  };
  if (run.fncallMode) fixture.source.fncallMode = run.fncallMode;
  return fixture;
}

export function fixtureFileName(fixture: RunFixture): string {
  return `fixture-${fixture.source.runId.slice(0, 12)}.json`;
}
