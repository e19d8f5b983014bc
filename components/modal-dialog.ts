'use client';
// The one way the page opens a modal dialog: the native <dialog> shown with showModal() (focus is kept inside, Esc
// closes it, focus goes back to the opener), closed when `open` turns false or the owner unmounts. It starts on its
// first field (the browser would pick the first control: the header's Close button); when the control that opened
// it has left the page meanwhile (a notice that went away), `restoreFocus` says where the focus goes instead of the
// page itself.
import { useEffect, useRef } from 'react';

const FIELDS = 'input:not([type="hidden"]), select, textarea';

/** The dialog's first field a person can type in or choose from, if it has one. */
function firstField(dialog: HTMLDialogElement): HTMLElement | undefined {
  for (const el of dialog.querySelectorAll<HTMLInputElement>(FIELDS))
    if (!el.disabled && !el.readOnly && el.checkVisibility()) return el;
  return undefined;
}

export function useModalDialog(open: boolean, opts: { restoreFocus?: () => void } = {}) {
  const ref = useRef<HTMLDialogElement>(null);
  const restore = useRef(opts.restoreFocus);
  useEffect(() => {
    restore.current = opts.restoreFocus;
  });
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      firstField(dialog)?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    // By now the browser has given the focus back to the opener; when the opener is gone it is left on the page itself
    // or in the closed dialog.
    const closed = () => {
      const at = document.activeElement;
      if (!at || at === document.body || !at.isConnected || dialog.contains(at)) restore.current?.();
    };
    // Capture: before the owner's onClose, which may unmount the dialog (and so drop this listener) at once.
    dialog.addEventListener('close', closed, { capture: true });
    return () => {
      dialog.removeEventListener('close', closed, { capture: true });
      dialog.close();
    };
  }, []);
  return ref;
}
