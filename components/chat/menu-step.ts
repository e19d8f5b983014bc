'use client';
// On a phone the chat page's menu covers the page, as another screen would: opening it is a step of the browser's
// history, so that Back closes it (as it closes a phone app's drawer) instead of leaving the conversation under it.
// Closing it otherwise (Close, Escape, something picked in it) leaves that step; what the menu opens in its place (a
// conversation, a new chat) takes the step over (conversation-address.ts), so Back from there lands where the menu
// was opened, without it. A dialog opened from the menu (the agent editor) is over it: Back closes that first.

/** What the menu's step of the history holds beside Next's own fields. */
interface MenuStep {
  menuOpen?: boolean;
}

/** Set while the menu's step is being left (history.back() answers later, by a popstate event). */
let leaving = false;

/** Whether a step of the history (its state) is the one the menu's opening added. */
export function isMenuStep(state: unknown): boolean {
  return (state as MenuStep | null)?.menuOpen === true && !leaving;
}

/** The menu opens: a step of the history, at the same address. */
export function addMenuStep(): void {
  if (isMenuStep(window.history.state)) return;
  const step: MenuStep = { menuOpen: true };
  window.history.pushState(step, '', window.location.pathname + window.location.search);
}

/** The menu closes other than by Back: the step it added is left (`then` runs once the browser is back on the step
 *  before it; at once when there is none). */
export function leaveMenuStep(then?: () => void): void {
  if (!isMenuStep(window.history.state)) {
    then?.();
    return;
  }
  leaving = true;
  window.addEventListener(
    'popstate',
    () => {
      leaving = false;
      then?.();
    },
    { once: true },
  );
  window.history.back();
}

/** Back left the menu's step while a modal dialog opened from it is still over it (the agent editor, a question it
 *  asks): the dialog is what Back closes, as Escape would (it may ask first), and the menu's step is added again so
 *  that the menu stays, for the next Back. False when no dialog is open (the menu is what Back closes). */
export function backClosesDialog(): boolean {
  if (leaving) return false;
  const dialogs = document.querySelectorAll('dialog:modal');
  const top = dialogs[dialogs.length - 1];
  if (!(top instanceof HTMLDialogElement)) return false;
  addMenuStep();
  const cancel = new Event('cancel', { cancelable: true });
  top.dispatchEvent(cancel);
  if (!cancel.defaultPrevented) top.close();
  return true;
}
