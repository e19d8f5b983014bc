// npm run agent -- [--agent fncall|react] [--fncall native|nous|qwen] [--tool NAME]... [--json] "message"
// Runs an agent against the configured model (OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL) and prints the run.
import { parseArgs } from 'node:util';
import { FnCallAgent, ReActChat, type AgentEvent } from '../lib/agent';
import { fncallModeFrom, loadConfig } from '../lib/config';
import { createChatModel } from '../lib/llm';
import { TOOL_REGISTRY, toolSettings, unavailableReason } from '../tools';

const USAGE = `usage: npm run agent -- [--agent fncall|react] [--fncall native|nous|qwen] [--tool NAME]... [--system TEXT] [--json] "message"
  --agent    fncall (default) or react
  --fncall   function-calling mode (default: AGENT_FNCALL_MODE or native)
  --tool     a registered tool to offer (repeatable; default: every builtin tool)
  --json     print one JSON event per line instead of the readable trace
tools: ${[...TOOL_REGISTRY.keys()].sort().join(', ')}`;

function fail(message: string, code = 2): never {
  process.stderr.write(`agent: ${message}\n`);
  process.exit(code);
}

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        agent: { type: 'string', default: 'fncall' },
        fncall: { type: 'string' },
        tool: { type: 'string', multiple: true },
        system: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (e) {
    fail(`${(e as Error).message}\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const message = positionals.join(' ').trim();
  if (!message) fail(`no message given\n${USAGE}`);
  if (values.agent !== 'fncall' && values.agent !== 'react')
    fail(`--agent must be fncall or react (got "${values.agent}")`);
  const config = loadConfig();
  if (!config.llm.baseURL && !config.llm.apiKey) {
    fail(
      'no model configured: set OPENAI_BASE_URL (and OPENAI_API_KEY, OPENAI_MODEL) to an OpenAI-compatible server',
      2,
    );
  }
  // The CLI's messages come from its own user, so file-aware tools may copy any local path they name.
  const settings = toolSettings(config, { allowLocalPaths: true });
  const tools = values.tool?.length
    ? values.tool
    : [...TOOL_REGISTRY].filter(([, cls]) => !unavailableReason(cls, settings)).map(([name]) => name);
  for (const t of tools)
    if (!TOOL_REGISTRY.has(t)) fail(`unknown tool "${t}"; registered: ${[...TOOL_REGISTRY.keys()].join(', ')}`);

  const Kind = values.agent === 'react' ? ReActChat : FnCallAgent;
  let agent;
  try {
    agent = new Kind({
      llm: createChatModel({
        ...config.llm,
        fncallMode: values.fncall ? fncallModeFrom(values.fncall) : config.llm.fncallMode,
      }),
      functionList: tools,
      systemMessage: values.system,
      maxLlmCalls: config.maxLlmCallsPerRun,
      toolSettings: settings,
    });
  } catch (e) {
    fail((e as Error).message);
  }

  const abort = new AbortController();
  process.once('SIGINT', () => abort.abort());
  const print = values.json ? printJson : printReadable();
  let exitCode = 0;
  for await (const event of agent.runEvents([{ role: 'user', content: message }], {
    signal: abort.signal,
    conversationId: 'cli',
  })) {
    print(event);
    if (event.type === 'run-end') {
      if (event.reason === 'error') {
        process.stderr.write(`agent: ${event.error?.message ?? 'the run failed'}\n`);
        exitCode = 1;
      } else if (event.reason === 'aborted') exitCode = 130;
    }
  }
  return exitCode;
}

function printJson(event: AgentEvent): void {
  process.stdout.write(`${JSON.stringify(event)}\n`);
}

function printReadable(): (event: AgentEvent) => void {
  const tty = process.stdout.isTTY;
  const dim = (s: string) => (tty ? `\x1b[2m${s}\x1b[0m` : s);
  const bold = (s: string) => (tty ? `\x1b[1m${s}\x1b[0m` : s);
  let section: 'none' | 'reasoning' | 'text' = 'none';
  const out = (s: string) => process.stdout.write(s);
  const enter = (next: typeof section, header?: string) => {
    if (section === next) return;
    if (section !== 'none') out('\n');
    if (header) out(header);
    section = next;
  };
  return (e) => {
    switch (e.type) {
      case 'llm-start':
        enter('none');
        out(dim(`── model call ${e.iteration} (${e.format}) ──\n`));
        break;
      case 'llm-retry':
        enter('none');
        out(dim(`   retry ${e.attempt} in ${Math.round(e.delayMs)} ms: ${e.error.message}\n`));
        break;
      case 'reasoning-delta':
        enter('reasoning', dim('Thinking: '));
        out(dim(e.text));
        break;
      case 'text-delta':
        enter('text');
        out(e.text);
        break;
      case 'tool-call':
        enter('none');
        out(`${bold('→ ' + e.name)} ${e.arguments}\n`);
        break;
      case 'tool-result': {
        enter('none');
        const text = typeof e.content === 'string' ? e.content : JSON.stringify(e.content);
        out(
          `${e.ok ? '←' : '✗'} ${text.length > 2000 ? `${text.slice(0, 2000)}… (${text.length} chars)` : text} ${dim(`(${Math.round(e.durationMs)} ms)`)}\n`,
        );
        break;
      }
      case 'run-end': {
        enter('none');
        const why = {
          answered: 'answered',
          'max-iterations': `stopped: reached the limit of ${e.llmCalls} model calls`,
          aborted: 'stopped by the user',
          error: `error: ${e.error?.message}`,
          'tool-calls': 'ended with tool calls for the caller',
        }[e.reason];
        out(
          dim(
            `── ${why} · ${e.llmCalls} model call(s) · ${e.toolCalls} tool call(s) · ${e.usage.totalTokens} tokens · ${(e.durationMs / 1000).toFixed(1)} s ──\n`,
          ),
        );
        break;
      }
      default:
        break;
    }
  };
}

main().then(
  (code) => process.exit(code),
  (e) => fail((e as Error).stack ?? String(e), 1),
);
