// Qwen-Agent's examples as ported to examples/: each one's main() runs against the scripted model server over real
// HTTP, with its model taken from OPENAI_BASE_URL / OPENAI_MODEL as when a person runs it, and each test checks that
// the run did what the example is about. The examples that need the sandbox or an MCP server:
// examples-sandbox-mcp.test.ts.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { main as customToolMain } from '../../examples/assistant_add_custom_tool';
import { main as ragMain } from '../../examples/assistant_rag';
import { main as weatherMain, POEMS } from '../../examples/assistant_weather_bot';
import { main as functionCallingMain } from '../../examples/function_calling';
import { main as parallelMain } from '../../examples/function_calling_in_parallel';
import { main as groupChatMain } from '../../examples/group_chat_demo';
import { main as quickChatMain } from '../../examples/llm_quick_chat_oai';
import { main as routerMain } from '../../examples/multi_agent_router';
import { main as qwqMain } from '../../examples/assistant_qwq';
import { main as riddlesMain } from '../../examples/llm_riddles';
import { main as vlMixMain, DRAWN_IMAGE } from '../../examples/llm_vl_mix_text';
import { main as vlFunctionCallingMain } from '../../examples/qwen2vl_function_calling';
import { main as virtualMemoryMain } from '../../examples/virtual_memory_qa';
import { main as storytellingMain } from '../../examples/visual_storytelling';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { lastUserText, messageText, type RecordedRequest } from '../../scripts/model-server/script';
import { makeImage } from '../support/images';
import { makePdf, textPage } from '../support/pdf-writer';

void customToolMain; // registers my_image_gen, which several examples offer (imported by them too)

let server: ModelServer;
/** Stands in for the services the examples reach on the internet: Open-Meteo, an image service, a PDF's host. */
let web: http.Server;
let webUrl = '';
const webHits: string[] = [];
const savedEnv = { ...process.env };
let png: Buffer;
const pdf = makePdf([
  textPage('Keeping a lighthouse', ['The keepers wrote the weather into the logbook every four hours.']),
  textPage('Figures', ['Figure 1 shows the lamp room of the Skerryvore lighthouse as drawn in 1844.']),
]);

beforeAll(async () => {
  server = await createModelServer({ model: 'scripted-model' });
  png = await makeImage('png', 64, 48);
  web = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    webHits.push(`${url.pathname}${url.search}`);
    if (url.pathname === '/v1/search') {
      const results =
        url.searchParams.get('name') === 'Haidian'
          ? [{ name: 'Haidian', country: 'China', latitude: 39.96, longitude: 116.3 }]
          : [];
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results }));
    } else if (url.pathname === '/v1/forecast') {
      const current = { temperature_2m: 21.5, relative_humidity_2m: 40, weather_code: 0, wind_speed_10m: 8.2 };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ current }));
    } else if (url.pathname.startsWith('/prompt/')) {
      res.writeHead(200, { 'content-type': 'image/png' }).end(png);
    } else if (url.pathname === '/paper.pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf' }).end(pdf);
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  webUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
  Object.assign(process.env, {
    OPENAI_BASE_URL: server.url,
    OPENAI_API_KEY: 'sk-example',
    OPENAI_MODEL: 'scripted-model',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'examples-')),
    // The test's stand-in services listen on loopback, which server-side downloads refuse by default.
    WEB_FETCH_ALLOW_PRIVATE: '1',
  });
});
afterAll(async () => {
  process.env = savedEnv;
  await server.close();
  await new Promise((resolve) => web.close(resolve));
});
beforeEach(() => {
  server.reset();
  webHits.length = 0;
});

/** Everything an example prints, as one string. */
function output() {
  const out = { text: '' };
  return { out, write: (text: string) => void (out.text += text) };
}

const chats = () => server.requests.filter((r) => r.path.endsWith('/chat/completions'));
const allText = (req: RecordedRequest) =>
  (req.body.messages as { content: unknown }[]).map((m) => messageText(m.content)).join('\n');
const systemText = (req: RecordedRequest) => messageText(req.body.messages[0].content);
const nousCall = (name: string, args: Record<string, unknown>) => ({
  content: `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`,
});

