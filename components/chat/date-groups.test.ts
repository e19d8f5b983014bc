import { describe, expect, it } from 'vitest';
import { groupByDate } from './date-groups';

const now = new Date(2026, 4, 20, 9, 30); // 20 May 2026, 09:30 local time
const at = (y: number, m: number, d: number, h = 12) => ({
  id: `${y}-${m}-${d}-${h}`,
  updatedAt: new Date(y, m - 1, d, h).getTime(),
});

describe('the conversation list by date', () => {
  it('groups newest first: Today, Yesterday, Previous 7 days, Previous 30 days, then by month', () => {
    const list = [
      at(2026, 5, 20, 8),
      at(2026, 5, 20, 0),
      at(2026, 5, 19, 23),
      at(2026, 5, 13),
      at(2026, 5, 12),
      at(2026, 4, 20),
      at(2026, 4, 19),
      at(2026, 3, 2),
      at(2025, 12, 31),
    ];
    const groups = groupByDate(list, now);
    expect(groups.map((g) => [g.id, g.items.length])).toEqual([
      ['today', 2],
      ['yesterday', 1],
      ['week', 1],
      ['month', 2],
      ['2026-04', 1],
      ['2026-03', 1],
      ['2025-12', 1],
    ]);
    expect(groups[4]!.key).toEqual({ month: 4, year: 2026 });
  });

  it('has no groups for no conversations', () => {
    expect(groupByDate([], now)).toEqual([]);
  });
});
