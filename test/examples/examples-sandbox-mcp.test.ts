// The ported examples that run code or an MCP server (examples.test.ts has the others): their main() against the
// scripted model server over real HTTP, code_interpreter in the real CPython sandbox (bubblewrap), and the SQLite MCP
// server of examples/servers as a real process over stdio, on a database file the test writes.
import { existsSync, mkdtempSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { main as customToolMain } from '../../examples/assistant_add_custom_tool';
import { main as sqliteBotMain } from '../../examples/assistant_mcp_sqlite_bot';
import { main as qwen3Main } from '../../examples/assistant_qwen3';
import { main as chessMain } from '../../examples/group_chat_chess';
import { main as dataAnalysisMain } from '../../examples/react_data_analysis';
import { main as tirMain } from '../../examples/tir_math';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { messageText, type RecordedRequest } from '../../scripts/model-server/script';
import { defaultToolSettings } from '../../tools';
import { codeWorkDir } from '../../tools/code-interpreter';
import { makeImage } from '../support/images';

let server: ModelServer;
let images: http.Server;
let imagesUrl = '';
const imageHits: string[] = [];
const dataDir = mkdtempSync(path.join(tmpdir(), 'examples-sandbox-'));
const savedEnv = { ...process.env };

beforeAll(async () => {
  server = await createModelServer({ model: 'scripted-model' });
  const png = await makeImage('png', 64, 48);
  // Stands in for the image service my_image_gen names (Pollinations).
  images = http.createServer((req, res) => {
    imageHits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'image/png' }).end(png);
  });
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
  imagesUrl = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
  Object.assign(process.env, {
    OPENAI_BASE_URL: server.url,
    OPENAI_API_KEY: 'sk-example',
    OPENAI_MODEL: 'scripted-model',
    DATA_DIR: dataDir,
    WEB_FETCH_ALLOW_PRIVATE: '1', // the stand-in image service listens on loopback
    CODE_INTERPRETER_BACKEND: 'python',
    CODE_INTERPRETER_TIMEOUT_MS: '30000',
  });
});
afterAll(async () => {
  // The examples' agents take the environment's settings (a plain script's root): their sandbox, their MCP servers.
  defaultToolSettings().sandbox.shutdown();
  await defaultToolSettings().mcpServers?.closeAll();
  process.env = savedEnv;
  await server.close();
  await new Promise((resolve) => images.close(resolve));
});
beforeEach(() => server.reset());

function output() {
  const out = { text: '' };
  return { out, write: (text: string) => void (out.text += text) };
}
const chats = () => server.requests.filter((r) => r.path.endsWith('/chat/completions'));
const allText = (req: RecordedRequest) =>
  (req.body.messages as { content: unknown }[]).map((m) => messageText(m.content)).join('\n');
const nousCall = (name: string, args: Record<string, unknown>) => ({
  content: `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`,
});

describe('assistant_add_custom_tool', () => {
  it('draws with the custom tool, then code_interpreter processes the picture as the document says', async () => {
    const code = [
      'from PIL import Image',
      "img = Image.open('a cute dog')",
      'print(img.size)',
      "img.convert('L').save('dog_black_and_white.png')",
    ].join('\n');
    server.setScenario({
      replies: [
        nousCall('my_image_gen', { prompt: 'a cute dog' }),
        nousCall('code_interpreter', { code }),
        { content: 'Here is the dog in black and white: dog_black_and_white.png' },
      ],
    });
    const { out, write } = output();
    await customToolMain({ query: 'draw a dog', imageServer: imagesUrl, write });

    const [first, second, third] = chats();
    // The document of image operations was searched for the question and given to the model.
    expect(messageText(first!.body.messages[0].content)).toContain('Black and white');
    expect(allText(second!)).toContain(`{"image_url":"${imagesUrl}/prompt/a%20cute%20dog"}`);
    // The picture was downloaded into the sandbox's working directory, where the code opened and converted it.
    expect(imageHits).toEqual(['/prompt/a%20cute%20dog']);
    expect(allText(third!)).toContain('(64, 48)');
    expect(allText(third!)).toContain('dog_black_and_white.png');
    expect(existsSync(path.join(codeWorkDir(dataDir, 'default'), 'dog_black_and_white.png'))).toBe(true);
    expect(out.text).toContain('[TOOL_CALL] my_image_gen');
    expect(out.text).toContain('[TOOL_RESPONSE] code_interpreter');
  }, 90_000);
});

describe('react_data_analysis', () => {
  it('reads the CSV with pandas and draws the chart in ReAct steps, the observations going back to the model', async () => {
    const step = (thought: string, code: string) => ({
      content: `Thought: ${thought}\nAction: code_interpreter\nAction Input: \`\`\`py\n${code}\n\`\`\`\nObservation:`,
    });
    server.setScenario({
      replies: [
        step('Look at the data first.', "import pandas as pd\ndf = pd.read_csv('stock_prices.csv')\nprint(df.head())"),
        step(
          'Now the chart of the closing prices.',
          "import matplotlib.pyplot as plt\nplt.plot(pd.to_datetime(df['Date']), df['Close'])\nplt.savefig('close.png')\nprint(len(df))",
        ),
        { content: 'Thought: I have the chart.\nFinal Answer: The chart of the closing prices is in close.png.' },
      ],
    });
    const { out, write } = output();
    await dataAnalysisMain({ write });

    const [, second, third] = chats();
    // The first rows of the real file, as pandas printed them, reached the model.
    expect(allText(second!)).toMatch(/Observation: [\s\S]*2024-01-02\s+100\.00\s+100\.31\s+99\.58\s+99\.72/);
    // The second step used the frame of the first (one interpreter per conversation) and wrote the chart.
    expect(allText(third!)).toMatch(/Observation: [\s\S]*60[\s\S]*close\.png/);
    expect(existsSync(path.join(codeWorkDir(dataDir, 'default'), 'close.png'))).toBe(true);
    expect(out.text).toContain('Final Answer: The chart of the closing prices is in close.png.');
  }, 90_000);
});

