'use client';
// A new chat starts with the model and tools the user chose last (in any conversation of their own, not one with a
// saved agent), kept in this browser per user; the server's defaults when there is no choice yet. A remembered tool
// the user can no longer use is left out, and so is a model the model list no longer has.
import type { ConversationSettings } from '@/lib/store/types';

export interface NewChatChoice {
  model?: string;
  tools?: string[];
}

const PREFIX = 'agent-studio:new-chat:';

/** Where the choice is kept: the browser's localStorage, or nothing (a private window that refuses it). */
function storage(): Pick<Storage, 'getItem' | 'setItem'> | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

/** The choice remembered for `user` (an account's e-mail, or "local" without accounts). */
export function rememberedChoice(user: string, store = storage()): NewChatChoice {
  try {
    const raw = store?.getItem(PREFIX + user);
    const value = raw ? (JSON.parse(raw) as unknown) : undefined;
    if (!value || typeof value !== 'object') return {};
    const { model, tools } = value as Record<string, unknown>;
    return {
      ...(typeof model === 'string' && model ? { model } : {}),
      ...(Array.isArray(tools) && tools.every((t) => typeof t === 'string') ? { tools: tools as string[] } : {}),
    };
  } catch {
    return {};
  }
}

/** Remembers the model and/or tools just chosen (the rest of the choice stays). */
export function rememberChoice(user: string, patch: Partial<ConversationSettings>, store = storage()): void {
  if (patch.model === undefined && patch.tools === undefined) return;
  const next: NewChatChoice = { ...rememberedChoice(user, store) };
  if (patch.model !== undefined) next.model = patch.model;
  if (patch.tools !== undefined) next.tools = [...patch.tools];
  try {
    store?.setItem(PREFIX + user, JSON.stringify(next));
  } catch {
    // full or refused: the next new chat starts with the server's defaults
  }
}

/** A new chat's settings: the server's defaults with the remembered choice, only tools it `offers` (by name). */
export function withChoice(
  defaults: ConversationSettings,
  choice: NewChatChoice,
  offers: readonly string[],
): ConversationSettings {
  const settings: ConversationSettings = { ...defaults };
  if (choice.model) settings.model = choice.model;
  if (choice.tools) settings.tools = choice.tools.filter((t) => offers.includes(t));
  return settings;
}
