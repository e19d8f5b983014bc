// Runs exported as OpenTelemetry traces: the real ChatService over a real SQLite file, the scripted model server over
// HTTP, the official SDK's OTLP/HTTP exporter, and a local OTLP receiver that decodes what arrives.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FnCallAgent, type AgentEvent } from '../../lib/agent';
import { InMemoryLiveRuns } from '../../lib/chat/live-runs';
import type { ChatService } from '../../lib/chat/service';
import { createChatModel } from '../../lib/llm';
import { openSqliteStore } from '../../lib/store';
import type { ChatStore, ConversationSettings } from '../../lib/store/types';
import {
  flushTelemetry,
  startTelemetry,
  stopTelemetry,
  telemetryStatus,
  type TracingOptions,
} from '../../lib/telemetry';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { createOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../../scripts/otlp-receiver/server';
import { chatContext, drain, follow } from '../support/chat';
import { ownerScope } from '../../lib/store/owner';
import { everyToolActor } from '../../lib/chat/actor';
import { BaseTool, registerTool } from '../../tools';

/** A tool that sleeps for half a minute (the run is stopped while it does). */
class TelemetrySleeper extends BaseTool {
  name = 'telemetry_sleeper';
  description = 'Sleeps for half a minute';
  parameters = { type: 'object', properties: {} };
  async call(): Promise<string> {
    await new Promise((r) => setTimeout(r, 30_000).unref());
    return 'slept';
  }
}
registerTool('telemetry_sleeper')(TelemetrySleeper);

const OWNER = ownerScope('owner-a');
const ACTOR = everyToolActor(OWNER);

let model: ModelServer;
let receiver: OtlpReceiver;
let store: ChatStore;
let service: ChatService;
const warnings: string[] = [];

/** A port nothing listens on. */
function deadPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const BATCH = { maxQueueSize: 2048, maxExportBatchSize: 512, scheduledDelayMillis: 20, exportTimeoutMillis: 30_000 };

function tracing(overrides: Partial<TracingOptions> = {}): TracingOptions {
  return {
    url: receiver.tracesUrl,
    protocol: 'http/json',
    captureContent: false,
    serviceName: 'agent-studio-test',
    batch: BATCH,
    warn: (line) => warnings.push(line),
    ...overrides,
  };
}

beforeAll(async () => {
  model = await createModelServer();
  receiver = await createOtlpReceiver();
  store = await openSqliteStore(path.join(mkdtempSync(path.join(tmpdir(), 'telemetry-')), 'chat.db'));
  service = (
    await chatContext(
      store,
      (s: ConversationSettings) =>
        new FnCallAgent({
          llm: createChatModel({
            model: 'scripted',
            baseURL: model.url,
            apiKey: 'k',
            generateCfg: { max_retries: 0, ...s.generateCfg },
          }),
          functionList: s.tools,
          name: 'assistant',
        }),
    )
  ).chat;
});
afterAll(async () => {
  await stopTelemetry();
  await store.close();
  await Promise.all([model.close(), receiver.close()]);
});
beforeEach(() => {
  model.reset();
  receiver.setMode('ok');
  warnings.length = 0;
});
afterEach(() => stopTelemetry());

async function run(content: string): Promise<{ runId: string; conversationId: string; events: AgentEvent[] }> {
  const started = await service.send(ACTOR, { message: content, settings: { tools: ['calculator'] } });
  const events = await drain(follow(service, OWNER, started.runId));
  return { runId: started.runId, conversationId: started.conversationId, events };
}

/** The trace of a run: its trace id is the run id without dashes. */
async function traceOf(runId: string, count: number): Promise<ReceivedSpan[]> {
  const traceId = runId.replace(/-/g, '');
  await flushTelemetry();
  const spans = await receiver.waitFor((all) => all.filter((s) => s.traceId === traceId).length >= count);
  return spans.filter((s) => s.traceId === traceId);
}

const TOOL_THEN_ANSWER = {
  replies: [
    {
      toolCalls: [{ id: 'call_1', name: 'calculator', arguments: '{"expression":"6*7"}' }],
      usage: { prompt_tokens: 11, completion_tokens: 5 },
    },
    { content: 'It is 42.', usage: { prompt_tokens: 20, completion_tokens: 4 } },
  ],
};

/** Runs test/fixtures/telemetry-probe.ts in a fresh process with this environment (and a data directory of its own). */
function probe(env: Record<string, string>): Promise<{ status: { enabled: boolean }; otelModules: number }> {
  const clean: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'telemetry-probe-')) };
  for (const k of Object.keys(clean)) if (k.startsWith('OTEL_')) delete clean[k];
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      ['--import', 'tsx', path.join(__dirname, '../fixtures/telemetry-probe.ts')],
      { env: { ...clean, ...env }, timeout: 30_000 },
      (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout))),
    ),
  );
}

