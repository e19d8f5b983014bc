// A child run's section (a GroupChat member's answer, a ParallelDocQA reader's step) stops saying "answering…" /
// "working…" once its run is over however that came: its own run-end, its parent's failure or stop, or a server lost
// mid-run (the page's markInterrupted, and the same run read again after a reload). Before, only the child's own
// run-end ended it, and a killed server left it "working…" forever.
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../lib/protocol/events';
import { foldRun, markInterrupted, type RunView as RunViewData } from '../../lib/chat/view';
import { RunView } from './run-view';
import { render, textOf } from './test-html';

let t = 0;
const ev = (e: Record<string, unknown>, runId = 'p'): AgentEvent =>
  ({ runId, iteration: 1, t: (t += 10), ...e }) as AgentEvent;
const start = (runId: string, kind = 'fncall') =>
  ev(
    { type: 'run-start', iteration: 0, agent: runId, kind, model: 'm', lang: 'en', maxLlmCalls: 20, tools: [] },
    runId,
  );
const end = (reason: string, runId = 'p') =>
  ev(
    {
      type: 'run-end',
      iteration: 0,
      reason,
      llmCalls: 1,
      toolCalls: 0,
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      durationMs: 1,
    },
    runId,
  );
const child = (agent: string, e: AgentEvent, aside = false) =>
  ev({ type: 'child', agent, event: e, ...(aside ? { aside: true } : {}) });
const text = (runId: string, words: string) => ev({ type: 'text-delta', text: words }, runId);

/** A GroupChat whose second member is mid-answer, and a ParallelDocQA whose readers are still reading. */
const group = (): AgentEvent[] => [
  start('p', 'groupchat'),
  child('Ada', start('a')),
  child('Ada', text('a', 'Hello.')),
  child('Ada', end('answered', 'a')),
  child('Bo', start('b')),
  child('Bo', text('b', 'Let me th')),
];
const readers = (): AgentEvent[] => [
  start('p', 'paralleldocqa'),
  child('Reader 1', start('r1'), true),
  child('Reader 2', start('r2'), true),
  child('Reader 2', end('answered', 'r2'), true),
];

const shown = (run: RunViewData, locale: 'en' | 'zh-CN' = 'en') => textOf(render(<RunView run={run} />, locale));

describe('a child run section', () => {
  it('says answering… / working… while its run goes', () => {
    expect(shown(foldRun('p', group()))).toMatch(/Bo answering…/);
    expect(shown(foldRun('p', readers()))).toMatch(/Reader 1 working…/);
  });

  it('the server lost mid-answer: a member and a reader say interrupted, in English and Chinese', () => {
    const chat = foldRun('p', group());
    markInterrupted(chat);
    expect(shown(chat)).not.toContain('answering…');
    expect(shown(chat)).toMatch(/Bo interrupted/);
    expect(shown(chat, 'zh-CN')).not.toContain('回答中…');
    expect(shown(chat, 'zh-CN')).toMatch(/Bo 已中断/);
    const doc = foldRun('p', readers());
    markInterrupted(doc);
    expect(shown(doc)).not.toContain('working…');
    expect(shown(doc)).toMatch(/Reader 1 interrupted/);
    expect(shown(doc, 'zh-CN')).not.toContain('进行中…');
    expect(shown(doc, 'zh-CN')).toMatch(/Reader 1 已中断/);
    // A reader that finished says how long it took, as before.
    expect(shown(doc)).toMatch(/Reader 2 \d+ ms/);
  });

  it('the parent failed or was stopped with a child still going: the child ends as it did', () => {
    expect(shown(foldRun('p', [...group(), end('error')]))).toMatch(/Bo failed/);
    expect(shown(foldRun('p', [...readers(), end('aborted')]))).toMatch(/Reader 1 stopped/);
    expect(shown(foldRun('p', [...readers(), end('aborted')]), 'zh-CN')).toMatch(/Reader 1 已停止/);
  });
});
