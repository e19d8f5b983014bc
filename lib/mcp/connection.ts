// One MCP server: connect (stdio, streamable HTTP, or SSE), list its tools, call them with a timeout, and reconnect
// once when the session has died. Nothing here may wait forever: every request carries a timeout.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { blockedAddressIn, type AddressPolicy } from '../net/address-policy';
import { limitMessages, megabytes, responseTooLargeIn } from '../net/bounded-body';
import { guardedFetch, type FetchLike } from '../net/guarded-fetch';
import { transportKind, type HttpServerConfig, type McpServerConfig, type StdioServerConfig } from './config';
import { isErrorNamed, withCode } from '../protocol/errors';

export interface McpToolInfo {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export type ServerState =
  | { status: 'connecting' }
  | { status: 'ready'; transport: 'stdio' | 'streamable-http' | 'sse'; tools: number; resources: boolean }
  | { status: 'failed'; error: string }
  | { status: 'closed' };

export interface ConnectionOptions {
  connectTimeoutMs: number;
  callTimeoutMs: number;
  /** Which addresses an HTTP server's URL may reach, checked for each connection opened (the same policy as model
   *  connections', lib/net/guarded-fetch.ts). Absent: any (a server the server's owner configured). */
  addressPolicy?: AddressPolicy;
}

const STDERR_KEEP = 2000;

/**
 * Most one message of an HTTP MCP server may be (bytes on the wire): a JSON answer whole, or one event of its event
 * stream (a stream may stay open for the session; no one event may be larger). A tool's result comes back to the
 * model, images and resources in it as base64, so it is of the same order as a model's answer
 * (MODEL_RESPONSE_MAX_BYTES): a larger one could not be passed on to a model anyway. A server that answers without end
 * is cut here instead of filling the server's memory.
 */
export const MCP_MESSAGE_MAX_BYTES = 32 * 1024 * 1024;

function message(e: unknown): string {
  // A refusal of the address policy says why, where fetch would only say "fetch failed".
  const blocked = blockedAddressIn(e);
  if (blocked) return blocked.message;
  return e instanceof Error ? e.message : String(e);
}

/** A rejected promise after `ms`, so a server that never answers cannot hold anything up. */
function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function isDeadSession(e: unknown): boolean {
  if (isErrorNamed<McpError>(e, 'McpError') && e.code === ErrorCode.ConnectionClosed) return true;
  return /not connected|connection closed|ECONNREFUSED|ECONNRESET|EPIPE|fetch failed|socket hang up/i.test(message(e));
}

export class McpConnection {
  state: ServerState = { status: 'connecting' };
  tools: McpToolInfo[] = [];
  hasResources = false;
  resourceTemplates: string[] = [];
  private client?: Client;
  private transport?: Transport;
  private alive = false;
  private connecting?: Promise<void>;
  private stderrTail = '';
  /** Set when the server's answer went past MCP_MESSAGE_MAX_BYTES on this session: the session was dropped. */
  private tooLarge = false;

  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
    private readonly opts: ConnectionOptions,
  ) {}

  /** The stdio child's process id (tests check that it ends with the app). */
  get pid(): number | undefined {
    return this.transport instanceof StdioClientTransport ? (this.transport.pid ?? undefined) : undefined;
  }

  /** Connects (once at a time); the state says how it went. Never throws. */
  connect(): Promise<void> {
    this.connecting ??= this.doConnect().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async doConnect(): Promise<void> {
    this.state = { status: 'connecting' };
    await this.dispose();
    this.tooLarge = false;
    try {
      const kind = transportKind(this.config);
      let used: 'stdio' | 'streamable-http' | 'sse';
      if (kind === 'stdio') used = await this.open('stdio');
      else if (kind === 'auto') {
        // A bare url: the current protocol first, then the older SSE one, as MCP clients commonly do.
        try {
          used = await this.open('streamable-http');
        } catch (first) {
          await this.dispose();
          try {
            used = await this.open('sse');
          } catch (second) {
            throw new Error(`streamable HTTP: ${message(first)}; SSE: ${message(second)}`);
          }
        }
      } else used = await this.open(kind);
      await this.loadCatalogue();
      this.state = { status: 'ready', transport: used, tools: this.tools.length, resources: this.hasResources };
    } catch (e) {
      await this.dispose();
      const tail = this.stderrTail.trim().split('\n').slice(-3).join(' | ');
      const why = this.tooLarge || responseTooLargeIn(e) ? this.tooLargeMessage() : message(e);
      this.state = { status: 'failed', error: tail ? `${why} (stderr: ${tail})` : why };
    }
  }

  private async open<K extends 'stdio' | 'streamable-http' | 'sse'>(kind: K): Promise<K> {
    const transport = this.makeTransport(kind);
    const client = new Client({ name: 'agent-studio', version: '0.1.0' });
    this.client = client;
    this.transport = transport;
    client.onclose = () => {
      if (this.client === client) this.alive = false;
    };
    client.onerror = () => {}; // transport errors surface through requests and onclose
    await withTimeout(
      client.connect(transport, { timeout: this.opts.connectTimeoutMs }),
      this.opts.connectTimeoutMs,
      `Connecting to MCP server ${this.name}`,
    );
    this.alive = true;
    return kind;
  }

  private makeTransport(kind: 'stdio' | 'streamable-http' | 'sse'): Transport {
    if (kind === 'stdio') {
      const c = this.config as StdioServerConfig;
      const transport = new StdioClientTransport({
        command: c.command,
        args: c.args,
        env: { ...getDefaultEnvironment(), ...c.env },
        cwd: c.cwd,
        stderr: 'pipe',
      });
      this.stderrTail = '';
      transport.stderr?.on('data', (chunk: Buffer) => {
        this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_KEEP);
      });
      return transport;
    }
    const c = this.config as HttpServerConfig;
    const requestInit = c.headers ? { headers: c.headers } : undefined;
    const policy = this.opts.addressPolicy;
    const base: FetchLike = policy && !policy.allowPrivate ? guardedFetch(policy) : fetch;
    const bounded = (async (input: Parameters<FetchLike>[0], init?: RequestInit) =>
      limitMessages(await base(input, init), MCP_MESSAGE_MAX_BYTES, () => this.answeredTooMuch())) as FetchLike;
    return kind === 'sse'
      ? new SSEClientTransport(new URL(c.url), { requestInit, fetch: bounded })
      : new StreamableHTTPClientTransport(new URL(c.url), { requestInit, fetch: bounded });
  }

