// Qwen-Agent's remaining tools, each called by an agent whose model is the scripted server over real HTTP:
// image_zoom_in cuts the region the box names (the pixels are checked with sharp), image_gen refuses in words without
// an images endpoint and keeps the image one makes (inline or by address) under the connection's address policy,
// front_page_search gives a document's first chunks, extract_doc_vocabulary its terms by weight, simple_doc_parser
// its whole text; amap_weather and image_search ask real HTTP servers in the test standing for AMap and SerpAPI,
// and are not offered until their keys are set.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FnCallAgent, type AgentEvent, type ToolSpec } from '../../lib/agent';
import { readToolImage } from '../../lib/documents/tool-images';
import { parseConversationImageUrl } from '../../lib/documents/image-url';
import { clearIndexCache } from '../../lib/documents/search';
import { createChatModel } from '../../lib/llm';
import type { ContentItem } from '../../lib/llm/schema';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import {
  AmapWeather,
  ImageGen,
  ImageSearch,
  TOOL_REGISTRY,
  allowLocalFileStaging,
  createTool,
  toolSettings,
  unavailableReason,
} from '../../tools';
import { loadConfig } from '../../lib/config';
import { collectEvents, ofType } from '../support/run';

const dataDir = mkdtempSync(path.join(tmpdir(), 'qwen-tools-'));
const saved = { ...process.env };
let server: ModelServer;

beforeAll(async () => {
  Object.assign(process.env, { DATA_DIR: dataDir });
  for (const name of [
    'OPENAI_BASE_URL',
    'OPENAI_API_KEY',
    'OPENAI_IMAGE_MODEL',
    'AMAP_TOKEN',
    'SERPAPI_IMAGE_SEARCH_KEY',
  ])
    delete process.env[name];
  server = await createModelServer();
  allowLocalFileStaging(true); // documents handed over by path, as the CLI does
});
afterAll(async () => {
  allowLocalFileStaging(false);
  process.env = saved;
  await server.close();
});
beforeEach(() => {
  server.reset();
  clearIndexCache();
});

/** The tools' settings from the environment as each test leaves it (DATA_DIR, OPENAI_IMAGE_MODEL, AMAP_*, SERPAPI_*),
 *  made as a composition root makes them. */
const envSettings = () => ({ ...toolSettings(loadConfig()), allowLocalPaths: true }); // paths handed over as the CLI does
const llm = () => createChatModel({ model: 'scripted', baseURL: server.url, apiKey: 'k' });

/** Runs an agent with `tools` whose model calls `name` with `args` once, then answers; returns the call's result. */
async function callThroughAgent(
  tools: ToolSpec[],
  name: string,
  args: unknown,
  content: string | ContentItem[],
  conversationId?: string,
): Promise<AgentEvent & { type: 'tool-result' }> {
  server.setScenario({
    replies: [{ toolCalls: [{ name, arguments: JSON.stringify(args) }] }, { content: 'Done.' }],
  });
  const agent = new FnCallAgent({ llm: llm(), functionList: tools, toolSettings: envSettings() });
  const events = await collectEvents(
    agent.runEvents([{ role: 'user', content }], conversationId ? { conversationId } : {}),
  );
  expect(ofType(events, 'run-end')[0]!.reason).toBe('answered');
  return ofType(events, 'tool-result')[0]!;
}

/** The image a result names, as kept for the conversation. */
async function keptImage(result: { content: string | ContentItem[] }) {
  const items = result.content as ContentItem[];
  const url = items.find((i) => i.image)!.image!;
  const ref = parseConversationImageUrl(url)!;
  expect(ref).toBeDefined();
  const kept = await readToolImage(dataDir, ref.conversationId, ref.hash);
  return sharp(kept!.bytes);
}

/** The RGB of pixel (x, y). */
async function pixel(image: Sharp, x: number, y: number): Promise<number[]> {
  const { data, info } = await image.clone().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [...data.subarray(at, at + 3)];
}

