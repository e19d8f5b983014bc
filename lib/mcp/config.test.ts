import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMcpConfig, parseMcpConfigText, readMcpConfigFile, transportKind, writeMcpConfigFile } from './config';

describe('parseMcpConfig', () => {
  it('accepts the three server forms of the shared format', () => {
    const config = parseMcpConfig({
      mcpServers: {
        files: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'], env: { A: '1' } },
        remote: { url: 'https://mcp.example.com/sse', headers: { authorization: 'Bearer x' } },
        modern: { type: 'streamable-http', url: 'https://mcp.example.com/mcp' },
      },
    });
    expect(Object.keys(config.mcpServers)).toEqual(['files', 'remote', 'modern']);
    expect(transportKind(config.mcpServers.files!)).toBe('stdio');
    expect(transportKind(config.mcpServers.remote!)).toBe('auto');
    expect(transportKind(config.mcpServers.modern!)).toBe('streamable-http');
    expect(transportKind({ type: 'sse', url: 'http://x/sse' })).toBe('sse');
  });

  it('defaults args to an empty list', () => {
    expect(parseMcpConfig({ mcpServers: { a: { command: 'srv' } } }).mcpServers.a).toEqual({
      command: 'srv',
      args: [],
    });
  });

  it('lists every problem with where it is', () => {
    expect(() =>
      parseMcpConfig({
        mcpServers: {
          a: { command: 42 },
          b: { url: 'ftp://x' },
          c: { command: 'x', url: 'http://x' },
          'd e': { command: 'x' },
          f: { command: 'x', env: { K: 1 } },
        },
      }),
    ).toThrow(
      /^Invalid MCP config: a\.command: .*; b\.url: url must be an http\(s\) URL; c: give either "command" \(a stdio server\) or "url" \(an HTTP server\); d e: a server name may hold only letters, digits and _ \(at most 32\); f\.env\.K: /,
    );
  });

  it('lists a server’s problems past a bad name too', () => {
    expect(() => parseMcpConfig({ mcpServers: { 'bad name!': { command: 5 } } })).toThrow(
      /^Invalid MCP config: bad name!: a server name may hold only letters, digits and _ \(at most 32\); bad name!\.command: /,
    );
    expect(() => parseMcpConfig({ mcpServers: { 'x y': 'npx server' } })).toThrow(
      'Invalid MCP config: x y: a server name may hold only letters, digits and _ (at most 32); x y: must be an object with "command" (stdio) or "url" (HTTP)',
    );
  });

  it('says what is wrong with the shape or the JSON', () => {
    expect(() => parseMcpConfig([])).toThrow('The MCP config must be a JSON object like {"mcpServers": {...}}');
    expect(() => parseMcpConfig({ servers: {} })).toThrow('The MCP config has no "mcpServers" object');
    expect(() => parseMcpConfigText('{"mcpServers": {')).toThrow(/^The MCP config is not valid JSON: /);
  });
});

describe('the config file', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcp-config-'));
  it('reads a missing file as no servers', async () => {
    expect((await readMcpConfigFile(path.join(dir, 'none.json'))).config).toEqual({ mcpServers: {} });
  });

  it('writes a valid file (owner-only: it may hold secrets) and never replaces it with an invalid one', async () => {
    const file = path.join(dir, 'mcp.json');
    const good = '{"mcpServers": {"a": {"command": "srv", "args": []}}}';
    await writeMcpConfigFile(file, good);
    await expect(writeMcpConfigFile(file, '{"mcpServers": {"a": {}}}')).rejects.toThrow(/a: give either/);
    expect(readFileSync(file, 'utf8')).toBe(good);
    const { statSync } = await import('node:fs');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    writeFileSync(file, '');
    expect((await readMcpConfigFile(file)).config).toEqual({ mcpServers: {} });
  });
});
