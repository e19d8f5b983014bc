// An MCP server that a run's tools come from and that cannot be reached: not the caller's mistake (their request is
// right; the server is down), so a 503 that says which server, not a 400 "Tool … is not registered".
import { CodedError } from '../protocol/errors';

export class McpServerDownError extends CodedError {
  override name = 'McpServerDownError';
  constructor(server: string, tool: string) {
    super(
      'mcp-server-down',
      `MCP server ${server} could not be reached, so its tool ${tool} cannot run now. Try again once it is up; the settings panel shows its state.`,
      { server, tool },
      503,
    );
  }
}
