// assistant_mcp_sqlite_bot: an Assistant with the tools of an MCP server. The `{mcpServers: …}` entry of its
// function list starts a SQLite server over stdio; its tools (sqlite-list_tables, sqlite-read_query, …) are offered to
// the model like any other (Qwen-Agent's examples/assistant_mcp_sqlite_bot.py, ported). Upstream runs the Python
// server with `uvx mcp-server-sqlite`; this port runs servers/mcp-server-sqlite.mjs, the same tools in Node.
//
//   npx tsx examples/assistant_mcp_sqlite_bot.ts ["How many tables are in the database?"] [database file]
//
// The model: OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL (any OpenAI-compatible server), else DashScope with
// DASHSCOPE_API_KEY. The database defaults to test.db in DATA_DIR (./data).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Assistant, dataDir, typewriterPrint, type Message } from '@agent-studio/core';

export const SQLITE_SERVER = fileURLToPath(new URL('./servers/mcp-server-sqlite.mjs', import.meta.url));

export function initAgentService(dbPath: string): Assistant {
  return new Assistant({
    llm: { model: process.env.OPENAI_MODEL ?? 'qwen-max', model_server: process.env.OPENAI_BASE_URL ?? 'dashscope' },
    name: 'Database assistant',
    description: 'Answers questions about a database and changes it',
    systemMessage: 'You are a database assistant: you can query the database and change it.',
    functionList: [
      { mcpServers: { sqlite: { command: process.execPath, args: [SQLITE_SERVER, '--db-path', dbPath] } } },
    ],
  });
}

export interface SqliteBotOptions {
  query?: string;
  dbPath?: string;
  /** The conversation so far, to go on with. */
  history?: Message[];
  write?: (text: string) => void;
}

export async function main({
  query = 'How many tables are in the database?',
  dbPath = path.join(dataDir(), 'test.db'),
  history = [],
  write = (text) => process.stdout.write(text),
}: SqliteBotOptions = {}): Promise<Message[]> {
  mkdirSync(path.dirname(dbPath), { recursive: true });
  const bot = initAgentService(dbPath);
  let printed = '';
  let response: Message[] = [];
  for await (response of bot.run([...history, { role: 'user', content: query }]))
    printed = typewriterPrint(response, printed, write);
  write('\n');
  return response;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main({ query: process.argv[2], dbPath: process.argv[3] }).then(
    () => process.exit(0), // the MCP server runs until this process ends
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    },
  );
}
