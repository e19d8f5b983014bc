import { describe, expect, it } from 'vitest';
import type { ToolBlock } from '../../lib/chat/view';
import { ToolCard } from './tool-card';
import { ToolDecisions } from './tool-decisions';
import { buttons, render, textOf } from './test-html';

const block = (over: Partial<ToolBlock> = {}): ToolBlock => ({
  kind: 'tool',
  id: 'tool-1-1',
  iteration: 1,
  functionId: '1',
  name: 'calculator',
  arguments: '{"expression":"6*7"}',
  status: 'awaiting',
  ...over,
});

describe('ToolCard paused before its call', () => {
  it('offers the argument editor with Run, Skip and Supply result while its run is going', () => {
    const html = render(
      <ToolDecisions.Provider value={async () => undefined}>
        <ToolCard block={block()} />
      </ToolDecisions.Provider>,
    );
    expect(buttons(html)[0]!.name).toContain('awaiting approval');
    expect(html).toContain('aria-label="Approve calculator"');
    expect(buttons(html).map((b) => b.name)).toEqual(expect.arrayContaining(['Run', 'Skip', 'Supply result']));
    expect(textOf(html)).toContain('"expression": "6*7"'); // pretty-printed in the editor
  });

  it('offers nothing to decide once the run is not going, and says what was decided', () => {
    expect(render(<ToolCard block={block()} />)).not.toContain('Approve calculator');
    const html = render(
      <ToolCard
        block={block({
          status: 'done',
          result: '5',
          arguments: '{"expression":"2+3"}',
          decision: { action: 'run', arguments: '{"expression":"2+3"}' },
        })}
      />,
    );
    expect(textOf(html)).toContain('Run after your approval, with your edited arguments');
    expect(
      textOf(render(<ToolCard block={block({ status: 'done', result: 'x', decision: { action: 'skip' } })} />)),
    ).toContain('Skipped by you');
  });
});
