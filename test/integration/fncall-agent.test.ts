// FnCallAgent end to end over real HTTP: the loop's semantics (docs/qwen-agent-checklist.md, 5-22) in each mode.
import { getEventListeners } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AgentEventSchema, FnCallAgent, type AgentEvent, type Message } from '../../lib/agent';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import type { ScriptedReply } from '../../lib/protocol/fixture';
import { allowLocalFileStaging, BaseTool, type ToolContext } from '../../tools';
import { collectEvents, ofType } from '../support/run';
import { Boom, Fatal, GetWeather, SeeFiles, Structured } from '../support/tools';
import { loadConfig } from '../../lib/config';
import { createChatModel } from '../../lib/llm';

let server: ModelServer;
beforeAll(async () => {
  server = await createModelServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

type Mode = 'native' | 'nous' | 'qwen';
const agent = (mode: Mode, extra: Partial<ConstructorParameters<typeof FnCallAgent>[0]> = {}) =>
  new FnCallAgent({
    llm: createChatModel({
      model: 'scripted',
      baseURL: server.url,
      apiKey: 'k',
      fncallMode: mode,
      generateCfg: { retry_base_delay_ms: 10 },
    }),
    functionList: [new GetWeather()],
    name: 'helper',
    ...extra,
  });

/** A reply that calls tools, written the way each mode's model would write it. */
function callReply(mode: Mode, calls: { name: string; args: Record<string, unknown> }[], text = ''): ScriptedReply {
  if (mode === 'native')
    return {
      content: text,
      toolCalls: calls.map((c, i) => ({ id: `call_${i}`, name: c.name, arguments: JSON.stringify(c.args) })),
    };
  if (mode === 'nous')
    return {
      content:
        text +
        calls
          .map((c) => `<tool_call>\n${JSON.stringify({ name: c.name, arguments: c.args })}\n</tool_call>`)
          .join('\n'),
    };
  return { content: text + calls.map((c) => `✿FUNCTION✿: ${c.name}\n✿ARGS✿: ${JSON.stringify(c.args)}`).join('\n') };
}

describe.each<Mode>(['native', 'nous', 'qwen'])('FnCallAgent in %s mode', (mode) => {
  it('calls a tool, feeds the result back, and answers', async () => {
    server.setScenario({
      replies: [
        callReply(mode, [{ name: 'get_weather', args: { city: 'Paris' } }]),
        { content: 'It is sunny in Paris.' },
      ],
    });
    const tool = new GetWeather();
    const result = await agent(mode, { functionList: [tool] }).runNonStream([
      { role: 'user', content: 'Weather in Paris?' },
    ]);
    expect(tool.calls).toEqual([{ city: 'Paris' }]);
    const fid = mode === 'native' ? 'call_0' : '1';
    expect(result).toEqual([
      {
        role: 'assistant',
        content: '',
        function_call: { name: 'get_weather', arguments: expect.stringMatching(/"city": ?"Paris"/) },
        extra: { function_id: fid },
        name: 'helper',
      },
      { role: 'function', name: 'get_weather', content: 'Paris: 21°C, sunny', extra: { function_id: fid } },
      { role: 'assistant', content: 'It is sunny in Paris.', name: 'helper' },
    ]);
    // The second request carries the tool result back to the model.
    expect(JSON.stringify(server.requests[1]!.body.messages)).toContain('Paris: 21°C, sunny');
    if (mode === 'native')
      expect(server.requests[1]!.body.messages.at(-1)).toEqual({
        role: 'tool',
        tool_call_id: 'call_0',
        content: 'Paris: 21°C, sunny',
      });
  });

  it('runs parallel calls in order and puts all results after all calls', async () => {
    server.setScenario({
      replies: [
        callReply(mode, [
          { name: 'get_weather', args: { city: 'Oslo' } },
          { name: 'get_weather', args: { city: 'Rome' } },
        ]),
        { content: 'Done.' },
      ],
    });
    const tool = new GetWeather();
    // Asked for: the qwen template is the single-call one unless parallel_function_calls is true (upstream's default).
    const result = await agent(mode, { functionList: [tool] }).runNonStream(
      [{ role: 'user', content: 'Oslo and Rome?' }],
      { generateCfg: { parallel_function_calls: true } },
    );
    expect(tool.calls).toEqual([{ city: 'Oslo' }, { city: 'Rome' }]);
    expect(result.map((m) => m.role + (m.function_call ? ':call' : ''))).toEqual([
      'assistant:call',
      'assistant:call',
      'function',
      'function',
      'assistant',
    ]);
    expect(result[2]!.extra?.function_id).toBe(result[0]!.extra?.function_id);
    expect(result[3]!.extra?.function_id).toBe(result[1]!.extra?.function_id);
    expect(result[2]!.extra?.function_id).not.toBe(result[3]!.extra?.function_id);
  });
});

describe('FnCallAgent loop semantics', () => {
  it("never mutates the caller's messages, and yields only new messages", async () => {
    server.setScenario({
      replies: [callReply('native', [{ name: 'get_weather', args: { city: 'Oslo' } }]), { content: 'ok' }],
    });
    const input: Message[] = [{ role: 'user', content: [{ text: 'Weather?' }] }];
    const before = structuredClone(input);
    const snapshots: Message[][] = [];
    for await (const s of agent('native', { systemMessage: 'Be brief.' }).run(input)) snapshots.push(s);
    expect(input).toEqual(before);
    for (const s of snapshots) expect(s.some((m) => m.role === 'user' || m.role === 'system')).toBe(false);
  });

  it('yields complete cumulative snapshots, the last one repeated, equal to runNonStream', async () => {
    server.setScenario({ fallback: { content: 'one two three four five six', chunkSize: 4 } });
    const a = agent('native');
    const snapshots: Message[][] = [];
    for await (const s of a.run([{ role: 'user', content: 'count' }])) snapshots.push(s);
    expect(snapshots.length).toBeGreaterThan(3);
    const texts = snapshots.map((s) => s[0]?.content as string);
    for (let i = 1; i < texts.length; i++) expect(texts[i]!.startsWith(texts[i - 1]!)).toBe(true);
    expect(snapshots.at(-1)).toEqual(snapshots.at(-2));
    expect(await a.runNonStream([{ role: 'user', content: 'count' }])).toEqual(snapshots.at(-1));
    // plain JSON objects (checklist 11: we always return plain objects)
    expect(JSON.parse(JSON.stringify(snapshots.at(-1)))).toEqual(snapshots.at(-1));
  });

  it('inserts the agent system message, or prefixes an existing one with a blank line', async () => {
    server.setScenario({ fallback: 'echo' });
    await agent('native', { systemMessage: 'You are terse.' }).runNonStream([{ role: 'user', content: 'hi' }]);
    await agent('native', { systemMessage: 'You are terse.' }).runNonStream([
      { role: 'system', content: 'Speak French.' },
      { role: 'user', content: 'hi' },
    ]);
    expect(server.requests[0]!.body.messages[0]).toEqual({ role: 'system', content: 'You are terse.' });
    expect(server.requests[1]!.body.messages[0]).toEqual({
      role: 'system',
      content: 'You are terse.\n\nSpeak French.',
    });
  });

  it('detects the language from system/user text unless given', async () => {
    server.setScenario({ fallback: 'echo' });
    const a = agent('native');
    const zh = ofType(await collectEvents(a.runEvents([{ role: 'user', content: '北京天气怎么样' }])), 'run-start')[0]!;
    const forced = ofType(
      await collectEvents(a.runEvents([{ role: 'user', content: '北京天气怎么样' }], { lang: 'en' })),
      'run-start',
    )[0]!;
    expect(zh.lang).toBe('zh');
    expect(forced.lang).toBe('en');
  });

  it('stops after exactly MAX_LLM_CALL_PER_RUN model calls when the model never stops calling tools', async () => {
    server.setScenario({ fallback: callReply('native', [{ name: 'get_weather', args: { city: 'Loop' } }]) });
    const events = await collectEvents(
      agent('native', { maxLlmCalls: 5 }).runEvents([{ role: 'user', content: 'loop' }]),
    );
    expect(server.requests).toHaveLength(5);
    const end = ofType(events, 'run-end')[0]!;
    expect(end).toMatchObject({ reason: 'max-iterations', llmCalls: 5, toolCalls: 5 });
  });

  it('a run of many model calls warns of no listener leak and leaves nothing on the caller’s signal', async () => {
    server.setScenario({ fallback: callReply('native', [{ name: 'get_weather', args: { city: 'Loop' } }]) });
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      const ac = new AbortController();
      const events = await collectEvents(
        agent('native', { maxLlmCalls: 25 }).runEvents([{ role: 'user', content: 'loop' }], { signal: ac.signal }),
      );
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on a later tick
      expect(ofType(events, 'run-end')[0]).toMatchObject({ reason: 'max-iterations', llmCalls: 25 });
      expect(getEventListeners(ac.signal, 'abort')).toHaveLength(0);
      expect(warnings.filter((w) => /MaxListeners/.test(w))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('takes its call limit from the caller, default 20; the configuration reads MAX_LLM_CALL_PER_RUN', () => {
    expect(agent('native').maxLlmCalls).toBe(20);
    expect(agent('native', { maxLlmCalls: 3 }).maxLlmCalls).toBe(3);
    expect(loadConfig({}).maxLlmCallsPerRun).toBe(20);
    expect(loadConfig({ QWEN_AGENT_MAX_LLM_CALL_PER_RUN: '7' }).maxLlmCallsPerRun).toBe(7);
    expect(loadConfig({ QWEN_AGENT_MAX_LLM_CALL_PER_RUN: '7', MAX_LLM_CALL_PER_RUN: '3' }).maxLlmCallsPerRun).toBe(3);
  });

  it('ends after one model call when the answer has no tool call', async () => {
    server.setScenario({ fallback: { content: 'Hello!' } });
    const events = await collectEvents(agent('native').runEvents([{ role: 'user', content: 'hi' }]));
    expect(server.requests).toHaveLength(1);
    expect(ofType(events, 'run-end')[0]).toMatchObject({ reason: 'answered', llmCalls: 1, toolCalls: 0 });
  });

  it('tells the model about an unknown tool and a failing tool, and goes on', async () => {
    server.setScenario({
      replies: [
        callReply('native', [
          { name: 'no_such_tool', args: {} },
          { name: 'boom', args: {} },
        ]),
        { content: 'Sorry.' },
      ],
    });
    const result = await agent('native', { functionList: [new Boom()] }).runNonStream([{ role: 'user', content: 'x' }]);
    expect(result[2]).toMatchObject({
      role: 'function',
      name: 'no_such_tool',
      content: 'Tool no_such_tool does not exist.',
    });
    expect(result[3]!.content).toMatch(
      /^An error occurred when calling tool `boom`:\nRangeError: the gauge broke \(error id [0-9a-f]{8}\)$/,
    );
    expect(result.at(-1)).toMatchObject({ role: 'assistant', content: 'Sorry.' });
    expect(server.requests).toHaveLength(2);
  });

  it('sends invalid arguments back as readable text naming the problem, and reports a structured error event', async () => {
    server.setScenario({
      replies: [callReply('native', [{ name: 'get_weather', args: { town: 'Paris' } }]), { content: 'Let me retry.' }],
    });
    const events = await collectEvents(agent('native').runEvents([{ role: 'user', content: 'x' }]));
    const result = ofType(events, 'tool-result')[0]!;
    expect(result.ok).toBe(false);
    expect(result.error?.kind).toBe('invalid-arguments');
    expect(result.content).toContain("missing required property 'city'");
    expect(JSON.stringify(server.requests[1]!.body.messages)).toContain("missing required property 'city'");
  });

  it('a designated fatal tool error aborts the run, and run()/runNonStream() reject with it', async () => {
    server.setScenario({ fallback: callReply('native', [{ name: 'fatal', args: {} }]) });
    const a = agent('native', { functionList: [new Fatal()] });
    await expect(a.runNonStream([{ role: 'user', content: 'x' }])).rejects.toThrow('the document service is down');
    const events = await collectEvents(a.runEvents([{ role: 'user', content: 'x' }]));
    expect(ofType(events, 'tool-result')[0]?.error?.kind).toBe('fatal');
    expect(ofType(events, 'run-end')[0]).toMatchObject({
      reason: 'error',
      error: { message: 'the document service is down' },
    });
  });

  it('a model error after retries rejects run() and ends the event stream with reason error', async () => {
    server.setScenario({ fallback: { fault: { kind: 'status', status: 503 } } });
    const a = new FnCallAgent({
      llm: createChatModel({
        model: 'm',
        baseURL: server.url,
        generateCfg: { max_retries: 1, retry_base_delay_ms: 5 },
      }),
    });
    await expect(a.runNonStream([{ role: 'user', content: 'x' }])).rejects.toThrow(/503/);
    const events = await collectEvents(a.runEvents([{ role: 'user', content: 'x' }]));
    expect(ofType(events, 'llm-retry')).toHaveLength(1);
    expect(ofType(events, 'run-end')[0]).toMatchObject({ reason: 'error', error: { status: 503 } });
  });

  it('an interrupted stream rejects run() instead of passing for an answer', async () => {
    server.setScenario({
      fallback: { content: 'This answer is cut', chunkSize: 3, fault: { kind: 'cut', afterChunks: 3 } },
    });
    await expect(agent('native').runNonStream([{ role: 'user', content: 'x' }])).rejects.toThrow(
      /before finishing|connection/i,
    );
  });

  it('stops when aborted, with reason aborted', async () => {
    server.setScenario({ fallback: { content: 'x'.repeat(300), chunkSize: 1, delayMs: 5 } });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const events = await collectEvents(
      agent('native').runEvents([{ role: 'user', content: 'x' }], { signal: ac.signal }),
    );
    expect(ofType(events, 'run-end')[0]!.reason).toBe('aborted');
    expect(ofType(events, 'text-delta').length).toBeGreaterThan(0);
  });

  it('run() stopped while a tool runs answers every call in its last snapshot: the running one stopped, the next not run', async () => {
    class Waits extends BaseTool {
      name = 'waits';
      description = 'Waits until the run stops';
      parameters = { type: 'object', properties: {} };
      async call(_params: string, ctx?: ToolContext) {
        await new Promise((resolve) => ctx?.signal?.addEventListener('abort', resolve, { once: true }));
        return 'gave up waiting';
      }
    }
    server.setScenario({
      replies: [
        callReply('native', [
          { name: 'waits', args: {} },
          { name: 'waits', args: {} },
        ]),
      ],
    });
    const ac = new AbortController();
    let last: Message[] = [];
    for await (const snapshot of agent('native', { functionList: [new Waits()] }).run(
      [{ role: 'user', content: 'x' }],
      { signal: ac.signal },
    )) {
      last = snapshot;
      if (snapshot.filter((m) => m.function_call).length === 2) setTimeout(() => ac.abort(), 50);
    }
    const results = last.filter((m) => m.role === 'function');
    expect(results.map((m) => m.extra?.function_id)).toEqual(['call_0', 'call_1']);
    expect(results[1]!.content).toBe('The run ended before this call started; it was not run.');
  });

  it('a reader that leaves early aborts the run and its model request', async () => {
    server.setScenario({ fallback: { content: 'x'.repeat(300), chunkSize: 1, delayMs: 5 } });
    const started = Date.now();
    let deltas = 0;
    for await (const e of agent('native').runEvents([{ role: 'user', content: 'x' }])) {
      if (e.type === 'text-delta' && ++deltas === 3) break;
    }
    expect(Date.now() - started).toBeLessThan(1000); // the full answer would take 1.5 s
  });

  it('JSON-stringifies structured results with 4-space indent and keeps non-ASCII', async () => {
    server.setScenario({ replies: [callReply('native', [{ name: 'structured', args: {} }]), { content: 'ok' }] });
    const result = await agent('native', { functionList: [new Structured()] }).runNonStream([
      { role: 'user', content: 'x' },
    ]);
    expect(result[1]!.content).toBe(JSON.stringify({ city: '北京', temps: [1, 2] }, null, 4));
  });

  it('gives file-aware tools every file in the history plus the agent files, staged in the work directory', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'agent-files-'));
    const a1 = path.join(dir, 'a.txt');
    const b1 = path.join(dir, 'b.csv');
    const c1 = path.join(dir, 'c.md');
    for (const f of [a1, b1, c1]) writeFileSync(f, 'x');
    const tool = new SeeFiles();
    server.setScenario({ replies: [callReply('native', [{ name: 'see_files', args: {} }]), { content: 'ok' }] });
    const workDir = path.join(dir, 'work');
    // Plain local paths are staged only where the process opted in (the CLI does; the app passes upload references).
    allowLocalFileStaging(true);
    try {
      await agent('native', { functionList: [tool], files: [c1] }).runNonStream(
        [
          { role: 'user', content: [{ text: 'look' }, { file: a1 }] },
          { role: 'assistant', content: 'ok' },
          { role: 'user', content: [{ text: 'and' }, { file: b1 }, { file: a1 }] },
        ],
        { workDir },
      );
    } finally {
      allowLocalFileStaging(false);
    }
    expect(tool.seen).toEqual([path.join(workDir, 'a.txt'), path.join(workDir, 'b.csv'), path.join(workDir, 'c.md')]);
  });

  it('emits schema-valid, JSON-serialisable events with the exact request, deltas, usage and timings', async () => {
    server.setScenario({
      replies: [
        { ...callReply('native', [{ name: 'get_weather', args: { city: 'Oslo' } }], 'Checking. '), reasoning: 'hmm' },
        { content: 'Sunny.' },
      ],
    });
    const events = await collectEvents(
      agent('native').runEvents([{ role: 'user', content: 'Oslo?' }], { runId: 'r1' }),
    );
    for (const e of events) expect(AgentEventSchema.parse(JSON.parse(JSON.stringify(e)))).toEqual(e);
    expect(events.map((e) => e.type).filter((t, i, a) => t !== a[i - 1])).toEqual([
      'run-start',
      'llm-start',
      'reasoning-delta',
      'text-delta',
      'llm-end',
      'tool-call',
      'tool-result',
      'llm-start',
      'text-delta',
      'llm-end',
      'run-end',
    ]);
    const [start1, start2] = ofType(events, 'llm-start');
    expect(start1!.request!.messages).toEqual(server.requests[0]!.body.messages);
    expect(start2!.request!.messages).toEqual(server.requests[1]!.body.messages);
    const end1 = ofType(events, 'llm-end')[0]!;
    expect(end1.finishReason).toBe('tool_calls');
    expect(end1.usage?.totalTokens).toBeGreaterThan(0);
    expect(end1.ttftMs).toBeGreaterThanOrEqual(0);
    expect(ofType(events, 'tool-result')[0]!.durationMs).toBeGreaterThanOrEqual(0);
    const ts = events.map((e: AgentEvent) => e.t);
    expect([...ts].sort((a, b) => a - b)).toEqual(ts);
    expect(events.every((e) => e.runId === 'r1')).toBe(true);
    expect(ofType(events, 'run-end')[0]!.usage.totalTokens).toBe(
      ofType(events, 'llm-end').reduce((n, e) => n + (e.usage?.totalTokens ?? 0), 0),
    );
  });

  it('rejects an unregistered tool name, an unavailable tool and an invalid tool when the agent takes it', () => {
    expect(() => agent('native', { functionList: ['definitely_not_registered'] })).toThrow(/definitely_not_registered/);
    const saved = process.env.WEB_SEARCH_PROVIDER;
    delete process.env.WEB_SEARCH_PROVIDER;
    try {
      expect(() => agent('native', { functionList: ['web_search'] })).toThrow(/web_search is not available/);
    } finally {
      if (saved !== undefined) process.env.WEB_SEARCH_PROVIDER = saved;
    }
    class Bad extends BaseTool {
      name = 'get_weather';
      description = 'bad schema';
      parameters = { type: 'object', properties: { city: { type: 'string' } }, required: ['town'] };
      async call() {
        return '';
      }
    }
    expect(() => agent('native', { functionList: [new Bad()] })).toThrow(/get_weather/);
  });

  it('takes registered builtin tools by name', async () => {
    server.setScenario({
      replies: [callReply('native', [{ name: 'calculator', args: { expression: '(2+3)*4' } }]), { content: '20' }],
    });
    const result = await agent('native', { functionList: ['calculator'] }).runNonStream([
      { role: 'user', content: '(2+3)*4?' },
    ]);
    expect(result[1]).toMatchObject({ role: 'function', name: 'calculator', content: '20' });
  });
});
