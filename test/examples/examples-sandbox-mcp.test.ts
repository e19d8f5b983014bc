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
import { main as dataAnalysisMain } from '../../examples/react_data_analysis';
import { resetMcpManager } from '../../lib/mcp/manager';
import { shutdownSharedPool } from '../../lib/sandbox/pool';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { messageText, type RecordedRequest } from '../../scripts/model-server/script';
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
  shutdownSharedPool();
  await resetMcpManager();
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
    expect(existsSync(path.join(codeWorkDir('default'), 'dog_black_and_white.png'))).toBe(true);
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
    expect(existsSync(path.join(codeWorkDir('default'), 'close.png'))).toBe(true);
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
