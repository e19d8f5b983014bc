// A built-in tool's failure as the page says it: real agents call real tools against the scripted model server over
// HTTP (arguments that do not match the schema, a tool the agent does not have, a file that is not the
// conversation's, a page on this server's own network), and the tool card on the turn and the tool step in the run
// inspector say the failure in the page's language, the tool's own words inside; the English page reads as before,
// and the model is still told the English text.
import { describe, expect, it } from 'vitest';
import { FnCallAgent } from '../../lib/agent';
import { foldRun, type ToolBlock } from '../../lib/chat/view';
import { buildRunExport } from '../../lib/inspect/export';
import { createChatModel } from '../../lib/llm';
import { AgentEventSchema, type AgentEvent } from '../../lib/protocol/events';
import { formatOutcome, outcomeFailure, TIMEOUT_MESSAGE } from '../../lib/sandbox/format';
import { BaseTool, FailedToolOutput } from '../../tools';
import { localDocumentsForEachTest } from '../../test/support/local-documents';
import { collectEvents, ofType } from '../../test/support/run';
import { InspectorBody } from '../inspector/run-inspector';
import { render, textOf } from './test-html';
import { ToolCard } from './tool-card';

const env = localDocumentsForEachTest('tool-error-words-');

/** A run whose model calls `name` with `args` once, then answers; its events as they are stored. */
async function failedCall(name: string, args: string, tools: (string | BaseTool)[]): Promise<AgentEvent[]> {
  env.server.setScenario({ replies: [{ toolCalls: [{ id: 'c1', name, arguments: args }] }, { content: 'Done.' }] });
  const llm = createChatModel({ model: 'scripted', baseURL: env.server.url, apiKey: 'k', maxRetries: 0 });
  const events = await collectEvents(
    new FnCallAgent({ llm, functionList: tools }).runEvents([{ role: 'user', content: 'go' }]),
  );
  return events.map((e) => AgentEventSchema.parse(e));
}

/** The call's tool card on the turn (opened), and the run inspector, in each language. */
function shown(events: AgentEvent[]) {
  const run = foldRun(events[0]!.runId, events);
  const bundle = buildRunExport({ id: events[0]!.runId, status: 'done' }, events);
  const card = run.blocks.find((b): b is ToolBlock => b.kind === 'tool')!;
  const turn = (locale: 'en' | 'zh-CN') => textOf(render(<ToolCard block={card} defaultOpen />, locale));
  const inspector = (locale: 'en' | 'zh-CN') =>
    textOf(render(<InspectorBody bundle={bundle} target={{ kind: 'stored', runId: bundle.run.id }} />, locale));
  return { turn: { en: turn('en'), zh: turn('zh-CN') }, inspector: { en: inspector('en'), zh: inspector('zh-CN') } };
}

/** What the model was told of the call (the function message of its second request). */
function toldModel(): string {
  const chats = env.server.requests.filter((r) => r.path === '/v1/chat/completions');
  const messages = chats.at(-1)!.body.messages as { role: string; content: unknown }[];
  return String(messages.find((m) => m.role === 'tool')?.content);
}

