import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../lib/protocol/events';
import { buildRunExport } from '../../lib/inspect/export';
import zhCN from '../../lib/i18n/messages/zh-CN.json';
import { buttons, render, textOf } from '../chat/test-html';
import { InspectRunButton } from './inspect-run-button';
import { InspectorBody } from './run-inspector';

const usage = { promptTokens: 3, completionTokens: 2, totalTokens: 5 };
const events: AgentEvent[] = [
  {
    type: 'run-start',
    runId: 'r1',
    iteration: 0,
    t: 0,
    agent: 'a',
    kind: 'fncall',
    model: 'm',
    lang: 'en',
    maxLlmCalls: 20,
    tools: [],
  },
  { type: 'llm-start', runId: 'r1', iteration: 1, t: 1, format: 'native' },
  { type: 'text-delta', runId: 'r1', iteration: 1, t: 2, text: 'Hi.' },
  { type: 'llm-end', runId: 'r1', iteration: 1, t: 3, finishReason: 'stop', durationMs: 2, usage },
  {
    type: 'run-end',
    runId: 'r1',
    iteration: 0,
    t: 4,
    reason: 'answered',
    llmCalls: 1,
    toolCalls: 0,
    usage,
    durationMs: 4,
  },
];

describe('the inspector summary', () => {
  it.each([
    ['en', 'Outcome Answered'],
    ['zh-CN', '结果 已回答'],
  ] as const)('says how the run ended ("Outcome"), not "Stopped" for a run that answered (%s)', (locale, said) => {
    const bundle = buildRunExport({ id: 'r1', status: 'answered' }, events);
    const text = textOf(render(<InspectorBody bundle={bundle} target={{ kind: 'stored', runId: 'r1' }} />, locale));
    expect(text).toContain(said);
    expect(text).not.toMatch(/Stopped Answered|停止原因/);
  });
});

describe('a call the run ended during', () => {
  const lost: AgentEvent[] = [
    events[0]!,
    { type: 'llm-start', runId: 'r1', iteration: 1, t: 1, format: 'native' },
    { type: 'llm-end', runId: 'r1', iteration: 1, t: 3, finishReason: 'tool_calls', durationMs: 2, usage },
    { type: 'tool-call', runId: 'r1', iteration: 1, t: 4, functionId: 'a', name: 'slow', arguments: '{}' },
  ];
  it.each([
    [
      'en',
      'Interrupted: the server stopped before the run finished.',
      'slow interrupted',
      'The server stopped while this call was running; it has no result.',
    ],
    ['zh-CN', '已中断：服务器在运行结束前停止了。', 'slow 已中断', '这次调用运行时，服务器停止了；它没有结果。'],
  ] as const)('reads as its chat card does: interrupted while running (%s)', (locale, outcome, status, sentence) => {
    // The server stopped while the call ran: the log has no run-end, the store marked the run interrupted.
    const bundle = buildRunExport({ id: 'r1', status: 'interrupted' }, lost);
    const text = textOf(render(<InspectorBody bundle={bundle} target={{ kind: 'stored', runId: 'r1' }} />, locale));
    expect(text).toContain(outcome);
    expect(text).toContain(status);
    expect(text).toContain(sentence);
    expect(text).not.toMatch(/Not run|未运行|Still running|仍在运行/);
  });
});

describe('the inspect button', () => {
  it('is named with the same verb in Chinese on a turn and on the Runs page (检查, as the 运行检查器 it opens)', () => {
    const [button] = buttons(render(<InspectRunButton runId="r1" />, 'zh-CN'));
    expect(button?.name).toBe('检查运行');
    expect(zhCN.runsPage.open).toBe('检查');
    expect(button?.name).toContain(zhCN.runsPage.open);
  });
});
