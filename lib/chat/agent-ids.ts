// How an agent from code (a plugin's, lib/plugins) is named where a saved agent is named by its id: a conversation's
// `agentId`, a Router's or GroupChat's `members`, a model on /v1, a member in an export file. `plugin:<name>` is the
// same on every server that loads the plugin (a saved agent's id is a UUID, made by the store), so it travels as it is.
const PREFIX = 'plugin:';

/** The id a plugin agent goes by. */
export function pluginAgentId(name: string): string {
  return `${PREFIX}${name}`;
}

export function isPluginAgentId(id: string): boolean {
  return id.startsWith(PREFIX);
}

/** The plugin agent's name an id names (the id itself when it names no plugin agent). */
export function pluginAgentName(id: string): string {
  return isPluginAgentId(id) ? id.slice(PREFIX.length) : id;
}
