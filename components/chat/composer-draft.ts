'use client';
// The composer's text, kept outside the composer so the welcome page's suggestions can put a prompt there.
import { create } from 'zustand';

export const COMPOSER_TEXTBOX_ID = 'composer-message';

interface DraftState {
  text: string;
  setText(text: string): void;
}

export const useDraft = create<DraftState>()((set) => ({
  text: '',
  setText: (text) => set({ text }),
}));

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
