'use client';
// A yes-or-no question in the page's own modal dialog, in place of the browser's confirm() (whose buttons speak the
// browser's language, not the page's, and look like nothing else here). The focus starts on the safe answer, Tab
// goes round its buttons, and the focus goes back where it was on closing; Escape is the safe answer.
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useModalDialog } from './modal-dialog';

const BUTTON =
  'rounded border border-neutral-300 px-3 py-1 text-sm hover:bg-neutral-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:border-neutral-700 dark:hover:bg-neutral-800';

/** Tab from the last button goes round to the first, Shift+Tab from the first to the last: a modal dialog alone
 *  lets the focus out to the browser's own controls past its ends. */
function keepTabInside(e: KeyboardEvent<HTMLDialogElement>) {
  const buttons = [...e.currentTarget.querySelectorAll('button')];
  const [first, last] = [buttons[0], buttons.at(-1)];
  const at = document.activeElement;
  const to = e.shiftKey ? (at === first ? last : undefined) : at === last ? first : undefined;
  if (!to) return;
  e.preventDefault();
  to.focus();
}

export function ConfirmDialog({
  open,
  title,
  message,
  confirm,
  cancel,
  onAnswer,
}: {
  open: boolean;
  title: string;
  message?: string;
  /** The words of the button that does it, and of the one that does not. */
  confirm: string;
  cancel: string;
  onAnswer: (yes: boolean) => void;
}) {
  const dialog = useModalDialog(open);
  const safe = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const messageId = useId();
  // After useModalDialog's showModal (effects run in order).
  useEffect(() => {
    if (open) safe.current?.focus();
  }, [open]);
  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      aria-describedby={message ? messageId : undefined}
      // Escape is the safe answer, handled here: an owner's own Escape (a dialog under this one) must not see it, and
      // a cancel the browser was refused once would close the next one at once.
      onKeyDown={(e) => {
        if (e.key === 'Tab') return keepTabInside(e);
        if (e.key !== 'Escape') return;
        e.preventDefault();
        e.stopPropagation();
        onAnswer(false);
      }}
      onCancel={(e) => {
        e.preventDefault();
        onAnswer(false);
      }}
      className="m-auto w-[min(26rem,92vw)] rounded-lg border border-neutral-300 bg-white p-4 text-neutral-900 backdrop:bg-black/50 dark:border-neutral-700 dark:bg-neutral-950 dark:text-neutral-100"
    >
      {open && (
        <div className="space-y-3 text-sm">
          <h2 id={titleId} className="text-base font-semibold">
            {title}
          </h2>
          {message && <p id={messageId}>{message}</p>}
          <div className="flex flex-wrap justify-end gap-2">
            <button ref={safe} type="button" className={BUTTON} onClick={() => onAnswer(false)}>
              {cancel}
            </button>
            <button
              type="button"
              className="rounded bg-red-700 px-3 py-1 text-sm font-medium text-white hover:bg-red-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:ring-offset-2"
              onClick={() => onAnswer(true)}
            >
              {confirm}
            </button>
          </div>
        </div>
      )}
    </dialog>
  );
}

type Question = { title: string; message?: string; confirm: string; cancel: string };

/** confirm(), the page's way: `ask` opens the question and resolves to the answer; `dialog` is to be rendered. */
export function useConfirm(): { dialog: ReactNode; ask: (question: Question) => Promise<boolean> } {
  const [asked, setAsked] = useState<Question & { answer: (yes: boolean) => void }>();
  const ask = useCallback(
    (question: Question) => new Promise<boolean>((answer) => setAsked({ ...question, answer })),
    [],
  );
  const dialog = (
    <ConfirmDialog
      open={Boolean(asked)}
      title={asked?.title ?? ''}
      message={asked?.message}
      confirm={asked?.confirm ?? ''}
      cancel={asked?.cancel ?? ''}
      onAnswer={(yes) => {
        setAsked(undefined);
        asked?.answer(yes);
      }}
    />
  );
  return { dialog, ask };
}
