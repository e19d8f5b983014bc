// A SQLite database as an MCP server over stdio, for assistant_mcp_sqlite_bot.ts: the same tools as the Python
// `mcp-server-sqlite` that upstream's example runs with uvx, written with the MCP SDK and better-sqlite3.
//
//   node examples/servers/mcp-server-sqlite.mjs --db-path test.db
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const { values } = parseArgs({ options: { 'db-path': { type: 'string' } } });
if (!values['db-path']) {
  process.stderr.write('usage: mcp-server-sqlite.mjs --db-path <file>\n');
  process.exit(2);
}
const db = new Database(values['db-path']);

const text = (value) => ({
  content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }],
});
const failure = (message) => ({ isError: true, content: [{ type: 'text', text: message }] });
/** The statement's first keyword, upper case. */
const verb = (sql) => /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? '';

const server = new McpServer({ name: 'sqlite', version: '1.0.0' });

server.registerTool(
  'read_query',
  { description: 'Run a SELECT query on the SQLite database; returns the rows.', inputSchema: { query: z.string() } },
  async ({ query }) => {
    if (!['SELECT', 'WITH', 'PRAGMA'].includes(verb(query))) return failure('read_query runs SELECT queries only.');
    try {
      return text(db.prepare(query).all());
    } catch (e) {
      return failure(`SQL error: ${e.message}`);
    }
  },
);

server.registerTool(
  'write_query',
  {
    description: 'Run an INSERT, UPDATE or DELETE statement on the SQLite database; returns the rows changed.',
    inputSchema: { query: z.string() },
  },
  async ({ query }) => {
    if (!['INSERT', 'UPDATE', 'DELETE', 'REPLACE'].includes(verb(query)))
      return failure('write_query runs INSERT, UPDATE or DELETE statements only.');
    try {
      return text({ affected_rows: db.prepare(query).run().changes });
    } catch (e) {
      return failure(`SQL error: ${e.message}`);
    }
  },
);

server.registerTool(
  'create_table',
  { description: 'Create a table with a CREATE TABLE statement.', inputSchema: { query: z.string() } },
  async ({ query }) => {
    if (verb(query) !== 'CREATE') return failure('create_table runs CREATE TABLE statements only.');
    try {
      db.exec(query);
      return text('Table created.');
    } catch (e) {
      return failure(`SQL error: ${e.message}`);
    }
  },
);

server.registerTool(
  'list_tables',
  { description: 'List the tables of the SQLite database.', inputSchema: {} },
  async () =>
    text(
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        .all(),
    ),
);

server.registerTool(
  'describe_table',
  {
    description: 'The columns of a table: name, type, whether it may be null, default.',
    inputSchema: { table_name: z.string() },
  },
  async ({ table_name }) => {
    const columns = db
      .prepare('SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?)')
      .all(table_name);
    return columns.length ? text(columns) : failure(`There is no table named ${table_name}.`);
  },
);

await server.connect(new StdioServerTransport());