describe('function_calling', () => {
  it('runs the weather function the model asks for and gives its result back to the model', async () => {
    server.setScenario({
      replies: [
        nousCall('get_current_weather', { location: 'San Francisco, CA' }),
        { content: 'It is 72 °F in San Francisco right now.' },
      ],
    });
    const { out, write } = output();
    const messages = await functionCallingMain({ write });

    const [first, second] = chats();
    expect(systemText(first!)).toContain('"name": "get_current_weather"'); // offered in the nous template
    expect(allText(second!)).toContain(
      '<tool_response>\n{"location":"San Francisco","temperature":"72","unit":"fahrenheit"}\n</tool_response>',
    );
    expect(out.text).toContain(
      '# Function Response:\n{"location":"San Francisco","temperature":"72","unit":"fahrenheit"}',
    );
    expect(out.text).toMatch(/# Assistant Response 2:\nIt is 72 °F in San Francisco right now\./);
    expect(messages.at(-1)).toMatchObject({ role: 'assistant', content: 'It is 72 °F in San Francisco right now.' });
  });

  it('runs as one command, reading the model from the environment', async () => {
    server.setScenario({
      replies: [nousCall('get_current_weather', { location: 'Paris' }), { content: 'Paris: 22 °C.' }],
    });
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'examples/function_calling.ts'], {
        cwd: path.resolve(__dirname, '../..'),
        env: process.env,
      });
      let stdout = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.on('close', (code) => resolve({ code, stdout }));
    });
    expect(code).toBe(0);
    expect(stdout).toContain('# Function Response:\n{"location":"Paris","temperature":"22","unit":"celsius"}');
    expect(stdout).toContain('Paris: 22 °C.');
  }, 60_000);
});