describe('assistant_mcp_sqlite_bot', () => {
  it("lists the database's tables and inserts a row through the SQLite MCP server", async () => {
    const dbPath = path.join(dataDir, 'school.db');
    const db = new Database(dbPath);
    db.exec('CREATE TABLE students (name TEXT, age INTEGER); CREATE TABLE classes (title TEXT);');
    db.close();

    server.setScenario({
      replies: [
        nousCall('sqlite-list_tables', {}),
        { content: 'The database has 2 tables: classes and students.' },
        nousCall('sqlite-write_query', { query: "INSERT INTO students (name, age) VALUES ('Han Meimei', 6)" }),
        { content: 'Han Meimei, 6, is now a student.' },
      ],
    });
    const { out, write } = output();
    const first = await sqliteBotMain({ query: 'How many tables are in the database?', dbPath, write });
    expect(messageText(chats()[0]!.body.messages[0].content)).toContain('sqlite-read_query');
    expect(allText(chats()[1]!)).toContain('[{"name":"classes"},{"name":"students"}]');
    expect(out.text).toContain('[ANSWER]\nThe database has 2 tables: classes and students.');

    await sqliteBotMain({
      query: 'Add a student called Han Meimei, aged 6',
      dbPath,
      history: [{ role: 'user', content: 'How many tables are in the database?' }, ...first],
      write,
    });
    expect(allText(chats()[3]!)).toContain('{"affected_rows":1}');
    const check = new Database(dbPath, { readonly: true });
    expect(check.prepare('SELECT name, age FROM students').all()).toEqual([{ name: 'Han Meimei', age: 6 }]);
    check.close();
  }, 90_000);
});

describe('tir_math', () => {
  it("runs the answer's python block in the sandbox and continues the answer from its output", async () => {
    const program = 'a, b = 0, 1\nfib = []\nfor _ in range(10):\n    fib.append(a)\n    a, b = b, a + b\nprint(fib)';
    server.setScenario({
      replies: [
        { content: `Let me compute them.\n\`\`\`python\n${program}\n\`\`\`\n\`\`\`output` },
        { content: 'So the first ten are \\boxed{0, 1, 1, 2, 3, 5, 8, 13, 21, 34}.' },
      ],
    });
    const { out, write } = output();
    const messages = await tirMain({ write });

    // The second call continues the answer, which now holds the program's real output.
    expect(allText(chats()[1]!)).toContain('print(fib)\n```\n```output\n[0, 1, 1, 2, 3, 5, 8, 13, 21, 34]\n```');
    expect(messages).toHaveLength(1); // one transcript, as upstream
    expect(out.text).toContain('\\boxed{0, 1, 1, 2, 3, 5, 8, 13, 21, 34}');
  }, 90_000);
});

describe('assistant_qwen3', () => {
  it('asks the time MCP server for the time and converts it, the results going back to the model', async () => {
    server.setScenario({
      replies: [
        nousCall('time-get_current_time', { timezone: 'Asia/Shanghai' }),
        nousCall('time-convert_time', { source_timezone: 'Asia/Shanghai', time: '16:30', target_timezone: 'UTC' }),
        { content: 'It is afternoon in Shanghai.' },
      ],
    });
    const { out, write } = output();
    await qwen3Main({ write });

    const system = messageText(chats()[0]!.body.messages[0].content);
    for (const tool of ['time-get_current_time', 'time-convert_time', 'web_extractor', 'code_interpreter'])
      expect(system).toContain(`"name": "${tool}"`);
    const now = /"datetime": "([^"]+\+08:00)"/.exec(allText(chats()[1]!));
    expect(now).not.toBeNull();
    expect(Math.abs(Date.parse(now![1]!) - Date.now())).toBeLessThan(10 * 60_000); // the server's clock: now
    expect(allText(chats()[2]!)).toMatch(
      /"datetime": "\d{4}-\d\d-\d\dT08:30:00\+00:00"[\s\S]*"time_difference": "-8h"/,
    );
    expect(out.text).toContain('[ANSWER]\nIt is afternoon in Shanghai.');
  }, 90_000);
});

describe('group_chat_chess', () => {
  it('updates the board and answers the move, then ends the turn for the person to play', async () => {
    const board = '[[0, 0, 0, 0, 0],\n [0, 1, 0, 0, 0],\n [0, 0, 0, 0, 0],\n [0, 0, 0, 0, 0],\n [0, 0, 0, 0, 0]]';
    server.setScenario({
      replies: [
        { content: 'Board' }, // the host: who speaks first
        { content: board },
        { content: 'Ming' },
        { content: '<2,2>' },
        { content: 'Tang' }, // the person's turn: the group stops here
      ],
    });
    const { out, write } = output();
    const game = await chessMain({ query: 'Start! I play first: <1,1>', write });

    expect(chats()).toHaveLength(5);
    expect(allText(chats()[1]!)).toContain('Tang: Start! I play first: <1,1>');
    expect(allText(chats()[3]!)).toContain(`Board: ${board}`); // Ming sees the board before playing
    expect(game.slice(1).map((m) => m.name)).toEqual(['Board', 'Ming']);
    expect(out.text).toBe(`Board: ${board}\nMing: <2,2>\n`);
  }, 90_000);
});
