'use client';
import { useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

/** A list of rows, each a leading button (marked by `lead`, a selector) and its actions, made one Tab stop: the row
 *  last focused, else `preferred`, else the first. ↑ ↓ Home End move between rows' leading buttons, → ← between a
 *  row's buttons. Spread `row(id)` on each row's element; give the leading button `tabIndex={tabIndex(id)}` and the
 *  others -1; `list` goes on an element holding every row. */
export function useListKeys(ids: readonly string[], lead: string, preferred?: string) {
  const list = useRef<HTMLElement>(null);
  const [current, setCurrent] = useState<string | undefined>();
  const tabStop = [current, preferred].find((id) => id && ids.includes(id)) ?? ids[0];
  const leads = () => Array.from(list.current?.querySelectorAll<HTMLButtonElement>(lead) ?? []);
  const move = (e: KeyboardEvent<HTMLElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || !(e.target instanceof HTMLButtonElement)) return;
    const rowButtons = Array.from(e.currentTarget.querySelectorAll('button'));
    const all = leads();
    const at = all.indexOf(rowButtons[0] as HTMLButtonElement);
    if (at < 0) return; // a row being edited in place
    const inRow = rowButtons.indexOf(e.target);
    const to = {
      ArrowDown: all[at + 1],
      ArrowUp: all[at - 1],
      Home: all[0],
      End: all[all.length - 1],
      ArrowRight: rowButtons[inRow + 1],
      ArrowLeft: rowButtons[inRow - 1],
    }[e.key];
    if (!to) return;
    e.preventDefault();
    to.focus();
  };
  return {
    list,
    tabIndex: (id: string) => (id === tabStop ? 0 : -1),
    row: (id: string) => ({ onKeyDown: move, onFocus: () => setCurrent(id) }),
    leads,
    /** The row the focus was last in (still set once the focus has left the list). */
    lastFocused: current,
  };
}

/** The keys' line: said by a screen reader with each row (point `aria-describedby` at `id`), shown while the
 *  keyboard is in a list inside an element with the class `group/list`. `keepRoom` keeps its line drawn (empty)
 *  otherwise: under a list pinned to the bottom of the column, a line that came and went would move the rows under
 *  the pointer between a press and its release, and the click would be lost. */
export function ListKeysHint({ id, keepRoom, children }: { id: string; keepRoom?: boolean; children: ReactNode }) {
  return (
    <p
      id={id}
      className={
        keepRoom
          ? 'invisible px-2 text-xs text-neutral-600 group-has-[li_button:focus-visible]/list:visible dark:text-neutral-400'
          : 'sr-only px-2 text-xs text-neutral-600 group-has-[li_button:focus-visible]/list:not-sr-only dark:text-neutral-400'
      }
    >
      {children}
    </p>
  );
}