describe('a built-in tool failing, as the page says it', () => {
  it('arguments that do not match its parameters', async () => {
    const events = await failedCall('calculator', '{"expr": "6*7"}', ['calculator']);
    const result = ofType(events, 'tool-result')[0]!;
    expect(result.error).toMatchObject({ kind: 'invalid-arguments', code: 'tool-arguments-invalid' });
    const detail = result.error!.message;
    expect(detail).toContain("missing required property 'expression'");
    const english = String(result.content);
    expect(english).toMatch(/^Invalid arguments for tool `calculator`: /);
    expect(toldModel()).toBe(english);

    const said = shown(events);
    // The English page: the text the model was given, as before.
    expect(said.turn.en).toContain(english.replaceAll('\n', ' '));
    expect(said.inspector.en).toContain(`Validation error ${detail}`);
    // The Chinese page: a Chinese sentence, the tool's words inside.
    const zh = `调用 calculator 的参数与它的参数定义不符：${detail}`;
    expect(said.turn.zh).toContain(zh);
    expect(said.turn.zh).not.toContain('Invalid arguments for tool');
    expect(said.inspector.zh).toContain(zh);
  });

  it('a tool the agent does not have', async () => {
    const events = await failedCall('teleport', '{}', ['calculator']);
    expect(toldModel()).toBe('Tool teleport does not exist.');
    const said = shown(events);
    expect(said.turn.en).toContain('Tool teleport does not exist.');
    expect(said.inspector.en).toContain('UnknownTool: Tool teleport does not exist.');
    const zh = '模型调用了名为“teleport”的工具，但这个智能体没有这个工具。';
    expect(said.turn.zh).toContain(zh);
    expect(said.turn.zh).not.toContain('does not exist');
    expect(said.inspector.zh).toContain(zh);
  });

  it('a file that is not one of the conversation’s', async () => {
    const events = await failedCall('doc_parser', '{"url": "missing.pdf"}', ['doc_parser']);
    const result = ofType(events, 'tool-result')[0]!;
    expect(result.error).toMatchObject({ kind: 'exception', type: 'FileNotSharedError', code: 'tool-file-missing' });
    const message = result.error!.message;
    expect(message).toMatch(/^Not a file of this conversation: missing\.pdf\./);
    expect(toldModel()).toBe(`An error occurred when calling tool \`doc_parser\`:\nFileNotSharedError: ${message}`);
    const said = shown(events);
    expect(said.turn.en).toContain(`FileNotSharedError: ${message}`);
    expect(said.inspector.en).toContain(`FileNotSharedError: ${message}`);
    expect(said.turn.zh).toContain(`doc_parser 找不到要求的文件：${message}`);
    expect(said.turn.zh).not.toContain('An error occurred when calling tool');
    expect(said.inspector.zh).toContain(`doc_parser 找不到要求的文件：${message}`);
  });

  it('a page on this server’s own network, refused by the address policy', async () => {
    const events = await failedCall('web_extractor', JSON.stringify({ url: `${env.server.url}/page` }), [
      'web_extractor',
    ]);
    const result = ofType(events, 'tool-result')[0]!;
    expect(result.error).toMatchObject({
      code: 'tool-address-refused',
      values: { tool: 'web_extractor', host: '127.0.0.1' },
    });
    expect(toldModel()).toMatch(/^An error occurred when calling tool `web_extractor`:\nBlockedAddressError: Refused/);
    const said = shown(events);
    expect(said.turn.en).toContain('BlockedAddressError: Refused to fetch 127.0.0.1: loopback address.');
    const zh =
      'web_extractor 不能访问 127.0.0.1：它位于本服务器自身的网络中（私有、回环或链路本地地址）。管理员可以用 WEB_FETCH_ALLOW_HOSTS 允许访问它。';
    expect(said.turn.zh).toContain(zh);
    expect(said.turn.zh).not.toContain('BlockedAddressError: Refused');
    expect(said.inspector.zh).toContain(zh);
    // The inspector still shows what the model was given, as it was given.
    expect(said.inspector.zh).toContain(toldModel().replaceAll('\n', ' '));
  });

  it('a tool’s own result that ran out of time: shown as it is, the time limit said below it', async () => {
    // Code stopped at its time limit, its result shaped as code_interpreter shapes it (lib/sandbox/format.ts).
    class SlowCode extends BaseTool {
      name = 'slow_code';
      description = 'Runs code.';
      parameters = { type: 'object', properties: {} };
      async call() {
        const outcome = { kind: 'timeout', timeoutMs: 50 } as const;
        return new FailedToolOutput(formatOutcome(outcome), outcomeFailure(outcome)!);
      }
    }
    const events = await failedCall('slow_code', '{}', [new SlowCode()]);
    expect(ofType(events, 'tool-result')[0]!.error).toMatchObject({ kind: 'failed', code: 'tool-timeout' });
    expect(toldModel()).toContain(TIMEOUT_MESSAGE);
    const said = shown(events);
    // The result as the model got it, then the failure: on the English page its type, on the Chinese one a sentence.
    expect(said.turn.en).toMatch(/The limit is 0\.05 s\. .* remain\. Timeout \(the tool reported a failure\)$/);
    expect(said.turn.zh).toMatch(/The limit is 0\.05 s\. .* remain\. slow_code 运行时间过长，已被停止：Timeout: Code/);
    expect(said.inspector.en).toContain(`Timeout: ${TIMEOUT_MESSAGE}`);
    expect(said.inspector.zh).toContain(`slow_code 运行时间过长，已被停止：${TIMEOUT_MESSAGE}`);
  });
});
