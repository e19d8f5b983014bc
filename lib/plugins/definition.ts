// A plugin's agent entry as an agent definition: the Agents page's export file ({schema, exportedAt, agent}) or the
// bare `agent` object, in the page's field names or Qwen-Agent's (system_message, generate_cfg, function_list). Its
// tools are names, or tool classes (registered under their own name when they are not yet). Members of a Router or
// GroupChat name other plugin agents (by name, or by their id `plugin:<name>`). Checked as the page checks a saved agent (parseAgentDefinition).
import { isPluginAgentId, pluginAgentId } from '../chat/agent-ids';
import { AGENT_EXPORT_SCHEMA, AgentDefinitionError, parseAgentDefinition } from '../chat/saved-agents';
import { isPlainObject } from '../protocol/json';
import type { AgentDefinition } from '../store/types';
import type { ToolClass } from '../../tools';
import { pluginCore } from './register';

/** Qwen-Agent's names for the fields, and the page's. */
const ALIASES: Record<string, string> = {
  system_message: 'systemMessage',
  system: 'systemMessage',
  generate_cfg: 'generateCfg',
  function_list: 'tools',
  fncall_mode: 'fncallMode',
  max_round: 'maxRound',
};

export function isToolClass(value: unknown): value is ToolClass {
  return typeof value === 'function' && value.prototype instanceof pluginCore().BaseTool;
}

/** A tool class's registered name: the one it is registered under, or its instance's `name` once registered. */
export function registerToolClass(cls: ToolClass): string {
  const { TOOL_REGISTRY, registerTool } = pluginCore();
  for (const [name, registered] of TOOL_REGISTRY) if (registered === cls) return name;
  const name = new cls().name;
  registerTool(name)(cls);
  return name;
}

/** The definition an entry of a plugin's `agents` stands for; throws an AgentDefinitionError saying what is wrong. */
export function pluginAgentDefinition(entry: unknown): AgentDefinition {
  let raw = entry;
  if (isPlainObject(raw) && 'schema' in raw) {
    if (raw.schema !== AGENT_EXPORT_SCHEMA)
      throw new AgentDefinitionError(
        `an agent export file has "schema": "${AGENT_EXPORT_SCHEMA}"`,
        'schema',
        'plugin-agent-schema',
        { expected: AGENT_EXPORT_SCHEMA },
      );
    raw = raw.agent;
  }
  if (!isPlainObject(raw))
    throw new AgentDefinitionError(
      'an agent is an object ({name, kind, tools, …})',
      undefined,
      'plugin-agent-not-object',
    );
  const fields: Record<string, unknown> = { kind: 'fncall' };
  for (const [key, value] of Object.entries(raw)) fields[ALIASES[key] ?? key] = value;
  if (Array.isArray(fields.tools))
    fields.tools = fields.tools.map((t: unknown) => (isToolClass(t) ? registerToolClass(t) : t));
  if (Array.isArray(fields.members))
    // By name, or by id (`plugin:<name>`, as the page's export file names a member from code).
    fields.members = fields.members.map((m: unknown) =>
      typeof m === 'string' && !isPluginAgentId(m) ? pluginAgentId(m) : m,
    );
  // Documents are uploads of someone's: a plugin has none.
  if ('documents' in fields)
    throw new AgentDefinitionError(
      'documents: an agent from code has no documents',
      'documents',
      'plugin-agent-documents',
    );
  const definition = parseAgentDefinition(fields);
  return definition;
}