describe('OpenTelemetry traces', () => {
  it('loads no OpenTelemetry code unless OTEL_EXPORTER_OTLP_ENDPOINT is set', async () => {
    const [off, on] = await Promise.all([
      probe({}),
      probe({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '60000' }),
    ]);
    expect(off).toEqual({ status: { enabled: false }, otelModules: 0 });
    expect(on.status).toMatchObject({ enabled: true, openRuns: 1 });
    expect(on.otelModules).toBeGreaterThan(0);
  });

  it.each(['http/json', 'http/protobuf'] as const)(
    'exports a run as one trace (%s): an invoke_agent root, a chat span per model call and an execute_tool span, with the GenAI attributes and the run’s own times',
    async (protocol) => {
      await startTelemetry(tracing({ protocol }));
      model.setScenario(TOOL_THEN_ANSWER);
      const { runId, conversationId, events } = await run('What is 6*7?');
      expect(events.at(-1)).toMatchObject({ type: 'run-end', reason: 'answered' });

      const spans = await traceOf(runId, 4);
      expect(spans).toHaveLength(4);
      expect(receiver.lastContentType).toBe(protocol === 'http/json' ? 'application/json' : 'application/x-protobuf');
      const root = spans.find((s) => !s.parentSpanId)!;
      const chats = spans.filter((s) => s.name.startsWith('chat ')).sort((a, b) => a.startMs - b.startMs);
      const tool = spans.find((s) => s.name.startsWith('execute_tool '))!;

      expect(root.name).toBe('invoke_agent assistant');
      expect(root.kind).toBe(1);
      expect(root.scope).toBe('agent-studio');
      expect(root.resource['service.name']).toBe('agent-studio-test');
      expect(root.status.code).toBe(0);
      expect(root.attributes).toMatchObject({
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.provider.name': 'openai',
        'gen_ai.agent.name': 'assistant',
        'gen_ai.request.model': 'scripted',
        'gen_ai.conversation.id': conversationId,
        'gen_ai.usage.input_tokens': 31,
        'gen_ai.usage.output_tokens': 9,
        'agent_studio.run.id': runId,
        'agent_studio.run.stop_reason': 'answered',
        'agent_studio.run.llm_calls': 2,
        'agent_studio.run.tool_calls': 1,
      });

      // Every other span hangs off the run.
      for (const s of [...chats, tool]) expect(s.parentSpanId).toBe(root.spanId);
      expect(chats.map((c) => c.name)).toEqual(['chat scripted', 'chat scripted']);
      expect(chats.map((c) => c.kind)).toEqual([3, 3]);
      expect(chats[0]!.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': 'scripted',
        'gen_ai.conversation.id': conversationId,
        'gen_ai.response.finish_reasons': ['tool_calls'],
        'gen_ai.usage.input_tokens': 11,
        'gen_ai.usage.output_tokens': 5,
        'gen_ai.request.stream': true,
        'agent_studio.iteration': 1,
      });
      expect(chats[1]!.attributes).toMatchObject({
        'gen_ai.response.finish_reasons': ['stop'],
        'gen_ai.usage.input_tokens': 20,
        'gen_ai.usage.output_tokens': 4,
        'agent_studio.iteration': 2,
      });
      expect(tool.name).toBe('execute_tool calculator');
      expect(tool.attributes).toMatchObject({
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'calculator',
        'gen_ai.tool.call.id': 'call_1',
        'gen_ai.tool.type': 'function',
        'gen_ai.conversation.id': conversationId,
      });
      expect(tool.status.code).toBe(0);

      // Without OTEL_CAPTURE_CONTENT no prompt, completion, argument or result leaves the process.
      for (const s of spans) {
        expect(Object.keys(s.attributes).filter((k) => /messages|arguments|result|query\.text/.test(k))).toEqual([]);
        expect(JSON.stringify(s)).not.toContain('6*7');
      }

      // The run's own clock: model call 1, then the tool, then model call 2, all inside the run; the root lasts as long
      // as the run said it did.
      const end = events.at(-1) as Extract<AgentEvent, { type: 'run-end' }>;
      // (run-start itself comes a little after the run's t = 0, the clock's origin.)
      expect(root.endMs - root.startMs).toBeCloseTo(end.t - events[0]!.t, 1);
      expect(chats[0]!.startMs).toBeGreaterThanOrEqual(root.startMs);
      expect(tool.startMs).toBeGreaterThanOrEqual(chats[0]!.endMs);
      expect(chats[1]!.startMs).toBeGreaterThanOrEqual(tool.endMs);
      expect(chats[1]!.endMs).toBeLessThanOrEqual(root.endMs);
      const toolResult = events.find((e) => e.type === 'tool-result') as Extract<AgentEvent, { type: 'tool-result' }>;
      expect(tool.endMs - tool.startMs).toBeCloseTo(toolResult.durationMs, 1);
      expect(telemetryStatus()).toMatchObject({ enabled: true, exportedSpans: 4, droppedSpans: 0, failedSpans: 0 });
    },
  );

  it('marks a failed run and its model call as errors, and a failed tool call as an error of its own', async () => {
    await startTelemetry(tracing());
    model.setScenario({ replies: [{ fault: { kind: 'status', status: 500 } }] });
    const failed = await run('This one breaks');
    expect(failed.events.at(-1)).toMatchObject({ type: 'run-end', reason: 'error' });
    const spans = await traceOf(failed.runId, 2);
    const root = spans.find((s) => !s.parentSpanId)!;
    const chat = spans.find((s) => s.name.startsWith('chat '))!;
    expect(root.status.code).toBe(2);
    expect(root.status.message).toContain('500');
    expect(root.attributes['error.type']).toBe('500');
    expect(root.attributes['agent_studio.run.stop_reason']).toBe('error');
    expect(chat.status.code).toBe(2);
    expect(chat.attributes['error.type']).toBe('500');

    model.setScenario({
      replies: [{ toolCalls: [{ id: 'call_x', name: 'no_such_tool', arguments: '{}' }] }, { content: 'Sorry.' }],
    });
    const toolFailed = await run('Use a tool that is not there');
    expect(toolFailed.events.at(-1)).toMatchObject({ type: 'run-end', reason: 'answered' });
    const toolSpans = await traceOf(toolFailed.runId, 4);
    const tool = toolSpans.find((s) => s.name === 'execute_tool no_such_tool')!;
    expect(tool.status.code).toBe(2);
    expect(tool.attributes['error.type']).toBe('unknown-tool');
    expect(toolSpans.find((s) => !s.parentSpanId)!.status.code).toBe(0);
  });

  it('a tool call the run was stopped during is unfinished, not an error: a stop is none', async () => {
    await startTelemetry(tracing());
    model.setScenario({ replies: [{ toolCalls: [{ id: 'call_s', name: 'telemetry_sleeper', arguments: '{}' }] }] });
    const started = await service.send(ACTOR, { message: 'Sleep', settings: { tools: ['telemetry_sleeper'] } });
    const events: AgentEvent[] = [];
    for await (const e of follow(service, OWNER, started.runId)) {
      events.push(e);
      if (e.type === 'tool-call') setTimeout(() => void service.stop(ACTOR, started.runId), 300);
    }
    expect(events.at(-1)).toMatchObject({ type: 'run-end', reason: 'aborted' });
    expect(events.find((e) => e.type === 'tool-result')).toMatchObject({ ok: false, error: { kind: 'stopped' } });
    const spans = await traceOf(started.runId, 3);
    const tool = spans.find((s) => s.name === 'execute_tool telemetry_sleeper')!;
    expect(tool.status.code).toBe(0);
    expect(tool.attributes['agent_studio.tool.unfinished']).toBe(true);
    const root = spans.find((s) => !s.parentSpanId)!;
    expect(root.status.code).toBe(0);
    expect(root.attributes['agent_studio.run.stop_reason']).toBe('aborted');
  });

  it('ends the trace of a run whose log could not be written as an error, when the writer gives up', async () => {
    await startTelemetry(tracing());
    const conversation = await store.createConversation(OWNER);
    const runId = crypto.randomUUID();
    await store.addTurnWithRun(OWNER, conversation.id, 'q', runId);
    const writer = new InMemoryLiveRuns(store).start(OWNER, runId, conversation.id);
    const start = { runId, iteration: 0, t: 0 };
    writer.push({
      ...start,
      type: 'run-start',
      agent: 'assistant',
      kind: 'fncall',
      model: 'scripted',
      lang: 'en',
      maxLlmCalls: 2,
      tools: [],
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    await store.deleteConversation(OWNER, conversation.id); // the run's row goes with it: the next write fails
    writer.push({ ...start, iteration: 1, t: 30, type: 'llm-start', format: 'native' });
    await writer.end();
    expect(writer.failed).toBe(true);

    const [root] = await traceOf(runId, 1);
    expect(root!.status.code).toBe(2);
    expect(root!.attributes).toMatchObject({ 'error.type': 'StoreError', 'agent_studio.run.stop_reason': 'error' });
    expect(root!.endMs - root!.startMs).toBeGreaterThanOrEqual(25); // it ends when the writer gave up, not at t = 0
    expect(telemetryStatus()).toMatchObject({ openRuns: 0 });
  });

  it('puts prompts, completions, tool arguments and results into the spans only when content capture is on', async () => {
    await startTelemetry(tracing({ captureContent: true }));
    model.setScenario(TOOL_THEN_ANSWER);
    const { runId } = await run('What is 6*7?');
    const spans = await traceOf(runId, 4);
    const root = spans.find((s) => !s.parentSpanId)!;
    const chats = spans.filter((s) => s.name.startsWith('chat ')).sort((a, b) => a.startMs - b.startMs);
    const tool = spans.find((s) => s.name.startsWith('execute_tool '))!;

    const firstInput = JSON.parse(chats[0]!.attributes['gen_ai.input.messages'] as string);
    expect(firstInput).toEqual([{ role: 'user', parts: [{ type: 'text', content: 'What is 6*7?' }] }]);
    expect(JSON.parse(chats[0]!.attributes['gen_ai.output.messages'] as string)).toEqual([
      {
        role: 'assistant',
        parts: [{ type: 'tool_call', id: 'call_1', name: 'calculator', arguments: { expression: '6*7' } }],
        finish_reason: 'tool_calls',
      },
    ]);
    const secondInput = JSON.parse(chats[1]!.attributes['gen_ai.input.messages'] as string);
    expect(secondInput.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(secondInput[2].parts).toEqual([{ type: 'tool_call_response', id: 'call_1', result: '42' }]);
    expect(JSON.parse(chats[1]!.attributes['gen_ai.output.messages'] as string)).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: 'It is 42.' }], finish_reason: 'stop' },
    ]);
    expect(tool.attributes['gen_ai.tool.call.arguments']).toBe('{"expression":"6*7"}');
    expect(tool.attributes['gen_ai.tool.call.result']).toBe('42');
    expect(JSON.parse(root.attributes['gen_ai.input.messages'] as string)[0].parts[0].content).toBe('What is 6*7?');
    expect(JSON.parse(root.attributes['gen_ai.output.messages'] as string)[0].parts).toEqual([
      { type: 'text', content: 'It is 42.' },
    ]);
  });

  it('says on a paused call’s span what the user decided, and the arguments it ran with after their edit', async () => {
    await startTelemetry(tracing({ captureContent: true }));
    model.setScenario(TOOL_THEN_ANSWER);
    const started = await service.send(ACTOR, {
      message: 'What is 6*7?',
      settings: { tools: ['calculator'], pauseBeforeTools: true },
    });
    const events: AgentEvent[] = [];
    const reading = (async () => {
      for await (const e of follow(service, OWNER, started.runId)) events.push(e);
    })();
    await vi.waitFor(() => expect(events.some((e) => e.type === 'tool-approval')).toBe(true));
    await service.decideTool(ACTOR, started.runId, 'call_1', { action: 'run', arguments: '{"expression":"2+3"}' });
    await reading;
    const tool = (await traceOf(started.runId, 4)).find((s) => s.name.startsWith('execute_tool '))!;
    expect(tool.attributes).toMatchObject({
      'agent_studio.tool.decision': 'run',
      'gen_ai.tool.call.arguments': '{"expression":"2+3"}',
      'gen_ai.tool.call.result': '5',
    });
  });

  it('never holds a run back: a dead endpoint and one that never answers cost the runs nothing; lost spans are counted and told', async () => {
    const dead = await deadPort();
    await startTelemetry(tracing({ url: `http://127.0.0.1:${dead}/v1/traces`, timeoutMillis: 300 }));
    model.setScenario({ fallback: { content: 'fine' } });
    const first = await run('Anyone there?');
    expect(first.events.at(-1)).toMatchObject({ type: 'run-end', reason: 'answered' });
    await flushTelemetry();
    expect(telemetryStatus()).toMatchObject({ enabled: true, exportedSpans: 0, failedSpans: 2, pendingSpans: 0 });
    expect(warnings.join('\n')).toMatch(/spans lost so far: 0 dropped \(queue of 2048 full\), [12] failed to export/);
    await stopTelemetry();

    // A collector that takes the request and never answers: the batch stays on its way, the queue (bounded at 3
    // spans here) fills, and later runs go on regardless, their spans dropped and counted.
    receiver.setMode('hang');
    await startTelemetry(tracing({ batch: { ...BATCH, maxQueueSize: 3 }, timeoutMillis: 5_000 }));
    const a = await run('One');
    await receiver.waitForHanging(1);
    const b = await run('Two');
    const c = await run('Three');
    for (const r of [a, b, c]) expect(r.events.at(-1)).toMatchObject({ type: 'run-end', reason: 'answered' });
    expect(receiver.hanging).toBe(1); // runs b and c ended while a's export was still unanswered
    // a's 2 spans are on their way, b's first fills the queue; b's second and c's two are dropped.
    expect(telemetryStatus()).toMatchObject({ enabled: true, exportedSpans: 0, pendingSpans: 3, droppedSpans: 3 });
    expect(warnings.join('\n')).toMatch(/spans lost so far: 1 dropped \(queue of 3 full\)/);
    receiver.setMode('ok');
    receiver.release();
  });
});