/** A 1000 × 800 picture in four quarters: red, green (top), blue, white (bottom), uploaded as the user would. */
async function uploadQuarters(): Promise<string> {
  const quarter = (r: number, g: number, b: number) =>
    sharp({ create: { width: 500, height: 400, channels: 3, background: { r, g, b } } })
      .png()
      .toBuffer();
  const png = await sharp({ create: { width: 1000, height: 800, channels: 3, background: '#000' } })
    .composite([
      { input: await quarter(255, 0, 0), left: 0, top: 0 },
      { input: await quarter(0, 255, 0), left: 500, top: 0 },
      { input: await quarter(0, 0, 255), left: 0, top: 400 },
      { input: await quarter(255, 255, 255), left: 500, top: 400 },
    ])
    .png()
    .toBuffer();
  const hash = createHash('sha256').update(png).digest('hex');
  mkdirSync(path.join(dataDir, 'files'), { recursive: true });
  writeFileSync(path.join(dataDir, 'files', hash), png);
  return `files/${hash}/quarters.png`;
}

describe('image_zoom_in', () => {
  it('crops the region the box names from the conversation’s image and enlarges it by smart resize', async () => {
    const photo = await uploadQuarters();
    const question = [{ text: 'What is in the top right?' }, { image: photo }];
    const result = await callThroughAgent(
      ['image_zoom_in'],
      'image_zoom_in',
      { bbox_2d: [500, 0, 1000, 500], label: 'the green quarter', img_idx: 0 },
      question,
      'conv-zoom',
    );
    expect(result.ok).toBe(true);
    expect((result.content as ContentItem[])[0]!.text).toMatch(/the green quarter: pixels \[500, 0, 1000, 400\]/);
    const green = await keptImage(result);
    // 500 × 400 is under 256 × 32 × 32 pixels: scaled up to sides that are multiples of 32.
    expect(await green.metadata()).toMatchObject({ width: 576, height: 480, format: 'png' });
    const stats = await green.stats();
    expect(stats.channels.slice(0, 3).map((c) => [c.min, c.max])).toEqual([
      [0, 0],
      [255, 255],
      [0, 0],
    ]);

    // A box across the middle keeps each quarter where it was.
    const middle = await callThroughAgent(
      ['image_zoom_in'],
      'image_zoom_in',
      { bbox_2d: [400, 400, 600, 600], label: 'centre', img_idx: 0 },
      question,
      'conv-zoom',
    );
    const centre = await keptImage(middle);
    const { width, height } = await centre.metadata();
    expect(await pixel(centre, 5, 5)).toEqual([255, 0, 0]);
    expect(await pixel(centre, width! - 5, 5)).toEqual([0, 255, 0]);
    expect(await pixel(centre, 5, height! - 5)).toEqual([0, 0, 255]);
    expect(await pixel(centre, width! - 5, height! - 5)).toEqual([255, 255, 255]);
  });

  it('says which images there are when the index is past them, and refuses another conversation’s image', async () => {
    const photo = await uploadQuarters();
    const past = await callThroughAgent(
      ['image_zoom_in'],
      'image_zoom_in',
      { bbox_2d: [0, 0, 100, 100], label: 'x', img_idx: 3 },
      [{ text: 'zoom' }, { image: photo }],
      'conv-zoom',
    );
    expect(past.ok).toBe(false);
    expect(past.content).toMatch(/There is no image 3: the conversation has 1 image, numbered 0 to 0/);
    const other = await callThroughAgent(
      ['image_zoom_in'],
      'image_zoom_in',
      { bbox_2d: [0, 0, 100, 100], label: 'x', img_idx: 0 },
      [{ text: 'zoom' }, { image: `/api/images/someone-else/${'a'.repeat(64)}` }],
      'conv-zoom',
    );
    expect(other.ok).toBe(false);
    expect(other.content).toMatch(/Image 0 cannot be read: this image is no longer available to this conversation/);
  });
});

