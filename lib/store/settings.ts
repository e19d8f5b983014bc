// What a new conversation starts with, and how partial updates combine with what is stored.
import type { FncallMode } from '../protocol/enums';
import { SettingsPatchSchema } from '../protocol/conversation-settings';
import type { ConversationSettings } from './types';

export { DEFAULT_TITLE } from './types';

/** A new conversation's settings; the call format is the server's (AGENT_FNCALL_MODE), and so is whether tool images
 *  go to the model (TOOL_IMAGES_TO_MODEL). */
export function defaultSettings(
  fncallMode: FncallMode = 'native',
  opts: { toolImages?: boolean } = {},
): ConversationSettings {
  return {
    agent: 'fncall',
    tools: ['calculator', 'current_time'],
    fncallMode,
    generateCfg: {},
    systemMessage: '',
    pauseBeforeTools: false,
    ...(opts.toolImages ? { toolImages: true } : {}),
  };
}

/** Shallow merge: a given field replaces the stored one whole (so a caller can drop a generateCfg key or a tool);
 *  fields given as undefined, and fields that are no setting, are ignored. */
export function mergeSettings(
  base: ConversationSettings,
  patch: Partial<ConversationSettings> | undefined,
): ConversationSettings {
  const merged: ConversationSettings = { ...base, tools: [...base.tools], generateCfg: { ...base.generateCfg } };
  for (const key of Object.keys(SettingsPatchSchema.shape) as (keyof ConversationSettings)[]) {
    const value: unknown = patch?.[key];
    if (value === undefined) continue;
    const copy = Array.isArray(value) ? [...value] : value && typeof value === 'object' ? { ...value } : value;
    (merged as Record<string, unknown>)[key] = copy;
  }
  if (merged.agentId === '') delete merged.agentId; // '' leaves the saved agent
  return merged;
}

/** Settings read back from the database: fields added to the defaults after a row was written get their default. */
export function settingsFromJson(json: string, defaults: ConversationSettings): ConversationSettings {
  return mergeSettings(defaults, JSON.parse(json) as Partial<ConversationSettings>);
}
