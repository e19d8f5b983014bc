import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../protocol/events';
import type { Agent } from './agent';
import { runChild } from './child-run';
import { RunState, type RunOptions } from './run-state';

/** A member that records the options its run got, and ends at once. */
function recordingAgent(seen: RunOptions[]): Agent {
  return {
    name: 'Reader',
    async *runEvents(_messages: readonly unknown[], opts: RunOptions = {}): AsyncGenerator<AgentEvent> {
      seen.push(opts);
      yield {
        type: 'run-end',
        reason: 'answered',
        llmCalls: 0,
        toolCalls: 0,
        usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
        durationMs: 0,
        runId: opts.runId ?? 'x',
        iteration: 0,
        t: 0,
      } as AgentEvent;
    },
  } as unknown as Agent;
}

describe('a child run', () => {
  it('runs with its parent’s access: the uploads it may read, its conversation, work directory and pause', async () => {
    const uploadAccess = async (hash: string) => hash === 'mine';
    const beforeTool = async () => ({ action: 'run' as const });
    const parent: RunOptions = {
      runId: 'parent',
      conversationId: 'c1',
      workDir: '/tmp/w',
      uploadAccess,
      beforeTool,
      generateCfg: { tool_images: true },
      clientTools: [{ name: 'client_only', description: '', parameters: {} }],
      resume: {
        messages: [],
        iterations: 1,
        toolCalls: 0,
        usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
        elapsedMs: 0,
        replay: { fromRunId: 'r', fromIteration: 1 },
      } as unknown as RunOptions['resume'],
    };
    const run = new RunState('parent', new AbortController().signal, parent, () => {});
    const seen: RunOptions[] = [];
    await runChild(recordingAgent(seen), [], run);
    const child = seen[0]!;
    expect(child.uploadAccess).toBe(uploadAccess);
    expect(child.beforeTool).toBe(beforeTool);
    expect(child).toMatchObject({ conversationId: 'c1', workDir: '/tmp/w', generateCfg: { tool_images: true } });
    // What is the parent run's own stays with it.
    expect(child.runId).not.toBe('parent');
    expect(child.clientTools).toBeUndefined();
    expect(child.resume).toBeUndefined();
    expect(child.signal).toBe(run.signal);
  });
});
