// The conversation list grouped by when each was last active, as chat apps do: Today, Yesterday, Previous 7 days,
// Previous 30 days, then by month. Days are the browser's local days.
import type { ConversationSummary } from '@/lib/store/types';

export type DateGroupKey = 'today' | 'yesterday' | 'week' | 'month' | { month: number; year: number };

export interface DateGroup<T> {
  /** A stable id: "today", …, or "2026-03" for a month. */
  id: string;
  key: DateGroupKey;
  items: T[];
}

const DAY = 24 * 3600 * 1000;

function startOfDay(d: Date): number {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
}

function groupOf(at: number, now: Date): DateGroupKey {
  const today = startOfDay(now);
  if (at >= today) return 'today';
  // Calendar days (a day of 23 or 25 hours when the clocks change is still one day).
  const daysAgo = Math.round((today - startOfDay(new Date(at))) / DAY);
  if (daysAgo <= 1) return 'yesterday';
  if (daysAgo <= 7) return 'week';
  if (daysAgo <= 30) return 'month';
  const d = new Date(at);
  return { month: d.getMonth() + 1, year: d.getFullYear() };
}

/** The conversations (newest first) in their groups, in order; empty groups are left out. */
export function groupByDate<T extends Pick<ConversationSummary, 'updatedAt'>>(
  conversations: readonly T[],
  now: Date,
): DateGroup<T>[] {
  const groups: DateGroup<T>[] = [];
  for (const c of conversations) {
    const key = groupOf(c.updatedAt, now);
    const id = typeof key === 'string' ? key : `${key.year}-${String(key.month).padStart(2, '0')}`;
    const last = groups[groups.length - 1];
    // The list is newest first, so a group's conversations come together; a clock set back is a new group.
    if (last?.id === id) last.items.push(c);
    else groups.push({ id, key, items: [c] });
  }
  return groups;
}