describe('image_gen', () => {
  it('without an images endpoint answers a plain refusal, not an error', async () => {
    const result = await callThroughAgent(['image_gen'], 'image_gen', { prompt: 'a red square' }, 'Draw a red square.');
    expect(result.ok).toBe(true);
    expect(result.content).toMatch(/^image_gen cannot make images: no model connection has an images endpoint/);
    expect(result.content).toContain('OPENAI_IMAGE_MODEL');
    expect(result.content).not.toMatch(/\n\s+at |error id/);
    expect(server.requests.filter((r) => r.path.endsWith('/images/generations'))).toHaveLength(0);
    // The app's agents say "no endpoint" outright, whatever the environment has.
    Object.assign(process.env, { OPENAI_BASE_URL: server.url, OPENAI_IMAGE_MODEL: 'img-1' });
    try {
      const none = await callThroughAgent(
        [{ name: 'image_gen', endpoint: undefined }],
        'image_gen',
        { prompt: 'x' },
        'x',
      );
      expect(none.content).toMatch(/^image_gen cannot make images/);
    } finally {
      delete process.env.OPENAI_BASE_URL;
      delete process.env.OPENAI_IMAGE_MODEL;
    }
  });

  it('makes the image through the environment’s connection and keeps it for the conversation', async () => {
    Object.assign(process.env, { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'sk-env', OPENAI_IMAGE_MODEL: 'img-1' });
    try {
      const result = await callThroughAgent(
        ['image_gen'],
        'image_gen',
        { prompt: 'a flat square of colour #00ff00' },
        'Draw it.',
        'conv-gen',
      );
      expect(result.ok).toBe(true);
      expect((result.content as ContentItem[])[0]!.text).toBe(
        'Image made by img-1 for: a flat square of colour #00ff00',
      );
      const image = await keptImage(result);
      expect(await image.metadata()).toMatchObject({ width: 1024, height: 1024 });
      expect(await pixel(image, 10, 10)).toEqual([0, 255, 0]);
      const request = server.requests.find((r) => r.path === '/v1/images/generations')!;
      expect(request.body).toEqual({
        model: 'img-1',
        prompt: 'a flat square of colour #00ff00',
        n: 1,
        size: '1024x1024',
      });
      expect(request.headers.authorization).toBe('Bearer sk-env');
    } finally {
      for (const name of ['OPENAI_BASE_URL', 'OPENAI_API_KEY', 'OPENAI_IMAGE_MODEL']) delete process.env[name];
    }
  });

  it('fetches an image answered by address, and a connection without private access cannot reach loopback', async () => {
    const byUrl = await createModelServer({ images: 'url' });
    try {
      const endpoint = { baseURL: byUrl.url, model: 'img-2', connection: 'Mine' };
      const tool = new ImageGen({ endpoint, size: '64x64' });
      const result = await callThroughAgent([tool], 'image_gen', { prompt: '#0000ff' }, 'Draw.', 'conv-gen');
      expect(await pixel(await keptImage(result), 1, 1)).toEqual([0, 0, 255]);
      expect(byUrl.requests.map((r) => `${r.method} ${r.path.replace(/img_\w+/, 'img')}`)).toEqual([
        'POST /v1/images/generations',
        'GET /v1/_images/img.png',
      ]);

      byUrl.reset();
      const guarded = new ImageGen({
        endpoint: {
          ...endpoint,
          addressPolicy: { allowPrivate: false, allowHosts: [], advice: 'Only the admin’s connections may.' },
        },
      });
      const refused = await callThroughAgent([guarded], 'image_gen', { prompt: 'x' }, 'Draw.', 'conv-gen');
      expect(refused.ok).toBe(false);
      expect(refused.content).toMatch(
        /Mine cannot be reached: Refused to fetch 127\.0\.0\.1: loopback address\. Only the admin’s connections may\./,
      );
      expect(byUrl.requests).toHaveLength(0);
    } finally {
      await byUrl.close();
    }
  });
});

/** A document of `n` paragraphs long enough to need several chunks. */
function writeDocument(name: string, paragraphs: string[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'doc-'));
  const file = path.join(dir, name);
  writeFileSync(file, paragraphs.join('\n\n'));
  return file;
}

