// Tool images given back to the model, end to end below the page: the real chat service and agent factory, a real
// SQLite file, code_interpreter in its real sandbox (CPython with matplotlib when this machine has the backend, else
// Pyodide writing a PNG by hand), and the scripted model server over HTTP, whose received request bodies are what
// is asserted. With the setting on, a model that sees gets the step's chart as an image part in the call after the
// tool step; with it off, or a model that cannot see, no image leaves (and the turn says so for the second).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { everyToolActor } from '../../lib/chat/actor';
import { storedFeed } from '../../lib/chat/feed';
import type { ChatService, StartedRun } from '../../lib/chat/service';
import { foldRun } from '../../lib/chat/view';
import { loadConfig } from '../../lib/config';
import type { AgentEvent, EventOf } from '../../lib/protocol/events';
import { createAppContext } from '../../lib/server/context';
import { ownerScope } from '../../lib/store/owner';
import { openSqliteStore } from '../../lib/store';
import type { ChatStore } from '../../lib/store/types';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { codeWorkDir } from '../../tools/code-interpreter';
import { CodeSandbox, type ToolSettings } from '../../tools';
import { drain, follow } from '../support/chat';
import { PYTHON_WRITES_PNG as HAND_PNG } from '../support/images';

const OWNER = ownerScope('owner-a');
const ACTOR = everyToolActor(OWNER);
const SLOW = 120_000;

