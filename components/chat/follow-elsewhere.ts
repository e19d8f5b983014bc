'use client';
// A page in view whose window does not have the focus (two windows side by side, the focus in the other one) follows
// what its owner does elsewhere: every few seconds it asks whether the conversation list changed (one short answer,
// lib/chat/list-version.ts), and only when it did it catches up as on focus (the list; the open conversation's new
// message and its answer, followed as it streams). A hidden page asks nothing; a focused one catches up when it gets
// the focus, as before. Polling rather than a stream from the server: it reads the database, so it sees what any
// instance did (PostgreSQL) with no channel between instances, and holds no connection open per window.
import * as actions from '@/app/actions/chat';
import { useChat } from './store';

/** How often a page in view without the focus asks whether anything changed. */
export const FOLLOW_EVERY_MS = 2_000;

/** Starts following while the page is in view without the focus; returns the call that stops it. */
export function followElsewhere(): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let asking = false;
  let stopped = false;
  /** The list's version last seen, and whether the open conversation still waits to be checked (it was busy). */
  let version: string | undefined;
  let pending = false;

  const watching = () => !stopped && document.visibilityState === 'visible' && !document.hasFocus();

  async function ask() {
    timer = undefined;
    if (!watching()) return;
    asking = true;
    try {
      const now = await actions.conversationListVersion();
      const changed = now !== version;
      version = now;
      if (changed || pending) pending = !(await useChat.getState().catchUp(false, changed));
    } catch {
      // The server did not answer (restarting, the network gone): asked again next time.
    } finally {
      asking = false;
      schedule();
    }
  }

  function schedule() {
    if (watching() && timer === undefined && !asking) timer = setTimeout(() => void ask(), FOLLOW_EVERY_MS);
  }

  function update() {
    if (watching()) schedule();
    else if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
  }

  document.addEventListener('visibilitychange', update);
  window.addEventListener('focus', update);
  window.addEventListener('blur', update);
  update();
  return () => {
    stopped = true;
    update();
    document.removeEventListener('visibilitychange', update);
    window.removeEventListener('focus', update);
    window.removeEventListener('blur', update);
  };
}
