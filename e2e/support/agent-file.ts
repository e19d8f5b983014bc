// An agent export file (schema agent-studio.agent/1) as the Agents page's Import takes it, for setInputFiles.
export function agentFile(
  file: string,
  agent: { name: string; tools?: string[]; systemMessage?: string; avatar?: string },
): { name: string; mimeType: string; buffer: Buffer } {
  return {
    name: file,
    mimeType: 'application/json',
    buffer: Buffer.from(
      JSON.stringify({
        schema: 'agent-studio.agent/1',
        exportedAt: new Date().toISOString(),
        agent: {
          name: agent.name,
          description: '',
          avatar: agent.avatar ?? '🧰',
          kind: 'fncall',
          systemMessage: agent.systemMessage ?? '',
          tools: agent.tools ?? [],
          generateCfg: {},
          suggestions: [],
          members: [],
        },
      }),
    ),
  };
}
