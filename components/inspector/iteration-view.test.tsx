import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../lib/protocol/events';
import { foldInspection } from '../../lib/inspect/fold';
import { render, textOf } from '../chat/test-html';
import { IterationView } from './iteration-view';
import { RequestView } from './request-view';

const base = { runId: 'r', t: 0 };
const events: AgentEvent[] = [
  {
    ...base,
    type: 'llm-start',
    iteration: 1,
    format: 'nous',
    request: {
      model: 'm',
      messages: [{ role: 'user', content: 'go' }],
      stop: ['✿RESULT✿'],
      params: { temperature: 0.3 },
    },
    truncation: { inputTokens: 900, budget: 1000, notes: ['dropped 3 messages from the start'] },
  },
  {
    ...base,
    type: 'llm-end',
    iteration: 1,
    finishReason: 'stop',
    durationMs: 5,
    raw: { content: 'Sure.<tool_call>\n{"name": "calculator", "arguments": {"expr": 1}}\n</tool_call>' },
    parseErrors: ['a <tool_call> block was not valid JSON'],
  },
  { ...base, type: 'tool-call', iteration: 1, functionId: '1', name: 'calculator', arguments: '{"expr": 1}' },
  {
    ...base,
    type: 'tool-result',
    iteration: 1,
    functionId: '1',
    name: 'calculator',
    arguments: '{"expr": 1}',
    ok: false,
    content: 'Error: missing expression',
    durationMs: 1,
    error: { kind: 'invalid-arguments', message: 'expression: is required', type: 'ValidationError' },
  },
];

describe('IterationView', () => {
  it('marks the extracted tool call in the raw text, lists parse errors, and shows bad arguments beside the validation error', () => {
    const html = render(<IterationView iteration={foldInspection(events).iterations[0]!} />);
    const text = textOf(html);
    expect(html).toMatch(/<mark[^>]*>.*\[tool call: .*&lt;tool_call&gt;/s);
    expect(text).toContain('<tool_call> tags (nous/hermes prompt format)');
    expect(text).toContain('What failed to parse a <tool_call> block was not valid JSON');
    expect(text).toContain('Input truncated to fit 900 input tokens kept within a budget of 1,000. dropped 3 messages');
    expect(text).toMatch(/Arguments the model sent \{\s+"expr": 1\s+\} Validation error expression: is required/);
    expect(text).toContain('["✿RESULT✿"]');
  });

  it('draws only the latest 40 messages of a long request until asked for all', () => {
    const messages = Array.from({ length: 201 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `m${i}` }));
    const html = render(<RequestView request={{ model: 'm', messages, params: {} }} />);
    expect(html.match(/aria-label="Message \d+:/g)).toHaveLength(40);
    expect(html).toContain('aria-label="Message 162: assistant"');
    expect(html).not.toContain('aria-label="Message 161:');
    expect(textOf(html)).toContain('Showing the last 40 of 201 messages. Show all 201 messages');
  });
});
