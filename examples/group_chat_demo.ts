// group_chat_demo: a group chat of several agents and one real person. Each turn up to three members speak: the ones
// a message @mentions first, in the order named, then whoever the group's host model picks; when the host picks the
// person, the group waits for them (Qwen-Agent's examples/group_chat_demo.py, ported; upstream's page of two tabs is
// a terminal conversation here, and its group creator is not ported yet).
//
//   npx tsx examples/group_chat_demo.ts ["@Coach what should I do this weekend?"]
//
// The model: OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL (any OpenAI-compatible server), else DashScope with
// DASHSCOPE_API_KEY. In a terminal, the conversation goes on until an empty line.
import { createInterface } from 'node:readline/promises';
import { pathToFileURL } from 'node:url';
import { Assistant, contentText, GroupChat, type Message, type QwenLlmConfig } from '@agent-studio/core';
import './assistant_add_custom_tool'; // registers my_image_gen

/** A group as upstream's demo writes it: a background and the members, one of them a real person. */
export interface GroupConfig {
  background: string;
  agents: {
    name: string;
    description: string;
    instructions?: string;
    selected_tools?: string[];
    /** The real person: never an agent, the group waits for them when they are picked. */
    is_human?: boolean;
  }[];
}

export const GROUP: GroupConfig = {
  background: 'A group chat of strangers who help each other out.',
  agents: [
    {
      name: 'Alex',
      description: 'Works long hours at an office and is getting thinner by the day (a real person).',
      is_human: true,
    },
    {
      name: 'Poet',
      description: 'A poet who answers in verse',
      instructions:
        'You are a poet. Answer in two or four short lines of verse, and after each answer draw a picture of your ' +
        'mood with the my_image_gen tool.',
      selected_tools: ['my_image_gen'],
    },
    {
      name: 'Fan',
      description: 'Follows every piece of pop music news',
      instructions:
        'You are a pop music fan. Keep it short and use emoticons. Lately you have been binge-watching a costume drama.',
    },
    {
      name: 'Coach',
      description: 'A sports student who does not care about celebrities',
      instructions: 'You love sport, do not follow celebrities, and try to talk everyone into working out.',
    },
  ],
};

export const MAX_ROUND = 3;

/** The group as a GroupChat: each member an Assistant with its instructions and tools, the person as the user. */
export function initAgentService(config: GroupConfig, llm: QwenLlmConfig): GroupChat {
  const human = config.agents.find((a) => a.is_human);
  const agents = config.agents
    .filter((a) => !a.is_human)
    .map(
      (a) =>
        new Assistant({
          llm,
          name: a.name,
          description: a.description,
          systemMessage: a.instructions,
          functionList: a.selected_tools ?? [],
        }),
    );
  return new GroupChat({
    llm,
    agents,
    systemMessage: config.background,
    maxRound: MAX_ROUND,
    ...(human ? { user: { name: human.name, description: human.description } } : {}),
  });
}

/** The conversation as lines "name: text", each tool call under its speaker; returns what is printed now. */
function printGroup(messages: readonly Message[], printed: string, write: (text: string) => void): string {
  const lines = messages.map((m) => {
    const text = contentText(m.content);
    if (m.function_call) return `${m.name}: Call Function: ${m.function_call.name} ${m.function_call.arguments}`;
    return m.role === 'function' ? `  (${m.name} returned ${text})` : `${m.name}: ${text}`;
  });
  const all = lines.join('\n');
  if (all.length > printed.length) write(all.slice(printed.length));
  return all;
}

export interface GroupChatOptions {
  /** What the person says first (default: nothing, and the host picks who opens). */
  query?: string;
  /** The conversation so far, to go on with (the function returns it with the new turn). */
  history?: Message[];
  write?: (text: string) => void;
}

/** One turn of the group: the person's message (if any), then up to MAX_ROUND members. */
export async function main({
  query,
  history = [],
  write = (text) => process.stdout.write(text),
}: GroupChatOptions = {}): Promise<Message[]> {
  const bot = initAgentService(GROUP, {
    model: process.env.OPENAI_MODEL ?? 'qwen-max',
    model_server: process.env.OPENAI_BASE_URL ?? 'dashscope',
  });
  const messages: Message[] = [...history];
  if (query) messages.push({ role: 'user', name: bot.userName, content: query });
  let printed = '';
  let response: Message[] = [];
  for await (response of bot.run(messages)) printed = printGroup(response, printed, write);
  write(response.length ? '\n' : 'No one wants to talk any more.\n');
  return [...messages, ...response];
}

async function tui(): Promise<void> {
  let history = await main({ query: process.argv[2] });
  if (!process.stdin.isTTY) return;
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    for (;;) {
      const query = (await rl.question(`${GROUP.agents.find((a) => a.is_human)?.name ?? 'you'}: `)).trim();
      if (!query) return;
      history = await main({ query, history });
    }
  } finally {
    rl.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  tui().then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    },
  );
}