describe('function_calling_in_parallel', () => {
  it('gets three calls in one answer, runs them all and returns the results in order', async () => {
    const call = (place: string) => `✿FUNCTION✿: get_current_weather\n✿ARGS✿: {"location": "${place}"}`;
    server.setScenario({
      replies: [
        { content: `${call('San Francisco')}\n${call('Tokyo')}\n${call('Paris')}\n✿RESULT✿: ` },
        // The prompt ends with the results and "✿RETURN✿": the model goes on from there.
        { content: ': San Francisco 72 °F, Tokyo 10 °C, Paris 22 °C.' },
      ],
    });
    const { out, write } = output();
    const messages = await parallelMain({ write });

    const [first, second] = chats();
    expect(systemText(first!)).toContain('To call N tools at once'); // the parallel template
    expect(out.text.match(/# Function Call:/g)).toHaveLength(3);
    // The three results go back in the order of the calls.
    const results = [...allText(second!).matchAll(/✿RESULT✿: (\{[^\n]*\})/g)].map((m) => JSON.parse(m[1]!).location);
    expect(results).toEqual(['San Francisco', 'Tokyo', 'Paris']);
    expect(messages.filter((m) => m.role === 'function')).toHaveLength(3);
    expect(messages.at(-1)?.content).toContain('Tokyo 10 °C');
  });
});

describe('llm_quick_chat_oai', () => {
  it("talks in OpenAI's shapes: streamed snapshots, a tool call, and the tool message given back", async () => {
    server.setScenario({
      replies: [
        { content: 'I am a scripted model, here to help.', chunkSize: 6 },
        nousCall('image_gen', { prompt: 'a cute kitten' }),
        { content: 'Here is your kitten.' },
      ],
    });
    const { out, write } = output();
    const messages = await quickChatMain({ write });

    const snapshots = out.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const firstAnswer = snapshots.filter((s) => s.choices[0].message.content.startsWith('I am'));
    expect(firstAnswer.length).toBeGreaterThan(2); // streamed: growing snapshots, then the whole answer
    expect(firstAnswer.at(-1).choices[0].message.content).toBe('I am a scripted model, here to help.');
    const call = messages[3] as { tool_calls: { id: string; function: { name: string; arguments: string } }[] };
    expect(call.tool_calls).toEqual([
      {
        id: expect.any(String),
        type: 'function',
        function: { name: 'image_gen', arguments: '{"prompt": "a cute kitten"}' },
      },
    ]);
    // The `tool` message reached the model as the call's result.
    expect(allText(chats()[2]!)).toContain(
      '<tool_response>\n![kitten](https://example.com/images/kitten.png)\n</tool_response>',
    );
    expect(messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Here is your kitten.' });
  });
});

describe('assistant_weather_bot', () => {
  it('looks the weather up, draws the place and quotes a poem from the document it was given', async () => {
    server.setScenario({
      replies: [
        nousCall('open_meteo_weather', { location: 'Haidian' }),
        nousCall('my_image_gen', { prompt: 'Haidian under a clear sky' }),
        { content: 'Clear and 21.5 °C in Haidian. 白日依山尽，黄河入海流。' },
      ],
    });
    const { out, write } = output();
    await weatherMain({
      write,
      services: { geocodingUrl: `${webUrl}/v1/search`, forecastUrl: `${webUrl}/v1/forecast`, imageServer: webUrl },
    });

    const [first, second, third] = chats();
    // The poems were searched and put before the model (the question names the document).
    expect(systemText(first!)).toContain('# Knowledge Base');
    expect(systemText(first!)).toContain('白日依山尽');
    // The weather tool asked the weather service for the place the model named, at the coordinates found.
    expect(webHits).toEqual([
      '/v1/search?name=Haidian&count=1&format=json',
      expect.stringMatching(/^\/v1\/forecast\?latitude=39\.96&longitude=116\.3&current=/),
    ]);
    expect(allText(second!)).toContain('Haidian, China: clear sky, 21.5 °C, humidity 40 %, wind 8.2 km/h');
    expect(allText(third!)).toContain(`"image_url":"${webUrl}/prompt/Haidian%20under%20a%20clear%20sky"`);
    expect(out.text).toContain('[TOOL_CALL] open_meteo_weather\n{"location": "Haidian"}');
    expect(out.text).toContain('[TOOL_RESPONSE] open_meteo_weather\nHaidian, China: clear sky');
    expect(out.text).toContain('[ANSWER]\nClear and 21.5 °C in Haidian. 白日依山尽');
    expect(POEMS).toMatch(/weather_poems\.md$/);
  });
});

describe('assistant_rag', () => {
  it('downloads the document, searches it and answers from the passage found', async () => {
    // The model answers only from what it was given: the figure's caption, if the search put it in the prompt.
    server.setScenario((req) => {
      const found = /Figure 1 shows ([^.]+)\./.exec(messageText(req.body.messages[0].content));
      return { content: found ? `Figure 1 shows ${found[1]}.` : 'The document says nothing about figure 1.' };
    });
    const { out, write } = output();
    const messages = await ragMain({ query: 'Introduce figure 1', file: `${webUrl}/paper.pdf`, write });

    expect(webHits).toEqual(['/paper.pdf']);
    expect(lastUserText(chats()[0]!.body)).toContain('Introduce figure 1');
    expect(out.text).toContain('[ANSWER]\nFigure 1 shows the lamp room of the Skerryvore lighthouse as drawn in 1844.');
    expect(messages.at(-1)?.content).toContain('Skerryvore');
  }, 60_000); // its first PDF parse loads pdf.js: past 20 s on a loaded CI machine, and its run then went on into the next test's script
});

describe('multi_agent_router', () => {
  it('hands a question with an image to the vision assistant, which is sent the image', async () => {
    const image = `${webUrl}/prompt/dog.png`;
    server.setScenario({
      replies: [{ content: 'Call: vision assistant\nReply: ' }, { content: 'A dog and a girl on a beach.' }],
    });
    const { out, write } = output();
    const messages = await routerMain({ query: 'What is in this picture?', image, write });

    const [router, helper] = chats();
    const imageParts = (req: RecordedRequest) =>
      (req.body.messages as { content: unknown }[]).flatMap((m) =>
        Array.isArray(m.content) ? m.content.filter((p: { type: string }) => p.type === 'image_url') : [],
      );
    expect(systemText(router!)).toContain('vision assistant: Understands images.');
    expect(imageParts(router!)).toEqual([]); // the router's text model is not sent the image
    expect(imageParts(helper!)).toEqual([{ type: 'image_url', image_url: { url: image } }]);
    expect(messages.at(-1)).toMatchObject({ name: 'vision assistant', content: 'A dog and a girl on a beach.' });
    expect(out.text).toContain('(answered by vision assistant)');
  });

  it('hands a drawing request to the tool assistant, which runs the tool in ReAct steps', async () => {
    server.setScenario({
      replies: [
        { content: 'Call: tool assistant\nReply: ' },
        {
          content: 'Thought: I should draw it.\nAction: my_image_gen\nAction Input: {"prompt": "a cat"}\nObservation:',
        },
        { content: 'I have the picture.\nFinal Answer: Here is your cat.' },
      ],
    });
    const { out, write } = output();
    const messages = await routerMain({ query: 'Draw a cat', image: null, write });

    expect(allText(chats()[2]!)).toContain('Observation: {"image_url":"https://image.pollinations.ai/prompt/a%20cat"}');
    expect(messages.at(-1)?.name).toBe('tool assistant');
    expect(out.text).toContain('Final Answer: Here is your cat.');
    expect(out.text).toContain('(answered by tool assistant)');
  });
});

describe('group_chat_demo', () => {
  it('lets the @mentioned members speak first, in the order named, then the one the host picks', async () => {
    server.setScenario({
      replies: [
        { content: 'Go for a run after work, it clears the head!' }, // Coach
        nousCall('my_image_gen', { prompt: 'a tired moon over an office' }), // Poet draws its mood,
        { content: 'The lamps burn late, the moon walks home alone.' }, // then answers
        { content: 'Fan' }, // the host picks the next speaker
        { content: 'Take a break and watch a drama (｡•̀ᴗ-)✧' }, // Fan
      ],
    });
    const { out, write } = output();
    const history = await groupChatMain({ query: '@Coach @Poet I work late every day, any advice?', write });

    const [coach, poet, , host, fan] = chats();
    expect(systemText(coach!)).toContain('talk everyone into working out');
    // Each member sees the others' lines as "Name: text".
    expect(allText(poet!)).toContain('Coach: Go for a run after work, it clears the head!');
    expect(systemText(host!)).toContain('Alex'); // the real person is among those the host may pick
    expect(allText(fan!)).toContain('Poet: The lamps burn late');
    const speakers = history.filter((m) => m.role === 'assistant' && m.content).map((m) => m.name);
    expect(speakers).toEqual(['Coach', 'Poet', 'Fan']);
    const order = [
      'Coach: Go for a run',
      'Poet: Call Function: my_image_gen',
      'Poet: The lamps burn',
      'Fan: Take a break',
    ];
    const at = order.map((line) => out.text.indexOf(line));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });
});

/** The image_url parts a request sends, in order. */
const imageUrls = (req: RecordedRequest) =>
  (req.body.messages as { content: unknown }[]).flatMap((m) =>
    Array.isArray(m.content)
      ? m.content
          .filter((p: { type: string }) => p.type === 'image_url')
          .map((p: { image_url: { url: string } }) => p.image_url.url)
      : [],
  );

describe('llm_vl_mix_text', () => {
  it('lets a vision model and a text model take turns on one conversation, only the vision model seeing images', async () => {
    const image = `${webUrl}/prompt/dog.png`;
    server.setScenario({
      replies: [
        { content: 'A brown dog sits by a girl.' },
        { content: 'The dog is a labrador with a red collar.' },
        { content: 'I am a scripted model.' },
        nousCall('image_gen', { prompt: 'a cute kitten' }),
        { content: 'Here is your kitten.' },
        { content: 'A small grey kitten on a cushion.' },
      ],
    });
    const { out, write } = output();
    const messages = await vlMixMain({ image, write });

    const requests = chats();
    expect(requests).toHaveLength(6);
    expect(imageUrls(requests[0]!)).toEqual([image]);
    expect(imageUrls(requests[1]!)).toEqual([image]);
    for (const text of requests.slice(2, 5)) expect(imageUrls(text)).toEqual([]); // the text model is told, not sent
    expect(allText(requests[4]!)).toContain(`<tool_response>\n![kitten](${DRAWN_IMAGE})\n</tool_response>`);
    expect(imageUrls(requests[5]!)).toEqual([image, DRAWN_IMAGE]);
    expect(messages.at(-1)).toMatchObject({ role: 'assistant', content: 'A small grey kitten on a cushion.' });
    expect(out.text).toContain('The dog is a labrador with a red collar.');
  });
});

describe('qwen2vl_function_calling', () => {
  it('runs the drawing function a vision model calls and sends the picture drawn back to it', async () => {
    const image = `${webUrl}/prompt/dog.png`;
    server.setScenario({
      replies: [
        { content: '✿FUNCTION✿: image_gen\n✿ARGS✿: {"prompt": "a man and a dog on a beach"}\n✿RESULT✿' },
        { content: ': Here is the same scene with a man.' },
      ],
    });
    const { out, write } = output();
    const messages = await vlFunctionCallingMain({ image, imageServer: webUrl, write });

    const drawn = `${webUrl}/prompt/a%20man%20and%20a%20dog%20on%20a%20beach`;
    const [first, second] = chats();
    expect(imageUrls(first!)).toEqual([image]);
    expect(imageUrls(second!)).toEqual([image, drawn]); // the function's picture, for the model to look at
    expect(allText(second!)).toContain(`(the URL of this picture is ${drawn})`);
    expect(out.text).toContain('# Function Response:');
    expect(messages.at(-1)?.content).toBe('Here is the same scene with a man.');
  });
});

describe('assistant_qwq', () => {
  it('prints the thinking, runs the three pictures asked for in one answer and answers from them', async () => {
    const calls = ['a cat', 'a dog', 'a cat and a dog playing'].map(
      (prompt) => nousCall('my_image_gen', { prompt }).content,
    );
    server.setScenario({
      replies: [
        { reasoning: 'Three pictures, so three calls.', content: calls.join('\n') },
        { content: 'Here are the cat, the dog and the two of them playing.' },
      ],
    });
    const { out, write } = output();
    await qwqMain({ write });

    expect(allText(chats()[1]!).match(/<tool_response>/g)).toHaveLength(3);
    expect(allText(chats()[1]!)).toContain('https://image.pollinations.ai/prompt/a%20cat%20and%20a%20dog%20playing');
    expect(out.text).toContain('[THINK]\nThree pictures, so three calls.');
    expect(out.text.match(/\[TOOL_RESPONSE\] my_image_gen/g)).toHaveLength(3);
    expect(out.text).toContain('[ANSWER]\nHere are the cat, the dog and the two of them playing.');
  });
});

describe('llm_riddles', () => {
  it('gets the phrases from the examiner, then checks whether the model says each one exactly', async () => {
    server.setScenario((req, index) => {
      if (index === 0) return { content: '```json\n["1+1=3", "Mount Everst"]\n```' };
      // The riddle model says the first phrase as asked, and "corrects" the second.
      return { content: lastUserText(req.body).includes('1+1=3') ? '1+1=3' : 'Mount Everest' };
    });
    const { out, write } = output();
    const wins = await riddlesMain({ write });

    expect(systemText(chats()[0]!)).toContain('Answer with a JSON list of strings');
    expect(chats()).toHaveLength(3); // the examiner, then one call per phrase
    expect(wins).toBe(1);
    expect(out.text).toContain('answer exactly "1+1=3"');
    expect(out.text).toContain('bot response: 1+1=3\nYou win!');
    expect(out.text).toMatch(/bot response: Mount Everest\n$/); // close, but not the phrase: no win
  });
});

describe('visual_storytelling', () => {
  it('has the picture described by the vision agent, then the story written from the description', async () => {
    const image = `${webUrl}/prompt/beach.png`;
    server.setScenario({
      replies: [
        { content: 'A girl and her dog on a beach at sunset.' },
        { content: 'The tide was coming in when Lily first heard the bark.' },
      ],
    });
    const { out, write } = output();
    const messages = await storytellingMain({ image, write });

    const [describer, writer] = chats();
    expect(imageUrls(describer!)).toEqual([image]);
    expect(lastUserText(describer!.body)).toContain('Describe every detail of this picture.');
    expect(systemText(writer!)).toContain('# Knowledge Base'); // the writing tips
    expect(allText(writer!)).toContain('A girl and her dog on a beach at sunset.');
    expect(messages.map((m) => m.name)).toEqual(['image describer', 'story writer']);
    expect(out.text).toContain('The tide was coming in');
  });
});

describe('virtual_memory_qa', () => {
  it('searches the document when the model calls retrieval and answers from what was found', async () => {
    server.setScenario((req, index) => {
      // The question's upload note names the file as paper.pdf.
      if (index === 0) return nousCall('retrieval', { query: 'figure 1, lamp room', files: ['paper.pdf'] });
      const found = /Figure 1 shows ([^.]+)\./.exec(systemText(req));
      return { content: found ? `The paper shows ${found[1]}.` : 'Nothing found.' };
    });
    const { out, write } = output();
    await virtualMemoryMain({ query: 'What does figure 1 show?', file: `${webUrl}/paper.pdf`, write });

    expect(webHits).toContain('/paper.pdf');
    expect(out.text).toContain('[TOOL_CALL] retrieval');
    expect(out.text).toContain(
      '[ANSWER]\nThe paper shows the lamp room of the Skerryvore lighthouse as drawn in 1844.',
    );
  });
});
