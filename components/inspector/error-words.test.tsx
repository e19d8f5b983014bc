// The run inspector says a run's model error as the turn does, in the page's language: a model server's HTTP error
// (retried, then the end of the run) and a server nothing answers at, run by a real agent against the scripted model
// server over HTTP, its events exported and opened in the inspector as a stored run is.
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { FnCallAgent } from '../../lib/agent';
import { buildRunExport } from '../../lib/inspect/export';
import { createChatModel, type ModelConfig } from '../../lib/llm';
import { ToolFallbackModel } from '../../lib/llm/tool-fallback';
import { AgentEventSchema, type AgentEvent } from '../../lib/protocol/events';
import { localDocumentsForEachTest } from '../../test/support/local-documents';
import { collectEvents, ofType } from '../../test/support/run';
import { render, textOf } from '../chat/test-html';
import { InspectorBody } from './run-inspector';

const env = localDocumentsForEachTest('inspector-error-words-');

async function failedRun(config: ModelConfig): Promise<AgentEvent[]> {
  const llm = createChatModel({ model: 'scripted', apiKey: 'k', ...config });
  const events = await collectEvents(new FnCallAgent({ llm }).runEvents([{ role: 'user', content: 'hi' }]));
  return events.map((e) => AgentEventSchema.parse(e));
}

function inspected(events: AgentEvent[]): { en: string; zh: string } {
  const bundle = buildRunExport({ id: events[0]!.runId, status: 'error' }, events);
  const view = (locale: 'en' | 'zh-CN') =>
    textOf(render(<InspectorBody bundle={bundle} target={{ kind: 'stored', runId: bundle.run.id }} />, locale));
  return { en: view('en'), zh: view('zh-CN') };
}

describe('a model error in the run inspector', () => {
  it('an HTTP error, retried and then fatal: in Chinese on the Chinese page, the server’s words inside', async () => {
    env.server.setScenario({
      fallback: { fault: { kind: 'status', status: 500, body: { error: { message: 'the GPU fell over' } } } },
    });
    const events = await failedRun({
      baseURL: env.server.url,
      maxRetries: 1,
      generateCfg: { retry_base_delay_ms: 1 },
    });
    expect(ofType(events, 'llm-retry')).toHaveLength(1);
    const said = inspected(events);
    expect(said.en).toContain('Outcome Failed: Model server error 500: the GPU fell over');
    expect(said.en).toMatch(/attempt 1 failed \(Model server error 500: the GPU fell over\); retried after/);
    expect(said.zh).toContain('结果 失败：模型服务器返回了错误 500：the GPU fell over');
    expect(said.zh).toMatch(/第 1 次尝试失败（模型服务器返回了错误 500：the GPU fell over）；.* 后重试/);
    expect(said.zh).not.toContain('Model server error');
  });

  it('a server nothing answers at: named by the run’s connection, as the turn names it', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    const events = await failedRun({
      baseURL: `http://127.0.0.1:${port}/v1`,
      connection: 'Environment',
      maxRetries: 0,
    });
    const detail = String(ofType(events, 'run-end').at(-1)!.error!.values!.detail);
    const said = inspected(events);
    expect(said.en).toContain(
      `Outcome Failed: Cannot reach the model server of “Environment”. It may be down for now: try again in a while, or tell whoever runs it (the admin). The error: ${detail}`,
    );
    expect(said.zh).toContain(
      `结果 失败：无法连接“环境变量”的模型服务器。它可能暂时不可用：请稍后再试，或告诉它的管理员。错误信息：${detail}`,
    );
  });

  it('a server refusing native tool calls: the retry that puts the tools in the text, in the page’s language', async () => {
    env.server.setScenario({
      rules: [
        {
          when: { hasTools: true },
          reply: { fault: { kind: 'status', status: 400, body: { error: { message: 'tools are not supported' } } } },
        },
        { when: {}, reply: { content: 'Answered without native tools.' } },
      ],
    });
    const model = (fncallMode: 'native' | 'nous') =>
      createChatModel({ model: 'scripted', baseURL: env.server.url, apiKey: 'k', maxRetries: 0, fncallMode });
    const llm = new ToolFallbackModel(model('native'), { text: () => model('nous') });
    const events = (
      await collectEvents(
        new FnCallAgent({ llm, functionList: ['calculator'] }).runEvents([{ role: 'user', content: '6*7?' }]),
      )
    ).map((e) => AgentEventSchema.parse(e));
    expect(ofType(events, 'llm-retry')[0]!.error).toMatchObject({
      code: 'tools-refused',
      values: { detail: 'Model server error 400: tools are not supported' },
    });
    const said = inspected(events);
    expect(said.en).toContain(
      'attempt 1 failed (The model server refused native tool calls (Model server error 400: tools are not supported); ' +
        'the tools now go in the text (nous format), and this model keeps that from now on.)',
    );
    expect(said.zh).toContain(
      '第 1 次尝试失败（模型服务器拒绝了原生工具调用（Model server error 400: tools are not supported）；现在工具改为写在文本中（nous 格式）',
    );
    expect(said.zh).not.toContain('refused native tool calls');
  });
});
