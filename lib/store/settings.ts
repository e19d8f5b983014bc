// What a new conversation starts with, and how partial updates combine with what is stored.
import type { FncallMode } from '../protocol/enums';
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
 *  fields given as undefined are ignored. */
export function mergeSettings(
  base: ConversationSettings,
  patch: Partial<ConversationSettings> | undefined,
): ConversationSettings {
  const merged: ConversationSettings = { ...base, tools: [...base.tools], generateCfg: { ...base.generateCfg } };
  if (!patch) return merged;
  if (patch.model !== undefined) merged.model = patch.model;
  if (patch.agent !== undefined) merged.agent = patch.agent;
  if (patch.tools !== undefined) merged.tools = [...patch.tools];
  if (patch.fncallMode !== undefined) merged.fncallMode = patch.fncallMode;
  if (patch.generateCfg !== undefined) merged.generateCfg = { ...patch.generateCfg };
  if (patch.systemMessage !== undefined) merged.systemMessage = patch.systemMessage;
  if (patch.pauseBeforeTools !== undefined) merged.pauseBeforeTools = patch.pauseBeforeTools;
  if (patch.lang !== undefined) merged.lang = patch.lang;
  if (patch.recordRawStream !== undefined) merged.recordRawStream = patch.recordRawStream;
  if (patch.agentId !== undefined) {
    if (patch.agentId) merged.agentId = patch.agentId;
    else delete merged.agentId; // '' leaves the saved agent
  }
  if (patch.documentTools !== undefined) merged.documentTools = patch.documentTools;
  if (patch.toolImages !== undefined) merged.toolImages = patch.toolImages;
  return merged;
}

/** Settings read back from the database: fields added to the defaults after a row was written get their default. */
export function settingsFromJson(json: string, defaults: ConversationSettings): ConversationSettings {
  return mergeSettings(defaults, JSON.parse(json) as Partial<ConversationSettings>);
}