describe('document tools', () => {
  const body = Array.from(
    { length: 80 },
    (_, i) => `Paragraph ${i} describes the quarterly ledger, invoices, accruals and the audit trail in detail.`,
  );
  const report = () =>
    writeDocument('report.md', [
      'Annual Report 2025: Harbour Logistics',
      'Abstract: shipping volumes grew by twelve percent while costs fell.',
      ...body,
    ]);

  it('front_page_search returns the first chunks of a long document, whatever the query', async () => {
    const file = report();
    const result = await callThroughAgent(
      [{ name: 'front_page_search', max_ref_token: 400, parser_page_size: 60 }],
      'front_page_search',
      { query: 'what happened to costs?' },
      [{ text: 'Summarise.' }, { file }],
    );
    expect(result.ok).toBe(true);
    const out = JSON.parse(result.content as string) as { url: string; text: string[] }[];
    expect(out).toHaveLength(1);
    expect(out[0]!.url).toBe('report.md');
    expect(out[0]!.text).toHaveLength(2);
    expect(out[0]!.text[0]).toMatch(/^\[page: 1\]\nAnnual Report 2025: Harbour Logistics/);
    expect(out[0]!.text.join('\n')).toContain('Abstract: shipping volumes grew');
    expect(out[0]!.text.join('\n')).not.toContain('Paragraph 40');
    // Two documents: the front page has nothing to say.
    const other = writeDocument('other.md', body);
    const both = await callThroughAgent(
      [{ name: 'front_page_search', max_ref_token: 400, parser_page_size: 60 }],
      'front_page_search',
      { query: 'costs' },
      [{ text: 'Summarise.' }, { file }, { file: other }],
    );
    expect(JSON.parse(both.content as string)).toEqual([]);
  });

  it('extract_doc_vocabulary lists the document’s terms by TF-IDF weight', async () => {
    const file = writeDocument('notes.txt', [
      'Tides tides tides. The harbour has tides.',
      'A harbour crane lifts containers; the crane is old.',
    ]);
    const result = await callThroughAgent(
      ['extract_doc_vocabulary'],
      'extract_doc_vocabulary',
      { files: ['notes.txt'] },
      [{ text: 'Vocabulary?' }, { file }],
    );
    expect(result.ok).toBe(true);
    // One document: counts decide (tides 4, harbour 2, crane 2, then the rest alphabetically); stop words are gone.
    expect(result.content).toBe('tide, crane, harbour, contain, lift, old');
  });

  it('simple_doc_parser returns the whole text, one paragraph a line', async () => {
    const file = writeDocument('short.md', ['# Title', 'First paragraph.', 'Second paragraph.']);
    const result = await callThroughAgent(['simple_doc_parser'], 'simple_doc_parser', { url: 'short.md' }, [
      { text: 'Read it.' },
      { file },
    ]);
    expect(result.ok).toBe(true);
    expect(result.content).toBe('# Title\nFirst paragraph.\nSecond paragraph.');
  });
});

/** A real HTTP server standing for a provider: answers `reply(request)` as JSON, recording each request. */
async function fakeProvider(reply: (req: IncomingMessage, url: URL) => unknown) {
  const seen: URL[] = [];
  const http: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    seen.push(url);
    const body = JSON.stringify(reply(req, url));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise<void>((r) => http.close(() => r())) };
}

