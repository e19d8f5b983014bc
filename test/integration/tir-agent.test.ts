// TIRMathAgent and python_executor over real HTTP to the scripted model server, with code run in the real sandbox
// code_interpreter uses (CODE_INTERPRETER_BACKEND=auto: CPython in bubblewrap where the host has it, else Pyodide):
// each model call
// stops at "```output", the last ```python block of the call runs in a fresh interpreter, and its output comes back
// as an ```output block that the next request carries.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AgentEventSchema, TIRMathAgent, foldEvents } from '../../lib/agent';
import { foldRun } from '../../lib/chat/view';
import { feedEvent } from '../../lib/chat/feed';
import { createChatModel } from '../../lib/llm';
import type { FeedEvent } from '../../lib/protocol/events';
import { loadConfig } from '../../lib/config';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { createTool, runTool, toolSettings, type ToolSettings } from '../../tools';
import { collectEvents, ofType } from '../support/run';

const SLOW = 180_000; // interpreter start-up is seconds, more on a loaded machine
const dataDir = mkdtempSync(path.join(tmpdir(), 'tir-'));
/** What the tools get from the configuration, as a composition root makes it. */
let settings: ToolSettings;
let server: ModelServer;

beforeAll(async () => {
  settings = toolSettings(
    loadConfig({ DATA_DIR: dataDir, CODE_INTERPRETER_BACKEND: 'auto', CODE_INTERPRETER_MEMORY_MB: '256' }),
  );
  server = await createModelServer();
});
afterAll(async () => {
  settings.sandbox.shutdown();
  await server.close();
});
beforeEach(() => server.reset());

const llm = () => createChatModel({ model: 'scripted', baseURL: server.url, apiKey: 'k' });

/** The text of the last message of a request (the question with the answer so far appended to it). */
function lastText(i: number): string {
  const messages = server.requests[i]!.body.messages as { role: string; content: string }[];
  return messages[messages.length - 1]!.content;
}

