'use client';
// The one way the page opens a modal dialog: the native <dialog> shown with showModal() (focus is kept inside, Esc
// closes it, focus goes back to the opener), closed when `open` turns false or the owner unmounts.
import { useEffect, useRef } from 'react';

export function useModalDialog(open: boolean) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  useEffect(() => {
    const dialog = ref.current;
    return () => dialog?.close();
  }, []);
  return ref;
}
