// The built app with OTEL_EXPORTER_OTLP_ENDPOINT set: a run sent over POST /api/chat arrives at a local OTLP
// receiver as its trace (the SDK loads from node_modules inside `next start`), and /api/health counts the spans.
import { expect, test } from '@playwright/test';
import { createOtlpReceiver } from '../scripts/otlp-receiver/server';
import { freePort, kill, startApp } from './support/app-process';
import { setScenario } from './support/model';

test('a run of the built app is exported to the OTLP endpoint as one trace with the GenAI attributes', async ({
  request,
}, testInfo) => {
  testInfo.setTimeout(60_000);
  const receiver = await createOtlpReceiver();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  await setScenario({
    rules: [
      {
        when: { lastUserIncludes: 'otel-okapi' },
        reply: [
          { toolCalls: [{ id: 'call_okapi', name: 'calculator', arguments: '{"expression": "2+3"}' }] },
          { content: 'It is 5, okapi.' },
        ],
      },
    ],
  });
  const app = await startApp(port, testInfo.outputPath('data'), {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_BSP_SCHEDULE_DELAY: '100',
    OTEL_SERVICE_NAME: 'agent-studio-e2e',
  });
  try {
    const res = await request.post(`${base}/api/chat`, {
      headers: { origin: base },
      data: { message: 'What is 2+3? otel-okapi', tools: ['calculator'] },
    });
    expect(res.status()).toBe(200);
    const body = await res.text();
    const { runId, conversationId } = JSON.parse(body.split('\n')[1]!.slice('data: '.length));
    expect(body).toContain('"reason":"answered"');

    const traceId = String(runId).replace(/-/g, '');
    const spans = await receiver.waitFor((all) => all.filter((s) => s.traceId === traceId).length >= 4, 20_000);
    const trace = spans.filter((s) => s.traceId === traceId);
    const root = trace.find((s) => !s.parentSpanId)!;
    expect(trace.map((s) => s.name).sort()).toEqual([
      'chat scripted-e2e',
      'chat scripted-e2e',
      'execute_tool calculator',
      'invoke_agent assistant',
    ]);
    expect(root.resource['service.name']).toBe('agent-studio-e2e');
    expect(root.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.conversation.id': conversationId,
      'agent_studio.run.stop_reason': 'answered',
    });
    for (const s of trace.filter((x) => x !== root)) expect(s.parentSpanId).toBe(root.spanId);
    expect(receiver.lastContentType).toBe('application/x-protobuf'); // the specification's default encoding
    // Only the runs' spans leave the process, not Next.js's own.
    expect(new Set(receiver.spans.map((s) => s.scope))).toEqual(new Set(['agent-studio']));

    await expect
      .poll(async () => (await (await request.get(`${base}/api/health`)).json()).telemetry)
      .toMatchObject({ enabled: true, exportedSpans: 4, droppedSpans: 0, failedSpans: 0 });
  } finally {
    await kill(app);
    await receiver.close();
  }
});
