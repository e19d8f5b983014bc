'use client';
// The conversation's documents as compact chips (name, state, pages) that wrap onto at most three lines, so that
// many uploads leave the thread its room; "Show all (N)" opens the full list. Documents that failed come first, as
// full lines, and are never folded away; with several, "Clear errors (N)" dismisses them at once. A chip's Remove
// (or Clear errors) leaves the focus on the next chip's Remove, else in the message box, not on the page.
import { useTranslations } from 'next-intl';
import { useId, useLayoutEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import { focusComposer } from './composer-draft';
import { formatBytes } from './format';
import { useCodedText } from './server-text';
import { useUploadErrorText } from './upload-error-text';
import { useFormatWords } from './use-format-words';
import type { UploadItem } from './uploads';

const SIDE_BUTTON =
  'rounded-full border border-neutral-300 px-2.5 py-0.5 font-medium whitespace-nowrap hover:bg-neutral-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:border-neutral-700 dark:hover:bg-neutral-800';

/** One line of chips that wraps at most twice. */
const MAX_ROWS = 3;

/** Which chips fall below the allowed rows, and the height that shows the rest (undefined: everything fits).
 *  Offsets are the list's own (it is positioned). */
function measure(list: HTMLUListElement): { height: number; hidden: Set<string> } | undefined {
  const chips = [...list.children] as HTMLElement[];
  const tops = [...new Set(chips.map((c) => c.offsetTop))].sort((a, b) => a - b);
  const errorRows = new Set(chips.filter((c) => c.dataset.error).map((c) => c.offsetTop)).size;
  const rows = Math.max(MAX_ROWS, errorRows + 1);
  if (tops.length <= rows) return undefined;
  const cut = tops[rows]!;
  const hidden = new Set(chips.filter((c) => c.offsetTop >= cut).map((c) => c.dataset.key ?? ''));
  const shown = chips.filter((c) => c.offsetTop < cut);
  const bottom = Math.max(...shown.map((c) => c.offsetTop + c.offsetHeight));
  return { height: bottom, hidden };
}

function sameFold(a: ReturnType<typeof measure>, b: ReturnType<typeof measure>): boolean {
  if (!a || !b) return a === b;
  return a.height === b.height && a.hidden.size === b.hidden.size && [...a.hidden].every((k) => b.hidden.has(k));
}

/** Where the focus goes once the chips it was on are gone: the Remove of the chip now at `index`, else the message
 *  box when `composer` (a keyboard's click or a fine pointer's: on a touch screen it would pop the keyboard up). */
interface Refocus {
  gone: string[];
  index: number;
  composer: boolean;
}

/** The chips of these documents; `onRemove` is given a document's key, `onClearFailed` the failed ones' keys. */
export function DocumentChips({
  items,
  onRemove,
  onClearFailed,
}: {
  items: UploadItem[];
  onRemove: (key: string) => void;
  onClearFailed?: (keys: string[]) => void;
}) {
  const t = useTranslations('documents');
  const f = useFormatWords();
  const coded = useCodedText('documents.errors');
  const uploadErrorText = useUploadErrorText();
  const [expanded, setExpanded] = useState(false);
  const [fold, setFold] = useState<ReturnType<typeof measure>>();
  const list = useRef<HTMLUListElement>(null);
  const listId = useId();
  const ordered = useMemo(
    () => [...items.filter((i) => i.state === 'error'), ...items.filter((i) => i.state !== 'error')],
    [items],
  );
  const failures = ordered.filter((i) => i.state === 'error');
  const refocus = useRef<Refocus>(undefined);

  // Chips whose button had the focus are gone (once the server has let go of them): the focus moves on, unless the
  // user has put it somewhere already.
  useLayoutEffect(() => {
    const want = refocus.current;
    if (!want || ordered.some((i) => want.gone.includes(i.key))) return;
    refocus.current = undefined;
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    const buttons = [
      ...(list.current?.querySelectorAll<HTMLButtonElement>('button[data-remove]:enabled') ?? []),
    ].filter((b) => !b.closest('[inert]'));
    const next = buttons[Math.min(want.index, buttons.length - 1)];
    if (next) next.focus();
    else if (want.composer) focusComposer();
  }, [ordered]);

  /** The focus follows these chips' removal. */
  const followRemoval = (gone: string[], index: number, e: MouseEvent) => {
    const composer = e.detail === 0 || window.matchMedia('(pointer: fine)').matches;
    refocus.current = { gone, index, composer };
  };

  // Measured before paint, again whenever the chips or the width change; the fold only clips, so it moves no chip.
  useLayoutEffect(() => {
    const el = list.current;
    if (!el || expanded) return setFold(undefined);
    const update = () => {
      const next = measure(el);
      setFold((prev) => (sameFold(prev, next) ? prev : next));
    };
    update();
    const observer = new ResizeObserver(update);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ordered, expanded]);

  if (!items.length) return null;

  const errorText = (item: UploadItem) => uploadErrorText(item.name, item.error);
  const stateText = (item: UploadItem) => {
    switch (item.state) {
      case 'uploading':
        return t('uploading', { progress: item.progress });
      case 'parsing':
        return t('parsing');
      case 'ready':
        return item.imageUrl ? t('readyImage') : t('ready', { pages: item.pages ?? 0 });
      case 'error':
        return t('error', { message: errorText(item) });
    }
  };

  return (
    <div className="mx-auto mb-2 flex max-w-3xl items-start gap-2 text-xs">
      <ul
        ref={list}
        id={listId}
        aria-label={t('list')}
        style={fold ? { maxHeight: fold.height } : undefined}
        className={`relative flex min-w-0 flex-1 flex-wrap gap-1 ${fold ? 'overflow-hidden' : ''} ${expanded ? 'max-h-[40vh] overflow-y-auto' : ''}`}
      >
        {ordered.map((item, index) => {
          const failed = item.state === 'error';
          const folded = fold?.hidden.has(item.key);
          return (
            <li
              key={item.key}
              data-key={item.key}
              data-error={failed ? 'true' : undefined}
              inert={folded}
              aria-hidden={folded || undefined}
              title={t('chipTitle', { name: item.name, size: formatBytes(item.size, f) })}
              className={`flex max-w-full min-w-0 items-center gap-1.5 rounded-full border py-0.5 pr-0.5 pl-2.5 ${
                failed
                  ? 'basis-full rounded-lg border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100'
                  : 'border-neutral-300 bg-neutral-50 dark:border-neutral-700 dark:bg-neutral-900'
              }`}
            >
              {item.imageUrl && (
                // eslint-disable-next-line @next/next/no-img-element -- an upload of this conversation, served by us
                <img
                  src={item.imageUrl}
                  alt={t('thumbnail', { name: item.name })}
                  className="size-6 rounded object-cover"
                />
              )}
              <span className={`min-w-0 font-medium ${failed ? 'break-all' : 'max-w-[14rem] truncate'}`}>
                {item.name}
              </span>
              <span
                className={`min-w-0 ${failed ? 'flex-1 break-words' : 'shrink-0 text-neutral-600 dark:text-neutral-300'}`}
                aria-live="polite"
              >
                {stateText(item)}
                {item.notice && <span className="block text-xs">{coded(item.notice)}</span>}
              </span>
              {item.state === 'uploading' && (
                <progress
                  aria-label={t('uploadProgress', { name: item.name })}
                  max={1}
                  value={item.progress}
                  className="h-1.5 w-12 shrink-0 accent-blue-700"
                />
              )}
              <button
                type="button"
                data-remove
                aria-label={t('remove', { name: item.name })}
                disabled={item.state === 'uploading'}
                onClick={(e) => {
                  followRemoval([item.key], index, e);
                  onRemove(item.key);
                }}
                className="shrink-0 rounded-full p-1 hover:bg-neutral-200 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 disabled:opacity-50 dark:hover:bg-neutral-800"
              >
                <svg aria-hidden="true" viewBox="0 0 16 16" className="size-3" fill="none" stroke="currentColor">
                  <path d="M4 4l8 8M12 4l-8 8" strokeWidth="2" strokeLinecap="round" />
                </svg>
              </button>
            </li>
          );
        })}
      </ul>
      {(failures.length > 1 || fold || expanded) && (
        <div className="flex shrink-0 flex-col items-end gap-1">
          {failures.length > 1 && onClearFailed && (
            <button
              type="button"
              aria-controls={listId}
              onClick={(e) => {
                const keys = failures.map((i) => i.key);
                followRemoval(keys, 0, e);
                onClearFailed(keys);
              }}
              className={SIDE_BUTTON}
            >
              {t('clearFailed', { count: failures.length })}
            </button>
          )}
          {(fold || expanded) && (
            <button
              type="button"
              aria-expanded={expanded}
              aria-controls={listId}
              onClick={() => setExpanded((v) => !v)}
              className={SIDE_BUTTON}
            >
              {expanded ? t('showFewer') : t('showAll', { count: items.length })}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