describe('tools that need a key', () => {
  it('are not offered until their keys are set', () => {
    for (const name of ['amap_weather', 'image_search']) {
      expect(unavailableReason(TOOL_REGISTRY.get(name)!, envSettings())).toMatch(
        /set (AMAP_TOKEN|SERPAPI_IMAGE_SEARCH_KEY)/,
      );
      expect(() => createTool(name, envSettings())).toThrow(/is not available/);
    }
    process.env.AMAP_TOKEN = 'amap-key';
    process.env.SERPAPI_IMAGE_SEARCH_KEY = 'serp-key';
    try {
      expect(unavailableReason(AmapWeather, envSettings())).toBeUndefined();
      expect(unavailableReason(ImageSearch, envSettings())).toBeUndefined();
    } finally {
      delete process.env.AMAP_TOKEN;
      delete process.env.SERPAPI_IMAGE_SEARCH_KEY;
    }
  });

  it('amap_weather geocodes the place, then asks its live weather, with the key', async () => {
    const amap = await fakeProvider((_req, url) =>
      url.pathname === '/v3/geocode/geo'
        ? { status: '1', geocodes: [{ adcode: url.searchParams.get('address') === '海淀区' ? '110108' : '' }] }
        : { status: '1', lives: [{ city: '海淀区', weather: '晴', temperature: '23' }] },
    );
    Object.assign(process.env, { AMAP_TOKEN: 'amap-key', AMAP_URL: amap.url });
    try {
      const result = await callThroughAgent(
        ['amap_weather'],
        'amap_weather',
        { location: '海淀区' },
        '海淀区天气怎么样？',
      );
      expect(result.ok).toBe(true);
      expect(result.content).toBe('海淀区的天气是晴，温度是23度。');
      expect(amap.seen.map((u) => [u.pathname, u.searchParams.get('key')])).toEqual([
        ['/v3/geocode/geo', 'amap-key'],
        ['/v3/weather/weatherInfo', 'amap-key'],
      ]);
      expect(amap.seen[1]!.searchParams.get('city')).toBe('110108');
    } finally {
      delete process.env.AMAP_TOKEN;
      delete process.env.AMAP_URL;
      await amap.close();
    }
  });

  it('image_search asks SerpAPI about the conversation’s web image and lists what it found as text', async () => {
    const serp = await fakeProvider(() => ({
      image_results: [
        {
          position: 1,
          title: 'A harbour crane',
          original: 'https://img.example/crane.jpg',
          link: 'https://example.org/crane',
        },
        { position: 2, title: 'Crane', original: 'https://img.example/crane.jpg', link: 'https://example.org/x' },
      ],
      inline_images: [{ thumbnail: 'https://img.example/ship.jpg', title: 'Ship', source: 'https://example.org/ship' }],
    }));
    Object.assign(process.env, { SERPAPI_IMAGE_SEARCH_KEY: 'serp-key', SERPAPI_URL: `${serp.url}/search.json` });
    try {
      const photo = 'https://photos.example/mine.jpg';
      const result = await callThroughAgent(['image_search'], 'image_search', { img_idx: 0 }, [
        { text: 'What is this?' },
        { image: photo },
      ]);
      expect(result.ok).toBe(true);
      expect(result.content).toBe(
        '[1] A harbour crane\nimage: https://img.example/crane.jpg\npage: https://example.org/crane\n\n' +
          '[2] Ship\nimage: https://img.example/ship.jpg\npage: https://example.org/ship',
      );
      const asked = serp.seen[0]!;
      expect(asked.pathname).toBe('/search.json');
      expect(Object.fromEntries(asked.searchParams)).toMatchObject({
        engine: 'google_reverse_image',
        image_url: photo,
        api_key: 'serp-key',
      });
      // An uploaded image is not on the web: the provider could not fetch it, so it is not sent.
      const uploaded = await callThroughAgent(['image_search'], 'image_search', { img_idx: 0 }, [
        { text: 'What is this?' },
        { image: await uploadQuarters() },
      ]);
      expect(uploaded.ok).toBe(false);
      expect(uploaded.content).toMatch(/Only an image on the web/);
      expect(serp.seen).toHaveLength(1);
    } finally {
      delete process.env.SERPAPI_IMAGE_SEARCH_KEY;
      delete process.env.SERPAPI_URL;
      await serp.close();
    }
  });

  it('image_search tells SerpAPI’s refusal without the server’s key, should SerpAPI repeat it', async () => {
    const serp = await fakeProvider((_req, url) => ({ error: `Invalid API key: ${url.searchParams.get('api_key')}` }));
    Object.assign(process.env, {
      SERPAPI_IMAGE_SEARCH_KEY: 'serp-secret-key-0123456789',
      SERPAPI_URL: `${serp.url}/search.json`,
    });
    try {
      const result = await callThroughAgent(['image_search'], 'image_search', { img_idx: 0 }, [
        { text: 'What is this?' },
        { image: 'https://photos.example/mine.jpg' },
      ]);
      expect(result.ok).toBe(false);
      expect(result.content).toContain('SerpAPI: Invalid API key: [key hidden]');
      expect(result.content).not.toContain('secret-key');
    } finally {
      delete process.env.SERPAPI_IMAGE_SEARCH_KEY;
      delete process.env.SERPAPI_URL;
      await serp.close();
    }
  });
});