// A chart with matplotlib (plt.show() keeps it as figure-1.png) on CPython; Pyodide has no matplotlib, so there a
// 2 × 2 PNG is written with zlib: either way the work directory gets a PNG the step produced.
const MATPLOTLIB = [
  'import matplotlib.pyplot as plt',
  "plt.bar(['Jan', 'Feb', 'Mar'], [120, 95, 140])",
  "plt.title('Revenue by month')",
  'plt.show()',
].join('\n');
let server: ModelServer;
let dataDir: string;
let store: ChatStore;
let chat: ChatService;
let code: string;
/** The contexts' tool settings, whose interpreters stop at the end. */
const sandboxes: ToolSettings[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'tool-images-'));
  const { codeInterpreter } = loadConfig({ CODE_INTERPRETER_BACKEND: 'auto' });
  code = (await new CodeSandbox(codeInterpreter).backend()).backend === 'python' ? MATPLOTLIB : HAND_PNG;
  server = await createModelServer();
  store = await openSqliteStore(path.join(dataDir, 'agent-studio.db'));
});
afterAll(async () => {
  for (const tools of sandboxes) tools.sandbox.shutdown();
  await server.close();
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** The app's context with the real agent factory, on `model` (its name decides whether it sees images). */
async function open(model: string) {
  const env = { DATA_DIR: dataDir, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'k', OPENAI_MODEL: model };
  const ctx = await createAppContext(loadConfig({ ...env, LLM_MAX_RETRIES: '0' }), store);
  sandboxes.push(ctx.tools);
  chat = ctx.chat;
}

beforeEach(() => {
  server.reset();
  server.setScenario({
    replies: [
      { toolCalls: [{ id: 'c1', name: 'code_interpreter', arguments: JSON.stringify({ code }) }] },
      { content: 'March is the best month.' },
    ],
  });
});

/** Runs one turn that plots a chart; the two request bodies the model server received, and the run's events. */
async function plot(settings: { toolImages?: boolean; fncallMode?: 'native' | 'nous' | 'qwen' }) {
  const started: StartedRun = await chat.send(ACTOR, {
    message: 'Plot revenue by month.',
    settings: { tools: ['code_interpreter'], ...settings },
  });
  await drain(follow(chat, OWNER, started.runId));
  const bodies = server.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body);
  const events = await store.getRunEvents(OWNER, started.runId);
  expect(events.at(-1)).toMatchObject({ type: 'run-end', reason: 'answered' });
  expect(bodies).toHaveLength(2);
  return { started, bodies, events };
}

type WirePart = { type: string; text?: string; image_url?: { url: string } };
const imageUrls = (body: { messages: { content: unknown }[] }) =>
  body.messages.flatMap((m) =>
    Array.isArray(m.content)
      ? (m.content as WirePart[]).filter((p) => p.type === 'image_url').map((p) => p.image_url!.url)
      : [],
  );
const result = (events: AgentEvent[]) => events.find((e): e is EventOf<'tool-result'> => e.type === 'tool-result')!;

describe('with tool images on, a model that sees', () => {
  beforeAll(() => open('qwen2.5-vl-7b-instruct'));

  it(
    'gets the chart as an image part in a user message after the tool message (native calls); the run log keeps its URL',
    async () => {
      const { started, bodies, events } = await plot({ toolImages: true });
      const tool = result(events);
      expect(tool.ok).toBe(true);
      const chart = tool.files!.find((f) => f.name === 'figure-1.png')!;
      expect(chart).toMatchObject({ mime: 'image/png' });
      const bytes = await readFile(path.join(codeWorkDir(dataDir, started.conversationId), 'figure-1.png'));

      // The first call has no image; the second is the chart, exactly the bytes the code wrote.
      expect(imageUrls(bodies[0])).toEqual([]);
      const messages = bodies[1].messages as { role: string; content: unknown; tool_call_id?: string }[];
      const at = messages.findIndex((m) => m.role === 'tool');
      expect(messages[at]).toMatchObject({ role: 'tool', tool_call_id: 'c1' });
      expect(typeof messages[at]!.content).toBe('string');
      expect(messages[at + 1]).toEqual({
        role: 'user',
        content: [
          { type: 'text', text: 'The images returned by the tool results above (code_interpreter):' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${bytes.toString('base64')}` } },
        ],
      });
      expect(messages).toHaveLength(at + 2);

      // The event and the inspector's request name the chart by its URL: no base64 in the log.
      expect(tool.content).toEqual([expect.objectContaining({ text: expect.any(String) }), { image: chart.url }]);
      const second = events.filter((e) => e.type === 'llm-start')[1] as EventOf<'llm-start'>;
      expect(JSON.stringify(second.request)).toContain(`"url":"${chart.url}"`);
      expect(JSON.stringify(events)).not.toContain(bytes.toString('base64').slice(0, 40));
      expect(foldRun(started.runId, storedFeed(events)).toolImagesWithheld).toBeUndefined();
    },
    SLOW,
  );

  it(
    'gets it inside the tool response with nous calls (a user message already)',
    async () => {
      const call = JSON.stringify({ name: 'code_interpreter', arguments: { code } });
      server.setScenario({
        replies: [{ content: `<tool_call>\n${call}\n</tool_call>` }, { content: 'March is the best month.' }],
      });
      const { bodies } = await plot({ toolImages: true, fncallMode: 'nous' });
      expect(imageUrls(bodies[0])).toEqual([]);
      const last = (bodies[1].messages as { role: string; content: WirePart[] }[]).at(-1)!;
      expect(last.role).toBe('user');
      expect(last.content[0]!.text).toContain('<tool_response>');
      expect(imageUrls(bodies[1])).toEqual([expect.stringMatching(/^data:image\/png;base64,iVBORw0KGgo/)]);
    },
    SLOW,
  );

  it(
    'gets it in the user message the call continues from with qwen calls',
    async () => {
      const args = JSON.stringify({ code });
      server.setScenario({
        replies: [
          { content: `✿FUNCTION✿: code_interpreter\n✿ARGS✿: ${args}` },
          { content: 'March is the best month.' },
        ],
      });
      const { bodies } = await plot({ toolImages: true, fncallMode: 'qwen' });
      const last = (bodies[1].messages as { role: string; content: WirePart[] }[]).at(-1)!;
      expect(last.role).toBe('user');
      expect(last.content.map((p) => p.type)).toEqual(['text', 'image_url', 'text']);
      expect(imageUrls(bodies[1])).toEqual([expect.stringMatching(/^data:image\/png;base64,iVBORw0KGgo/)]);
    },
    SLOW,
  );

  it(
    'gets no image with the setting off (the default)',
    async () => {
      const { bodies, events } = await plot({});
      expect(bodies.flatMap(imageUrls)).toEqual([]);
      expect(typeof result(events).content).toBe('string');
      expect(events.some((e) => e.type === 'llm-start' && e.toolImagesWithheld)).toBe(false);
    },
    SLOW,
  );
});

describe('with tool images on, a model that cannot see', () => {
  beforeAll(() => open('scripted'));

  it(
    'is sent no image, and the turn says once how many were withheld',
    async () => {
      const { started, bodies, events } = await plot({ toolImages: true });
      expect(bodies.flatMap(imageUrls)).toEqual([]);
      expect(JSON.stringify(bodies[1])).toContain('figure-1.png');
      const starts = events.filter((e) => e.type === 'llm-start') as EventOf<'llm-start'>[];
      expect(starts.map((e) => e.toolImagesWithheld)).toEqual([undefined, 1]);
      expect(foldRun(started.runId, storedFeed(events)).toolImagesWithheld).toBe(1);
    },
    SLOW,
  );
});
