import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../lib/protocol/events';
import { emptyRun, foldRun, type Block, type RunView as RunViewData } from '../../lib/chat/view';
import { RunView } from './run-view';
import { buttons, elementById, render, textOf } from './test-html';

const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2 };
const run = (over: Partial<RunViewData> = {}): RunViewData => ({ ...emptyRun('r1'), ...over });
const reasoning = (over: Partial<Extract<Block, { kind: 'reasoning' }>> = {}): Block => ({
  kind: 'reasoning',
  id: 'r1',
  label: 'thinking',
  text: 'Let me add the numbers.',
  startT: 100,
  ...over,
});

describe('RunView', () => {
  it('renders reasoning, tool cards and the answer in the order they happened', () => {
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
        tools: ['calculator'],
      },
      { type: 'llm-start', runId: 'r1', iteration: 1, t: 1, format: 'native' },
      { type: 'reasoning-delta', runId: 'r1', iteration: 1, t: 10, text: 'Need 2+3.' },
      { type: 'llm-end', runId: 'r1', iteration: 1, t: 3210, finishReason: 'tool_calls', durationMs: 3209 },
      {
        type: 'tool-call',
        runId: 'r1',
        iteration: 1,
        t: 3211,
        functionId: '1',
        name: 'calculator',
        arguments: '{"expression":"2+3"}',
      },
      {
        type: 'tool-result',
        runId: 'r1',
        iteration: 1,
        t: 3223,
        functionId: '1',
        name: 'calculator',
        arguments: '{"expression":"2+3"}',
        ok: true,
        content: '5',
        durationMs: 12,
      },
      { type: 'llm-start', runId: 'r1', iteration: 2, t: 3224, format: 'native' },
      { type: 'text-delta', runId: 'r1', iteration: 2, t: 3300, text: 'The answer is **5**.' },
      { type: 'llm-end', runId: 'r1', iteration: 2, t: 3400, finishReason: 'stop', durationMs: 176 },
      {
        type: 'run-end',
        runId: 'r1',
        iteration: 0,
        t: 3401,
        reason: 'answered',
        llmCalls: 2,
        toolCalls: 1,
        usage,
        durationMs: 3401,
      },
    ];
    const html = render(<RunView run={foldRun('r1', events)} />);
    expect(buttons(html).map((b) => b.name)).toEqual(['Thought for 3.2 s', 'calculator expression: "2+3" done 12 ms']);
    expect(html.indexOf('Thought for')).toBeLessThan(html.indexOf('calculator'));
    expect(html.indexOf('calculator')).toBeLessThan(html.indexOf('<strong>5</strong>'));
    // Answered normally: no stop line, no alert, no waiting indicator.
    expect(html).not.toMatch(/role="(alert|status)"/);
    expect(textOf(html)).not.toMatch(/Stopped|Interrupted/);
  });

  it('keeps a live reasoning block open, named "Thinking…", with aria-controls pointing at its text', () => {
    const html = render(<RunView run={run({ blocks: [reasoning()] })} />);
    const [toggle] = buttons(html);
    expect(toggle?.name).toBe('Thinking…');
    expect(toggle?.attrs['aria-expanded']).toBe('true');
    const panel = elementById(html, toggle?.attrs['aria-controls'] ?? '');
    expect(panel?.attrs.hidden).toBeUndefined();
    expect(panel?.rest.startsWith('Let me add the numbers.</div>')).toBe(true);
  });

  it('folds a reasoning block once it ended and says how long it took', () => {
    const html = render(<RunView run={run({ blocks: [reasoning({ endT: 3300 })] })} />);
    const [toggle] = buttons(html);
    expect(toggle?.name).toBe('Thought for 3.2 s');
    expect(toggle?.attrs['aria-expanded']).toBe('false');
    expect(elementById(html, toggle?.attrs['aria-controls'] ?? '')?.attrs.hidden).toBe('');
    expect(html).not.toContain('Let me add the numbers.');
  });

  it('stops saying "Thinking…" when the run ended with the block still open (interrupted)', () => {
    const html = render(<RunView run={run({ status: 'interrupted', blocks: [reasoning()] })} />);
    expect(buttons(html)[0]?.name).toBe('Thinking (stopped)');
    expect(buttons(html)[0]?.attrs['aria-expanded']).toBe('false');
    expect(textOf(html)).toContain('Interrupted: the server stopped during this answer');
  });

  it('names a ReAct thought "Thought"', () => {
    const html = render(<RunView run={run({ blocks: [reasoning({ label: 'thought', startT: 5, endT: 5 })] })} />);
    expect(buttons(html)[0]?.name).toBe('Thought');
  });

  it('shows a ReAct reply that skipped the format as the answer, not as a Thought with no answer', () => {
    const at = { runId: 'r1', iteration: 1, t: 5 };
    const events: AgentEvent[] = [
      {
        ...at,
        iteration: 0,
        type: 'run-start',
        agent: 'a',
        kind: 'react',
        model: 'm',
        lang: 'en',
        maxLlmCalls: 20,
        tools: [],
      },
      { ...at, iteration: 0, type: 'text-delta', text: 'Thought: ', part: 'markup' },
      { ...at, type: 'llm-start', format: 'react' },
      { ...at, type: 'text-delta', text: 'Paris is the ', part: 'thought' },
      { ...at, type: 'text-delta', text: 'capital.', part: 'thought' },
      { ...at, type: 'llm-end', finishReason: 'stop', durationMs: 1 },
      { ...at, type: 'react-step', thought: '', finalAnswer: 'Paris is the capital.', plainReply: true },
      { ...at, type: 'run-end', reason: 'answered', llmCalls: 1, toolCalls: 0, usage, durationMs: 6 },
    ];
    const html = render(<RunView run={foldRun('r1', events)} />);
    expect(textOf(html)).toBe('Paris is the capital.');
    expect(buttons(html)).toEqual([]);
  });

  it('shows a waiting indicator while streaming with nothing yet, and not once something arrived', () => {
    expect(render(<RunView run={run()} />)).toMatch(/<div role="status"[^>]*>[\s\S]*Waiting for the model…/);
    const withText = render(<RunView run={run({ blocks: [{ kind: 'text', id: 't1', text: 'Hi' }] })} />);
    expect(withText).not.toContain('role="status"');
  });

  it('says while it happens why the model server is asked again, and in how long', () => {
    const html = render(
      <RunView run={run({ retrying: { attempt: 2, delayMs: 4000, status: 429, message: '429 Too Many Requests' } })} />,
    );
    expect(textOf(html)).toContain('Rate limited, retrying in 4 s (attempt 2)… 429 Too Many Requests');
    expect(html).not.toContain('Waiting for the model');
    const zh = render(
      <RunView run={run({ retrying: { attempt: 1, delayMs: 1500, status: 503, message: '503' } })} />,
      'zh-CN',
    );
    expect(textOf(zh)).toContain('模型服务出错（503），2 秒后重试（第 1 次）…');
  });

  it('tells the user to switch the connection’s tool-call mode when a native-mode answer holds <tool_call> tags', () => {
    const answered = (format: 'native' | 'nous'): AgentEvent[] => [
      { type: 'llm-start', runId: 'r1', iteration: 1, t: 1, format },
      {
        type: 'text-delta',
        runId: 'r1',
        iteration: 1,
        t: 2,
        text: 'Let me check.\n<tool_call>\n{"name": "current_time", "arguments": {}}\n</tool_call>',
      },
      {
        type: 'run-end',
        runId: 'r1',
        iteration: 0,
        t: 3,
        reason: 'answered',
        llmCalls: 1,
        toolCalls: 0,
        usage,
        durationMs: 3,
      },
    ];
    const html = render(<RunView run={foldRun('r1', answered('native'))} />);
    expect(textOf(html)).toContain(
      'This model wrote its tool calls as text (<tool_call>) instead of using the tools API',
    );
    expect(textOf(html)).toContain('“In the text (nous)”');
    expect(buttons(html).map((b) => b.name)).toContain('Open Models settings');
    // In the text mode the tags are the calls themselves; an answer without them says nothing.
    expect(textOf(render(<RunView run={foldRun('r1', answered('nous'))} />))).not.toContain('wrote its tool calls');
    const plain = answered('native').map((e) => (e.type === 'text-delta' ? { ...e, text: 'It is noon.' } : e));
    expect(textOf(render(<RunView run={foldRun('r1', plain)} />))).not.toContain('wrote its tool calls');
  });

  it('offers Continue on a run stopped at the model-call limit, when it can go on', () => {
    const stopped = run({ status: 'max-iterations', llmCalls: 20 });
    const html = render(<RunView run={stopped} onContinue={() => undefined} />);
    expect(textOf(html)).toContain('Stopped after 20 model calls (the limit)');
    expect(buttons(html).map((b) => b.name)).toEqual(['Continue']);
    expect(buttons(render(<RunView run={stopped} />))).toEqual([]);
    expect(buttons(render(<RunView run={run({ status: 'aborted' })} onContinue={() => undefined} />))).toEqual([]);
  });

  it('explains a run stopped at the model-call limit or by the user', () => {
    expect(textOf(render(<RunView run={run({ status: 'max-iterations', llmCalls: 8 })} />))).toBe(
      'Stopped after 8 model calls (the limit)',
    );
    expect(textOf(render(<RunView run={run({ status: 'aborted', llmCalls: 1 })} />))).toBe('Stopped by you');
  });

  it('says so when the model ended its turn with nothing to show, in the page’s language', () => {
    const empty = run({ status: 'answered', llmCalls: 1 });
    expect(textOf(render(<RunView run={empty} />))).toBe('The model returned no answer.');
    expect(textOf(render(<RunView run={empty} />, 'zh-CN'))).toBe('模型没有返回任何回答。');
    // Not a failure: no alert. Thinking, or a tool called, and then nothing: still no answer.
    expect(render(<RunView run={empty} />)).not.toContain('role="alert"');
    const thoughtOnly = run({ status: 'answered', llmCalls: 1, blocks: [reasoning({ endT: 900 })] });
    expect(textOf(render(<RunView run={thoughtOnly} />))).toContain('The model returned no answer.');
    const blank = run({ status: 'answered', llmCalls: 1, blocks: [{ kind: 'text', id: 't1', text: '\n  ' }] });
    expect(textOf(render(<RunView run={blank} />))).toBe('The model returned no answer.');
    // An answer, or a GroupChat handing the turn to the user, is not an empty turn.
    const answered = run({ status: 'answered', llmCalls: 1, blocks: [{ kind: 'text', id: 't1', text: 'Four.' }] });
    expect(textOf(render(<RunView run={answered} />))).toBe('Four.');
    const handoff = run({
      status: 'answered',
      llmCalls: 1,
      blocks: [{ kind: 'handoff', id: 'h1', round: 1, reason: 'manual', to: 'Ana' }],
    });
    expect(textOf(render(<RunView run={handoff} />))).not.toContain('no answer');
  });

  it('shows a failed run as an alert with the error message and a Retry button that is the caller’s', () => {
    const failed = run({ status: 'error', error: { name: 'ModelServiceError', message: '401 invalid api key' } });
    const html = render(<RunView run={failed} onRetry={() => undefined} />);
    expect(html).toMatch(
      /<div role="alert"[^>]*>[\s\S]*401 invalid api key[\s\S]*<button type="button"[^>]*>Retry<\/button>/,
    );
    const without = render(<RunView run={failed} />);
    expect(without).toContain('401 invalid api key');
    expect(buttons(without)).toHaveLength(0);
  });

  it('names the model server it could not reach, at its address only when given, with what to check', () => {
    const down = run({
      status: 'error',
      connection: 'Lab',
      error: {
        name: 'ModelServiceError',
        code: 'model-unreachable',
        message: 'Cannot reach the model server: Connection error. (fetch failed)',
        values: { detail: 'Connection error. (fetch failed)' },
      },
    });
    // Its owner (or the admin): the address, what to check, and the way to the Models settings.
    const owner = render(<RunView run={down} address="http://10.0.0.5:8000/v1" onRetry={() => undefined} />);
    expect(textOf(owner)).toContain(
      'Cannot reach the model server of “Lab” at http://10.0.0.5:8000/v1. Is the server running, and is that address right (Settings → Models)? The error: Connection error. (fetch failed)',
    );
    expect(buttons(owner).map((b) => b.name)).toEqual(['Open Models settings', 'Retry']);
    expect(textOf(render(<RunView run={down} address="http://10.0.0.5:8000/v1" />, 'zh-CN'))).toContain(
      '无法连接“Lab”的模型服务器（http://10.0.0.5:8000/v1）。请检查服务器是否在运行，以及这个地址是否正确（设置 → 模型）。错误信息：Connection error. (fetch failed)',
    );
    // Anyone else (a server-wide connection, the environment's): its name only, and who to tell.
    const other = render(<RunView run={{ ...down, connection: 'Environment' }} />);
    expect(textOf(other)).toBe(
      'Cannot reach the model server of “Environment”. It may be down for now: try again in a while, or tell whoever runs it (the admin). The error: Connection error. (fetch failed)',
    );
    expect(buttons(other)).toEqual([]);
    expect(textOf(render(<RunView run={{ ...down, connection: 'Environment' }} />, 'zh-CN'))).toBe(
      '无法连接“环境变量”的模型服务器。它可能暂时不可用：请稍后再试，或告诉它的管理员。错误信息：Connection error. (fetch failed)',
    );
  });

  it('says a run stopped by one of the server’s limits in the page’s language, by its code', () => {
    const message =
      "This run was stopped: your runs have stored 2 GB in the last 24 hours, the most one user's may " +
      '(RUN_BYTES_PER_DAY). What it had is kept; try again later.';
    const stopped = run({
      status: 'error',
      error: { name: 'RunStorageLimit', code: 'run-storage-spent', status: 429, message },
    });
    expect(textOf(render(<RunView run={stopped} />))).toBe(message);
    expect(textOf(render(<RunView run={stopped} />, 'zh-CN'))).toBe(
      '这次运行已停止：你的运行在 24 小时内存储的数据已达到每个用户的上限（由 RUN_BYTES_PER_DAY 设定）。已有的内容都已保留，请稍后再试。',
    );
    // A model server's own code is not one of ours: its words are shown as they came.
    const provider = run({
      status: 'error',
      error: { name: 'ModelServiceError', code: 'invalid_api_key', message: '401 bad key' },
    });
    expect(textOf(render(<RunView run={provider} />, 'zh-CN'))).toBe('401 bad key');
  });

  it('renders tool cards for each call with their status', () => {
    const html = render(
      <RunView
        run={run({
          blocks: [
            {
              kind: 'tool',
              id: 'a',
              iteration: 1,
              functionId: '1',
              name: 'web_search',
              arguments: '{"query":"qwen"}',
              status: 'running',
            },
            {
              kind: 'tool',
              id: 'b',
              iteration: 1,
              functionId: '2',
              name: 'calculator',
              arguments: '{"expression":"1"}',
              status: 'queued',
            },
          ],
        })}
      />,
    );
    expect(buttons(html).map((b) => b.name)).toEqual([
      'web_search query: "qwen" running',
      'calculator expression: "1" queued',
    ]);
  });
});
