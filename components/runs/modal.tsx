'use client';
import { useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import { useModalDialog } from '../modal-dialog';

/** A modal dialog (the native <dialog>: focus is kept inside, Esc closes it) with a title and a Close button.
 *  `restoreFocus`: where the focus goes on closing when the control that opened it is gone. It hangs from the top
 *  rather than sitting in the middle: content that grows or shrinks (a download's progress, an error) would otherwise
 *  move every button by half as much, under the pointer. */
export function Modal({
  title,
  onClose,
  restoreFocus,
  children,
}: {
  title: string;
  onClose: () => void;
  restoreFocus?: () => void;
  children: ReactNode;
}) {
  const t = useTranslations('runs');
  const ref = useModalDialog(true, { restoreFocus });
  return (
    <dialog
      ref={ref}
      aria-label={title}
      onClose={onClose}
      className="mx-auto mt-[5dvh] mb-auto max-h-[90dvh] w-[min(72rem,95vw)] overflow-y-auto rounded-lg border border-neutral-300 bg-white p-0 text-neutral-900 shadow-xl backdrop:bg-black/40 dark:border-neutral-700 dark:bg-neutral-950 dark:text-neutral-100"
    >
      <div className="sticky top-0 flex items-center justify-between border-b border-neutral-200 bg-white px-4 py-2 dark:border-neutral-800 dark:bg-neutral-950">
        <h2 className="font-semibold">{title}</h2>
        <button
          type="button"
          onClick={() => ref.current?.close()}
          className="rounded px-2 py-1 text-sm hover:bg-neutral-200 focus-visible:outline-2 focus-visible:outline-blue-600 dark:hover:bg-neutral-800"
        >
          {t('close')}
        </button>
      </div>
      <div className="p-4">{children}</div>
    </dialog>
  );
}

export const ACTION_BUTTON =
  'rounded px-2 py-1 text-neutral-700 hover:bg-neutral-200 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:text-neutral-300 dark:hover:bg-neutral-800';
export const FIELD = 'rounded border border-neutral-300 bg-white px-2 py-1 dark:border-neutral-700 dark:bg-neutral-900';
export const PRIMARY_BUTTON =
  'rounded bg-blue-700 px-3 py-1 text-sm font-medium text-white hover:bg-blue-800 disabled:opacity-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600';