  /** An answer cut at its limit may have been read in the background (an event stream), where nobody waiting for it
   *  would hear: the session is closed, so that what waits on it fails now, with what happened. */
  private answeredTooMuch(): void {
    this.tooLarge = true;
    this.alive = false;
    void this.client?.close().catch(() => {});
  }

  private tooLargeMessage(): string {
    return `MCP server ${this.name} answered more than ${megabytes(MCP_MESSAGE_MAX_BYTES)} in one message: it was not read further.`;
  }

  private async loadCatalogue(): Promise<void> {
    const client = this.client!;
    const timeout = this.opts.connectTimeoutMs;
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {}, { timeout });
      for (const t of page.tools)
        tools.push({ name: t.name, description: t.description ?? t.title ?? '', inputSchema: t.inputSchema });
      cursor = page.nextCursor;
    } while (cursor);
    this.tools = tools;
    this.hasResources = Boolean(client.getServerCapabilities()?.resources);
    this.resourceTemplates = [];
    if (this.hasResources) {
      try {
        const templates = await client.listResourceTemplates({}, { timeout });
        this.resourceTemplates = templates.resourceTemplates.map((t) => t.uriTemplate);
      } catch {
        // templates are optional
      }
    }
  }

  /** A live client: reconnects first when the session is known to be dead. */
  private async live(): Promise<Client> {
    if (!this.alive || !this.client) {
      await this.connect();
      if (this.state.status !== 'ready' || !this.client) {
        const reason = this.state.status === 'failed' ? this.state.error : 'not connected';
        throw new Error(`MCP server ${this.name} is not available: ${reason}`);
      }
    }
    return this.client;
  }

  /** Runs `fn` on a live client; on a dead session, reconnects once and runs it again. */
  private async withSession<T>(what: string, fn: (client: Client) => Promise<T>): Promise<T> {
    let retried = false;
    for (;;) {
      const client = await this.live();
      try {
        return await fn(client);
      } catch (e) {
        if (this.tooLarge || responseTooLargeIn(e)) throw new Error(this.tooLargeMessage(), { cause: e });
        if (isErrorNamed<McpError>(e, 'McpError') && e.code === ErrorCode.RequestTimeout)
          throw withCode(
            new Error(`MCP server ${this.name} did not answer ${what} within ${this.opts.callTimeoutMs} ms`),
            'tool-timeout',
          );
        if (retried || !(isDeadSession(e) || !this.alive)) throw e;
        retried = true;
        this.alive = false;
      }
    }
  }

  callTool(tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult> {
    return this.withSession(`tool ${tool}`, async (client) => {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, {
        timeout: this.opts.callTimeoutMs,
        signal,
      });
      return result as CallToolResult;
    });
  }

  listResources(signal?: AbortSignal) {
    return this.withSession('resources/list', (client) =>
      client.listResources({}, { timeout: this.opts.callTimeoutMs, signal }),
    );
  }

  readResource(uri: string, signal?: AbortSignal) {
    return this.withSession('resources/read', (client) =>
      client.readResource({ uri }, { timeout: this.opts.callTimeoutMs, signal }),
    );
  }

  private async dispose(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.transport = undefined;
    this.alive = false;
    if (client) await withTimeout(client.close(), 3000, 'Closing').catch(() => {});
  }

  async close(): Promise<void> {
    await this.dispose();
    this.state = { status: 'closed' };
  }

  /** For process exit, where nothing asynchronous runs any more: kill the stdio child at once. */
  killNow(): void {
    const pid = this.pid;
    if (pid) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  }
}
