// How a failed tool call failed, in the run inspector's tool step: real agents call real tools against the scripted
// model server over HTTP (a tool the agent lacks, arguments that do not match, a tool that throws), and the step says
// the kind of failure in the page's language, never the protocol's word for it (失败（exception）).
import { describe, expect, it } from 'vitest';
import { FnCallAgent } from '../../lib/agent';
import { buildRunExport } from '../../lib/inspect/export';
import { createChatModel } from '../../lib/llm';
import { TOOL_ERROR_KINDS } from '../../lib/protocol/enums';
import { AgentEventSchema, type AgentEvent } from '../../lib/protocol/events';
import en from '../../lib/i18n/messages/en.json';
import zhCN from '../../lib/i18n/messages/zh-CN.json';
import { localDocumentsForEachTest } from '../../test/support/local-documents';
import { collectEvents, ofType } from '../../test/support/run';
import { render, textOf } from '../chat/test-html';
import { InspectorBody } from './run-inspector';

const env = localDocumentsForEachTest('inspector-tool-kind-');

async function failedCall(name: string, args: string, tools: string[]): Promise<AgentEvent[]> {
  env.server.setScenario({ replies: [{ toolCalls: [{ id: 'c1', name, arguments: args }] }, { content: 'Done.' }] });
  const llm = createChatModel({ model: 'scripted', baseURL: env.server.url, apiKey: 'k', maxRetries: 0 });
  const events = await collectEvents(
    new FnCallAgent({ llm, functionList: tools }).runEvents([{ role: 'user', content: 'go' }]),
  );
  return events.map((e) => AgentEventSchema.parse(e));
}

function inspected(events: AgentEvent[], locale: 'en' | 'zh-CN'): string {
  const bundle = buildRunExport({ id: events[0]!.runId, status: 'answered' }, events);
  return textOf(render(<InspectorBody bundle={bundle} target={{ kind: 'stored', runId: bundle.run.id }} />, locale));
}

describe('a failed tool step in the run inspector', () => {
  it.each([
    [
      'a tool the agent lacks',
      'teleport',
      '{}',
      ['calculator'],
      'unknown-tool',
      'failed (no such tool)',
      '失败（没有这个工具）',
    ],
    [
      'arguments that do not match',
      'calculator',
      '{"expr": "6*7"}',
      ['calculator'],
      'invalid-arguments',
      'failed (arguments refused)',
      '失败（参数被拒绝）',
    ],
    [
      'a tool that throws',
      'doc_parser',
      '{"url": "missing.pdf"}',
      ['doc_parser'],
      'exception',
      'failed (the tool raised an error)',
      '失败（工具出错）',
    ],
  ])('says how it failed in the page’s language: %s', async (_, name, args, tools, kind, english, chinese) => {
    const events = await failedCall(name, args, tools);
    expect(ofType(events, 'tool-result')[0]!.error?.kind).toBe(kind);
    expect(inspected(events, 'en')).toContain(`${name} ${english}`);
    const zh = inspected(events, 'zh-CN');
    expect(zh).toContain(`${name} ${chinese}`);
    expect(zh).not.toContain(`（${kind}）`);
  });

  it('has words for every kind of tool failure the protocol has, in both languages', () => {
    for (const messages of [en, zhCN]) {
      const words = messages.inspector.toolErrorKind as Record<string, string>;
      expect(Object.keys(words).sort()).toEqual([...TOOL_ERROR_KINDS, 'error'].sort());
    }
  });
});