describe('TIRMathAgent', () => {
  it(
    'runs the python block, feeds its output into the next model call, and answers in one transcript message',
    async () => {
      server.setScenario({
        replies: [
          // The model would go on to invent an output: the stop word cuts it there.
          { content: 'Add them up.\n```python\nprint(sum(range(1, 101)))\n```\n```output\n999\n```\n' },
          { content: 'So the sum is $\\boxed{5050}$.' },
        ],
      });
      const agent = new TIRMathAgent({
        llm: llm(),
        toolSettings: settings,
        systemMessage: 'Use programs, then put the answer in \\boxed{}.',
      });
      const messages = await agent.runNonStream([{ role: 'user', content: 'What is 1 + 2 + ... + 100?' }]);

      expect(server.requests).toHaveLength(2);
      expect(server.requests[0]!.body.stop).toEqual(['```output']);
      expect(server.requests[0]!.body.tools).toBeUndefined();
      // The second request continues the answer, which now holds the executed output (not the model's 999).
      const next = lastText(1);
      expect(next).toContain('What is 1 + 2 + ... + 100?');
      expect(next).toContain('```python\nprint(sum(range(1, 101)))\n```\n```output\n5050\n```\n');
      expect(next).not.toContain('999');

      expect(messages).toHaveLength(1);
      const answer = messages[0]!;
      expect(answer.role).toBe('assistant');
      expect(answer.content).toBe(
        'Add them up.\n```python\nprint(sum(range(1, 101)))\n```\n```output\n5050\n```\nSo the sum is $\\boxed{5050}$.',
      );
    },
    SLOW,
  );

  it(
    'shows each execution as a python_executor call in the trace; a fresh interpreter per block; errors told back',
    async () => {
      server.setScenario({
        replies: [
          { content: '```python\nx = 41\nprint(x + 1)\n```' },
          { content: 'Again:\n```python\nprint(x)\n```' },
          { content: 'Divide:\n```python\nprint(1 / 0)\n```' },
          { content: 'Done.' },
        ],
      });
      const events = await collectEvents(
        new TIRMathAgent({ llm: llm(), toolSettings: settings }).runEvents([{ role: 'user', content: 'x' }]),
      );
      for (const e of events) expect(() => AgentEventSchema.parse(e)).not.toThrow();
      expect(ofType(events, 'run-start')[0]).toMatchObject({ kind: 'tir', tools: ['python_executor'] });
      const calls = ofType(events, 'tool-call');
      expect(calls.map((c) => [c.name, c.functionId, JSON.parse(c.arguments).code])).toEqual([
        ['python_executor', '1', 'x = 41\nprint(x + 1)\n'],
        ['python_executor', '2', 'print(x)\n'],
        ['python_executor', '3', 'print(1 / 0)\n'],
      ]);
      const results = ofType(events, 'tool-result').map((r) => JSON.parse(r.content as string));
      expect(results).toEqual([
        ['42', 'Done'],
        ['', "NameError: name 'x' is not defined"], // nothing persists between calls
        ['', 'ZeroDivisionError: division by zero'],
      ]);
      // The model reads the pair as upstream's; the trace says which blocks failed, and how.
      expect(ofType(events, 'tool-result').map((r) => [r.ok, r.error?.kind, r.error?.type])).toEqual([
        [true, undefined, undefined],
        [false, 'failed', 'NameError'],
        [false, 'failed', 'ZeroDivisionError'],
      ]);
      expect(lastText(2)).toContain("```output\nNameError: name 'x' is not defined\n```");
      expect(lastText(3)).toContain('```output\nZeroDivisionError: division by zero\n```');
      expect(ofType(events, 'run-end')[0]).toMatchObject({ reason: 'answered', llmCalls: 4, toolCalls: 3 });

      // One transcript message, folded from the events; the page shows text, a tool card per block, text.
      const [message] = foldEvents(events);
      expect(message!.content).toMatch(/^```python\nx = 41[\s\S]*```output\n42\n```\nAgain:[\s\S]*Done\.$/);
      const feed = events.map(feedEvent).filter((e): e is FeedEvent => e !== undefined);
      const kinds = foldRun('r', feed).blocks.map((b) => b.kind);
      expect(kinds).toEqual(['text', 'tool', 'text', 'tool', 'text', 'tool', 'text']);
    },
    SLOW,
  );

  it(
    'stops after its own limit of 10 model calls, and ends when an answer has no complete block',
    async () => {
      server.setScenario({ fallback: { content: '```python\nprint(1)\n```' } });
      const end = ofType(
        await collectEvents(
          new TIRMathAgent({ llm: llm(), toolSettings: settings }).runEvents([{ role: 'user', content: 'loop' }]),
        ),
        'run-end',
      )[0]!;
      expect(end).toMatchObject({ reason: 'max-iterations', llmCalls: 10, toolCalls: 10 });

      server.reset();
      server.setScenario({ replies: [{ content: 'Unfinished:\n```python\nprint(2)' }] });
      const messages = await new TIRMathAgent({ llm: llm(), toolSettings: settings }).runNonStream([
        { role: 'user', content: 'q' },
      ]);
      expect(server.requests).toHaveLength(1);
      expect(messages[0]!.content).toBe('Unfinished:\n```python\nprint(2)');
    },
    SLOW,
  );
});

describe('python_executor', () => {
  const call = (args: Record<string, unknown>, cfg?: Record<string, unknown>) =>
    runTool(createTool(cfg ? { name: 'python_executor', ...cfg } : 'python_executor'), JSON.stringify(args), {
      files: [],
      lang: 'en',
      messages: [],
      settings,
    });

  it(
    "returns upstream's [result, report] pair: printed output cut to 256 characters, or the last expression",
    async () => {
      const long = await call({ code: 'print("a" * 100 + "b" * 300)' });
      expect(long.ok).toBe(true);
      const [result, report] = JSON.parse(long.content as string) as string[];
      expect(report).toBe('Done');
      expect(result).toBe(`${'a'.repeat(100)}${'b'.repeat(28)}...${'b'.repeat(128)}`);

      const value = await call({ code: 'x = 6\nx * 7' }, { get_answer_from_stdout: false });
      expect(JSON.parse(value.content as string)).toEqual(['42', 'Done']);

      const empty = await call({ code: '   ' });
      expect(JSON.parse(empty.content as string)).toEqual(['', '']);
    },
    SLOW,
  );

  it(
    'stops code that runs too long (timeout_length, in seconds) and leaves no work directory behind',
    async () => {
      const r = await call({ code: 'while True: pass' }, { timeout_length: 2 });
      expect(JSON.parse(r.content as string)).toEqual(['', 'Timeout Error']);
      expect(r).toMatchObject({ ok: false, error: { kind: 'failed', type: 'Timeout' } });
      const { readdirSync, existsSync } = await import('node:fs');
      const work = path.join(dataDir, 'work', 'python_executor');
      expect(existsSync(work) ? readdirSync(work) : []).toEqual([]);
    },
    SLOW,
  );
});
