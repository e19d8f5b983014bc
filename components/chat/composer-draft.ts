'use client';
// The composer's text, kept outside the composer so the welcome page's suggestions can put a prompt there. Each
// conversation has its own draft (and the new chat one), kept in the tab's sessionStorage per user: what was typed
// in one is there again on coming back to it, and never shows in another; a conversation deleted in this tab takes its
// draft with it.
import { create } from 'zustand';

export const COMPOSER_TEXTBOX_ID = 'composer-message';

const PREFIX = 'agent-studio:draft:';

/** Whose draft of which conversation: the user (an account's e-mail, "local" without accounts) and the
 *  conversation's id, or "new" for the new chat. */
export function draftKey(user: string | undefined, conversationId: string | undefined): string {
  return `${user ?? 'local'}:${conversationId ?? 'new'}`;
}

/** The tab's sessionStorage, or nothing (a browser that refuses it: drafts then last while the page does). */
function storage(): Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.sessionStorage;
  } catch {
    return undefined;
  }
}

function read(key: string): string {
  try {
    return storage()?.getItem(PREFIX + key) ?? '';
  } catch {
    return '';
  }
}

function keep(key: string | undefined, text: string): void {
  if (key === undefined) return;
  try {
    if (text) storage()?.setItem(PREFIX + key, text);
    else storage()?.removeItem(PREFIX + key);
  } catch {
    // full or refused: the draft stays in the box while the page does
  }
}

interface DraftState {
  /** The draft the box shows (draftKey); undefined until the page says which. */
  key?: string;
  text: string;
  setText(text: string): void;
  /** Shows the draft of `key`, the one shown until now staying kept under its own key. `carry`: the text in the box
   *  goes to `key` instead (a new chat that just became a conversation). */
  show(key: string, carry?: boolean): void;
}

export const useDraft = create<DraftState>()((set, get) => ({
  text: '',
  setText: (text) => {
    set({ text });
    keep(get().key, text);
  },
  show: (key, carry = false) => {
    const { key: shown, text } = get();
    if (key === shown) return;
    if (!carry) return set({ key, text: read(key) });
    keep(shown, '');
    keep(key, text);
    set({ key });
  },
}));

/** Forgets the draft of `key`, whose conversation was deleted: out of the tab's storage, and out of the box when it
 *  is the one shown (nothing shown until the page says which), so that nothing typed meanwhile writes it back. */
export function forgetDraft(key: string): void {
  keep(key, '');
  if (useDraft.getState().key === key) useDraft.setState({ key: undefined, text: '' });
}

/** Puts a prompt in the composer and moves the focus there, for the user to send or change it. */
export function suggest(text: string): void {
  useDraft.getState().setText(text);
  const box = document.getElementById(COMPOSER_TEXTBOX_ID);
  if (box instanceof HTMLTextAreaElement) {
    box.focus();
    box.setSelectionRange(text.length, text.length);
  }
}

/** Moves the focus to the composer (a new chat, a dialog closed whose opener is gone); false when it cannot take it
 *  (no model connected yet: it is disabled). */
export function focusComposer(): boolean {
  const box = document.getElementById(COMPOSER_TEXTBOX_ID);
  if (!(box instanceof HTMLTextAreaElement) || box.disabled) return false;
  box.focus();
  return true;
}

/** The composer takes the focus where a keyboard is at hand (on load, or when the control pressed goes away as a new
 *  answer starts); on a touch screen it would pop the keyboard up over the answer. */
export function focusComposerForKeyboard(): boolean {
  return window.matchMedia('(pointer: fine)').matches && focusComposer();
}
