// assistant_qwen3: an Assistant whose tools come from MCP servers and the builtins: the time (an MCP server over
// stdio), web pages (web_extractor, where upstream runs the `mcp-server-fetch` MCP server) and Python
// (code_interpreter). Qwen3 thinks before it answers: the thinking prints under [THINK] (Qwen-Agent's
// examples/assistant_qwen3.py, ported; upstream's Python time server is servers/mcp-server-time.mjs here).
//
//   npx tsx examples/assistant_qwen3.ts ["What time is it?"]
//
// The model: OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL (any OpenAI-compatible server), else DashScope's
// qwen3-235b-a22b with DASHSCOPE_API_KEY.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Assistant, typewriterPrint, type Message } from '@agent-studio/core';

export const TIME_SERVER = fileURLToPath(new URL('./servers/mcp-server-time.mjs', import.meta.url));

export function initAgentService(): Assistant {
  return new Assistant({
    llm: process.env.OPENAI_BASE_URL
      ? { model: process.env.OPENAI_MODEL, model_server: process.env.OPENAI_BASE_URL }
      : { model: 'qwen3-235b-a22b', model_type: 'qwen_dashscope' },
    functionList: [
      {
        mcpServers: {
          time: { command: process.execPath, args: [TIME_SERVER, '--local-timezone=Asia/Shanghai'] },
        },
      },
      'web_extractor',
      'code_interpreter',
    ],
    name: 'Qwen3 Tool-calling Demo',
    description: "A demo of Qwen3's tool calling: add your own tools and play with them.",
  });
}

export async function main({
  query = 'What time is it?',
  write = (text: string) => process.stdout.write(text),
}: { query?: string; write?: (text: string) => void } = {}): Promise<Message[]> {
  const bot = initAgentService();
  let printed = '';
  let response: Message[] = [];
  for await (response of bot.run([{ role: 'user', content: query }]))
    printed = typewriterPrint(response, printed, write);
  write('\n');
  return response;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main({ query: process.argv[2] }).then(
    () => process.exit(0), // the MCP server and the sandbox run until this process ends
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    },
  );
}
