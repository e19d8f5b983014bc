// An MCP manager: the servers of the config file (shown on the settings page) and those given in agents'
// functionLists, connected once and shared by whoever holds the manager. The composition root makes it and hands it
// on (the app: lib/server/context.ts; a plain Node script: its tool settings, lib/agent/function-list.ts). Child
// processes end with the process, whichever manager started them.
import { createHash } from 'node:crypto';
import type { McpEnvConfig } from '../config';
import { processWide } from '../config/process-wide';
import { parseMcpConfig, readMcpConfigFile, transportKind, type McpConfig, type McpServerConfig } from './config';
import { McpConnection, type ServerState } from './connection';
import { toolsOf, type McpBaseTool } from './tool';

export interface ServerStatus {
  name: string;
  transport: 'stdio' | 'streamable-http' | 'sse' | 'auto';
  state: ServerState;
  tools: { name: string; description: string }[];
}

export class McpManager {
  /** Servers of the config file, by name. */
  private readonly servers = new Map<string, McpConnection>();
  /** Servers from functionList entries, by name and config. */
  private readonly adHoc = new Map<string, McpConnection>();
  private loading?: Promise<void>;
  private loadedOnce = false;
  /** True while the config file is being read and its servers connected. */
  busy = false;
  configError?: string;

  constructor(readonly env: McpEnvConfig) {}

  /** Reads the config file and connects its servers, the first time only; later calls wait for that. */
  start(): Promise<void> {
    if (!this.loadedOnce) {
      this.loadedOnce = true;
      this.loading = this.reload();
    }
    return this.loading ?? Promise.resolve();
  }

  /** Reads the config file again: servers removed or changed are closed, new or changed ones connected. */
  reload(): Promise<void> {
    this.busy = true;
    const run = (async () => {
      let config: McpConfig;
      try {
        config = (await readMcpConfigFile(this.env.configPath)).config;
        this.configError = undefined;
      } catch (e) {
        this.configError = e instanceof Error ? e.message : String(e);
        return; // keep what is running; the page shows the error
      }
      await this.apply(config);
    })().finally(() => {
      if (this.loading === run) this.busy = false;
    });
    this.loading = run;
    return run;
  }

  private async apply(config: McpConfig): Promise<void> {
    for (const [name, conn] of this.servers) {
      const next = config.mcpServers[name];
      if (!next || JSON.stringify(next) !== JSON.stringify(conn.config)) {
        this.servers.delete(name);
        await conn.close();
      }
    }
    const connecting: Promise<void>[] = [];
    for (const [name, server] of Object.entries(config.mcpServers)) {
      if (this.servers.has(name)) continue;
      const conn = this.connection(name, server);
      this.servers.set(name, conn);
      connecting.push(conn.connect());
    }
    await Promise.all(connecting);
  }

  /** Every configured server with its state and tools (no header or env values: this goes to the page). */
  status(): ServerStatus[] {
    return [...this.servers.values()].map((conn) => ({
      name: conn.name,
      transport: transportKind(conn.config),
      state: conn.state,
      tools: toolsOf(conn).map((t) => ({ name: t.name, description: t.description })),
    }));
  }

  /** The configured servers, not ready, whose tools (named `<server>-<tool>`) `toolNames` include. */
  downServersOf(toolNames: readonly string[]): McpConnection[] {
    return [...this.servers.values()].filter(
      (conn) => conn.state.status !== 'ready' && toolNames.some((t) => t.startsWith(`${conn.name}-`)),
    );
  }

  /** Connects `conns` again (those not ready), each bounded by the connect timeout. */
  async reconnect(conns: readonly McpConnection[]): Promise<void> {
    await Promise.all(conns.map((c) => (c.state.status === 'ready' ? undefined : c.connect())));
  }

  /** The tools of every ready configured server. */
  tools(): McpBaseTool[] {
    return [...this.servers.values()].flatMap(toolsOf);
  }

  /** Connects the servers of a functionList entry {mcpServers: ...} (shared by identical configs) and returns their
   *  tools; a server that cannot be reached is an error naming it and the reason. */
  async toolsFor(entry: unknown): Promise<McpBaseTool[]> {
    const config = parseMcpConfig(entry);
    const conns = Object.entries(config.mcpServers).map(([name, server]) => this.adHocConnection(name, server));
    await Promise.all(conns.map((c) => (c.state.status === 'ready' ? undefined : c.connect())));
    const failed = conns.filter((c) => c.state.status !== 'ready');
    if (failed.length)
      throw new Error(
        failed
          .map((c) => `MCP server ${c.name} failed: ${c.state.status === 'failed' ? c.state.error : c.state.status}`)
          .join('; '),
      );
    return conns.flatMap(toolsOf);
  }

  private adHocConnection(name: string, server: McpServerConfig): McpConnection {
    const key = `${name}:${createHash('sha256').update(JSON.stringify(server)).digest('hex')}`;
    let conn = this.adHoc.get(key);
    if (!conn) {
      conn = this.connection(name, server);
      this.adHoc.set(key, conn);
    }
    return conn;
  }

  private connection(name: string, server: McpServerConfig): McpConnection {
    running().add(this); // from now on the process's exit hooks end this manager's children too
    return new McpConnection(name, server, this.env);
  }

  /** Process ids of the running stdio servers. */
  pids(): number[] {
    return this.all()
      .map((c) => c.pid)
      .filter((p): p is number => p !== undefined);
  }

  async closeAll(): Promise<void> {
    const all = this.all();
    this.servers.clear();
    this.adHoc.clear();
    this.loadedOnce = false;
    running().delete(this);
    await Promise.all(all.map((c) => c.close()));
  }

  killAllNow(): void {
    for (const c of this.all()) c.killNow();
  }

  private all(): McpConnection[] {
    return [...this.servers.values(), ...this.adHoc.values()];
  }
}

/** The managers of this process that have servers (the exit hooks end their stdio children), with the hooks,
 *  installed once per process: signal and exit handlers are the process's, and a module reload in Next dev must not
 *  add them again. */
function running(): Set<McpManager> {
  return processWide('mcp-managers', () => {
    const managers = new Set<McpManager>();
    const killAll = () => {
      for (const manager of managers) manager.killAllNow();
    };
    process.once('exit', killAll);
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.once(signal, () => {
        killAll();
        // With no other handler (a plain script), re-raise so the process ends as it would have without ours.
        if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
      });
    }
    return managers;
  });
}
