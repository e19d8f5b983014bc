// group_chat_chess: a game as a group chat. A board member keeps the board (and may run code to update it), a
// computer player answers each move, and you play the other colour: after each move of yours the group goes on until
// it is your turn again (Qwen-Agent's examples/group_chat_chess.py, ported; the group is built as in
// group_chat_demo.ts).
//
//   npx tsx examples/group_chat_chess.ts ["Start! I play first: <1,1>"]
//
// The model: OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL (any OpenAI-compatible server), else DashScope with
// DASHSCOPE_API_KEY. In a terminal, the game goes on until an empty line.
import { createInterface } from 'node:readline/promises';
import { pathToFileURL } from 'node:url';
import { contentText, type Message } from '@agent-studio/core';
import { initAgentService, type GroupConfig } from './group_chat_demo';

export const NPC_NAME = 'Ming';
export const USER_NAME = 'Tang';
const RULES =
  'The board has 0 for an empty point, 1 for a black stone and -1 for a white one; <i,j> is the point in row i and ' +
  'column j, <0,0> being the top left corner.';

export const GAME: GroupConfig = {
  background:
    `A five-in-a-row group on a 5x5 board: the black and the white player take turns, and after every move the board ` +
    `is updated and shown. ${NPC_NAME} plays white, ${USER_NAME} plays black.`,
  agents: [
    {
      name: 'Board',
      description: 'Keeps the board up to date',
      instructions: `You are the board. From the current board and the point a player just played, show the new board as a matrix. ${RULES}`,
      selected_tools: ['code_interpreter'],
    },
    {
      name: NPC_NAME,
      description: 'The white player',
      instructions: `You are a strong five-in-a-row player and play white. ${RULES} Decide where to play; answer with the point only, as\n<i,j>\nand nothing else. Never say that you cannot play.`,
    },
    { name: USER_NAME, description: 'The black player', is_human: true },
  ],
};

function printMoves(messages: readonly Message[], write: (text: string) => void): void {
  for (const m of messages)
    if (m.role === 'assistant' && !m.function_call) write(`${m.name}: ${contentText(m.content)}\n`);
}

/** One move of yours, then the group's turn until it is yours again; returns the game so far. */
export async function main({
  query = 'Start! I play first: <1,1>',
  history = [],
  write = (text: string) => process.stdout.write(text),
}: { query?: string; history?: Message[]; write?: (text: string) => void } = {}): Promise<Message[]> {
  const bot = initAgentService(GAME, {
    model: process.env.OPENAI_MODEL ?? 'qwen-max',
    model_server: process.env.OPENAI_BASE_URL ?? 'dashscope',
  });
  const messages: Message[] = [...history, { role: 'user', name: USER_NAME, content: query }];
  const response = await bot.runNonStream(messages);
  printMoves(response, write);
  return [...messages, ...response];
}

async function tui(): Promise<void> {
  let game = await main({ query: process.argv[2] });
  if (!process.stdin.isTTY) return;
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    for (;;) {
      const move = (await rl.question(`${USER_NAME}: `)).trim();
      if (!move) return;
      game = await main({ query: move, history: game });
    }
  } finally {
    rl.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  tui().then(
    () => process.exit(0), // the sandbox's interpreter would keep the process alive
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    },
  );
}
