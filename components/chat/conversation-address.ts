'use client';
// The chat page's address names the conversation shown (`/?c=<id>`; `/` is the new chat), so that a reload or a link
// comes back to it. Opening another conversation (from the list, New chat, an agent) adds a step to the browser's
// history; what is not a move of the user's (a new chat that became a conversation, the one shown deleted or gone)
// replaces the step it happened in, so that Back never lands on what no longer is.
import { isMenuStep, leaveMenuStep } from './menu-step';
import type { DraftAgent } from './store';

/** What a step of the history holds beside its address: the agent a new chat was opened with (`/` alone cannot). */
export interface ChatStep {
  newChatAgent?: DraftAgent;
}

/** The conversation an address's query (`location.search`) names; undefined: the new chat. */
export function conversationInAddress(search: string): string | undefined {
  return new URLSearchParams(search).get('c') || undefined;
}

function currentAddress(): string {
  return window.location.pathname + window.location.search;
}

/** The user opens a conversation (undefined: a new chat): a new step of the history, unless it is the one shown. */
export function stepTo(conversationId: string | undefined, step: ChatStep = {}): void {
  const url = conversationId ? `/?c=${encodeURIComponent(conversationId)}` : '/';
  // Picked in the phone's menu: it takes over the menu's step (Back then lands where the menu was opened); the same
  // address leaves that step instead, for the one it was opened from.
  if (isMenuStep(window.history.state)) {
    if (currentAddress() === url) leaveMenuStep(() => window.history.replaceState(step, '', url));
    else window.history.replaceState(step, '', url);
  } else if (currentAddress() === url) window.history.replaceState(step, '', url);
  else window.history.pushState(step, '', url);
}

/** The conversation shown changed without the user moving (see above): the step they are on now names it, the rest
 *  of its address (the run open in the inspector) kept. */
export function replaceStep(conversationId: string | undefined): void {
  const params = new URLSearchParams(window.location.search);
  if (conversationId) params.set('c', conversationId);
  else params.delete('c');
  const query = params.toString();
  const url = query ? `/?${query}` : '/';
  if (currentAddress() !== url) window.history.replaceState({}, '', url);
}

/** What the step the browser moved to holds (its `popstate` event's state, with Next's own fields beside ours). */
export function stepOf(state: unknown): ChatStep {
  const agent = (state as ChatStep | null)?.newChatAgent;
  return agent && typeof agent.id === 'string' ? { newChatAgent: agent } : {};
}
