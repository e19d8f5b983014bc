// Tools a saved agent names that this server has none of (no builtin tool, plugin or MCP server gives one of that
// name): an agent may come from another server (its export file) with tools this one lacks. Its import says which;
// a run of it is refused naming them, before anything is stored, as Qwen-Agent refuses to build an agent whose
// function_list names a tool that is not registered. A tool this server has but cannot run now (an MCP server down,
// web_search without a provider, one the admin has not enabled for users) is refused by its own check, not here.
import { TOOL_REGISTRY } from '../../tools';
import { CodedError } from '../protocol/errors';
import { isPluginAgentId } from './agent-ids';

/** Kinds that run without their function list (TIRMathAgent and the doc-QA agents, lib/chat/agents.ts): the tools
 *  they name are never made. */
const KINDS_WITHOUT_TOOLS: ReadonlySet<string> = new Set(['tir', 'basicdocqa', 'paralleldocqa']);

/** Of an agent's tools, those no tool registered here has (call once the MCP servers' and plugins' tools are in). */
export function unregisteredTools(agent: { kind: string; tools: readonly string[] }): string[] {
  if (KINDS_WITHOUT_TOOLS.has(agent.kind)) return [];
  return agent.tools.filter((name) => !TOOL_REGISTRY.has(name));
}

/** A saved agent that names a tool this server does not have: HTTP 400, said with the agent, the tools and the fix.
 *  An agent from code (a plugin's) cannot be edited on the Agents page: its fix is the admin's, or a copy of it. */
export class AgentToolUnknownError extends CodedError {
  override name = 'AgentToolUnknownError';
  constructor(agent: string, tools: readonly string[], fromCode = false) {
    const list = tools.join(', ');
    const missing = `This server has no tool named ${list}, which the agent “${agent}” uses (no builtin tool, plugin or MCP server gives one).`;
    super(
      fromCode ? 'plugin-agent-tool-unknown' : 'agent-tool-unknown',
      fromCode
        ? `${missing} The agent comes from code (a plugin file), so it cannot be edited here: ask the server’s admin to provide the tool, or duplicate the agent on the Agents page and untick what is missing in the copy.`
        : `${missing} Edit the agent on the Agents page and untick what is missing, or ask the server’s admin to provide it.`,
      { name: agent, tools: list },
    );
  }
}

/** Refuses the agent, or the first agent it holds (a Router's or GroupChat's member, at any depth), that names a
 *  tool this server does not have. */
export function refuseUnknownTools(agent: AgentTree): void {
  const unknown = unregisteredTools(agent);
  if (unknown.length) throw new AgentToolUnknownError(agent.name, unknown, isPluginAgentId(agent.id));
  for (const member of agent.resolved) refuseUnknownTools(member);
}

/** A saved agent with the agents it holds (saved-agents.ts ResolvedAgent). */
interface AgentTree {
  /** A saved agent's id, or an agent from code's `plugin:<name>` (agent-ids.ts). */
  id: string;
  name: string;
  kind: string;
  tools: readonly string[];
  resolved: readonly AgentTree[];
}
