import { describe, expect, it } from 'vitest';
import { emptyRun } from '../../lib/chat/view';
import type { TurnState } from './store';
import { buttons, render, textOf } from './test-html';
import { AnswerSwitcher } from './thread';

const turn = (over: Partial<TurnState>): TurnState => ({
  turnId: 't1',
  seq: 0,
  content: 'Hi',
  run: { ...emptyRun('r2'), status: 'answered' },
  runCount: 3,
  ...over,
});

describe('switching between a turn’s answers', () => {
  it('shows the latest of three as 3 / 3, with the earlier ones one step back', () => {
    const html = render(<AnswerSwitcher turn={turn({})} disabled={false} />);
    expect(html).toContain('aria-label="Answer 3 of 3"');
    expect(textOf(html)).toBe('3 / 3');
    const [previous, next] = buttons(html);
    expect(previous?.attrs['aria-label']).toBe('Previous answer');
    expect(previous?.attrs.disabled).toBeUndefined();
    expect(next?.attrs['aria-label']).toBe('Next answer');
    expect(next?.attrs.disabled).toBe('');
  });

  it('says when an earlier answer is shown that the conversation goes on from the latest (in Chinese too)', () => {
    const html = render(<AnswerSwitcher turn={turn({ shown: 1 })} disabled={false} />);
    expect(textOf(html)).toBe('1 / 3 An earlier answer: the conversation goes on from answer 3.');
    expect(buttons(html)[0]?.attrs.disabled).toBe('');
    expect(buttons(html)[1]?.attrs.disabled).toBeUndefined();
    const zh = render(<AnswerSwitcher turn={turn({ shown: 2 })} disabled={false} />, 'zh-CN');
    expect(zh).toContain('aria-label="第 2 个回答，共 3 个"');
    expect(buttons(zh).map((b) => b.attrs['aria-label'])).toEqual(['上一个回答', '下一个回答']);
  });

  it('cannot switch while a run is going', () => {
    const html = render(<AnswerSwitcher turn={turn({ shown: 2 })} disabled />);
    expect(buttons(html).every((b) => b.attrs.disabled === '')).toBe(true);
  });
});
