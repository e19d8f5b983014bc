import { createTranslator } from 'next-intl';
import { describe, expect, it } from 'vitest';
import en from '../../lib/i18n/messages/en.json';
import zhCN from '../../lib/i18n/messages/zh-CN.json';
import {
  codeFence,
  formatBytes,
  formatDuration,
  formatPreciseDuration,
  type FormatWords,
  interpreterCode,
  linkShownImages,
  prettyJson,
  reasoningLabel,
  resultText,
  retryNotice,
  shownAddress,
  stopNotice,
  summarizeArguments,
  truncate,
} from './format';

const words = (locale: 'en' | 'zh-CN', messages: typeof en): FormatWords => ({
  t: createTranslator({ locale, messages, namespace: 'format' }),
  locale,
});
const f = words('en', en);
const zh = words('zh-CN', zhCN);

describe('formatDuration', () => {
  it('shows milliseconds under a second, tenths of seconds under a minute, then minutes', () => {
    expect(formatDuration(12, f)).toBe('12 ms');
    expect(formatDuration(0, f)).toBe('0 ms');
    expect(formatDuration(999.4, f)).toBe('999 ms');
    expect(formatDuration(999.6, f)).toBe('1.0 s');
    expect(formatDuration(1400, f)).toBe('1.4 s');
    expect(formatDuration(3249, f)).toBe('3.2 s');
    expect(formatDuration(59_960, f)).toBe('1 min');
    expect(formatDuration(125_000, f)).toBe('2 min 5 s');
  });
  it('says it in the page language, with its number format', () => {
    expect(formatDuration(12, zh)).toBe('12 毫秒');
    expect(formatDuration(1400, zh)).toBe('1.4 秒');
    expect(formatDuration(125_000, zh)).toBe('2 分 5 秒');
    expect(formatPreciseDuration(0.5, f)).toBe('0.50 ms');
    expect(formatPreciseDuration(12_345, zh)).toBe('12.3 秒');
    expect(formatBytes(1536, f)).toBe('1.5 KB');
    expect(formatBytes(3 * 1024 * 1024, f)).toBe('3 MB');
    expect(formatBytes(512, zh)).toBe('512 B');
  });
  it('says sizes and limits in binary units, up to gigabytes (a 16 GiB limit is "16 GB", not "17.18 GB")', () => {
    expect(formatBytes(16 * 1024 ** 3, f)).toBe('16 GB');
    expect(formatBytes(1.5 * 1024 ** 3, zh)).toBe('1.5 GB');
    expect(formatBytes(1023 * 1024 ** 2, f)).toBe('1,023 MB');
  });
  it('says nothing for a value that is not a duration', () => {
    expect(formatDuration(Number.NaN, f)).toBe('');
    expect(formatDuration(-5, f)).toBe('');
  });
});

describe('summarizeArguments', () => {
  it('lists JSON object fields as key: JSON value', () => {
    expect(summarizeArguments('{"expression": "2+3"}')).toBe('expression: "2+3"');
    expect(summarizeArguments('{"query":"cats","top_k":3,"deep":true}')).toBe('query: "cats", top_k: 3, deep: true');
  });
  it('keeps it on one line and cuts it to the limit with an ellipsis', () => {
    const long = JSON.stringify({ code: `import numpy as np\n${'x = 1\n'.repeat(50)}` });
    const s = summarizeArguments(long);
    expect(Array.from(s)).toHaveLength(80);
    expect(s.endsWith('…')).toBe(true);
    expect(s).not.toContain('\n');
    expect(s.startsWith('code: "import numpy as np\\nx = 1')).toBe(true);
    expect(summarizeArguments('{"a":"bcdef"}', 8)).toBe('a: "bcd…');
  });
  it('shows arguments that are not JSON as they came, whitespace collapsed', () => {
    expect(summarizeArguments('{"expression": "2+3"')).toBe('{"expression": "2+3"');
    expect(summarizeArguments('  print(1)\n\nprint(2) ')).toBe('print(1) print(2)');
  });
  it('is empty for no arguments and plain JSON for non-objects', () => {
    expect(summarizeArguments('')).toBe('');
    expect(summarizeArguments('{}')).toBe('');
    expect(summarizeArguments('[1, 2]')).toBe('[1,2]');
    expect(summarizeArguments('"hello"')).toBe('"hello"');
  });
});

describe('truncate', () => {
  it('never splits a character made of two UTF-16 units', () => {
    expect(truncate('😀😀😀😀', 3)).toBe('😀😀…');
    expect(truncate('abc', 3)).toBe('abc');
  });
});

describe('prettyJson', () => {
  it('indents JSON by two spaces and gives undefined for text that is not JSON', () => {
    expect(prettyJson('{"a":1,"b":[true]}')).toBe('{\n  "a": 1,\n  "b": [\n    true\n  ]\n}');
    expect(prettyJson('{"a":')).toBeUndefined();
    expect(prettyJson('')).toBeUndefined();
  });
});

describe('codeFence', () => {
  it('uses a fence longer than any backtick run in the code', () => {
    expect(codeFence('x = 1', 'python')).toBe('```python\nx = 1\n```');
    expect(codeFence('a ```` b', 'json')).toBe('`````json\na ```` b\n`````');
  });
});

describe('interpreterCode', () => {
  it('takes the code field, else the inside of a markdown block, else the raw text', () => {
    expect(interpreterCode('{"code": "print(1)\\nprint(2)"}')).toBe('print(1)\nprint(2)');
    expect(interpreterCode('```py\nprint(3)\n```')).toBe('print(3)');
    expect(interpreterCode('print(4)')).toBe('print(4)');
  });
});

describe('resultText', () => {
  it('joins the text items and skips the others', () => {
    expect(resultText('plain')).toBe('plain');
    expect(resultText([{ text: 'a' }, { image: 'https://x/y.png' }, { text: 'b' }])).toBe('a\nb');
  });
});

describe('linkShownImages', () => {
  it('makes a link of each image the card already shows, and leaves the others images', () => {
    const text =
      'stdout:\n\n![figure-1.png](/api/artifacts/c1/figure-1.png)\n\n![a \\[b\\]](/api/artifacts/c1/a%28b%29.png)\n\n![x](https://x.org/a.png)';
    expect(linkShownImages(text, ['/api/artifacts/c1/figure-1.png', '/api/artifacts/c1/a(b).png'])).toBe(
      'stdout:\n\n[figure-1.png](/api/artifacts/c1/figure-1.png)\n\n[a \\[b\\]](/api/artifacts/c1/a%28b%29.png)\n\n![x](https://x.org/a.png)',
    );
    expect(linkShownImages(text, [])).toBe(text);
  });
});

describe('reasoningLabel', () => {
  it('says Thinking… while the model thinks and Thought for <duration> once it ended', () => {
    expect(reasoningLabel('thinking', 100, undefined, true, f)).toBe('Thinking…');
    expect(reasoningLabel('thinking', 100, 3300, false, f)).toBe('Thought for 3.2 s');
    expect(reasoningLabel('thinking', 100, 600, false, f)).toBe('Thought for 500 ms');
  });
  it('does not claim a duration it does not know', () => {
    expect(reasoningLabel('thinking', 100, undefined, false, f)).toBe('Thinking (stopped)');
    // ReAct thoughts are re-read from the transcript: start and end are the same instant.
    expect(reasoningLabel('thought', 500, 500, false, f)).toBe('Thought');
    expect(reasoningLabel('thought', 500, 500, true, f)).toBe('Thought');
  });
});

describe('stopNotice and retryNotice', () => {
  it('explains each way a run can end without an answer', () => {
    expect(stopNotice({ status: 'max-iterations', llmCalls: 20, blocks: [] }, f)).toEqual({
      kind: 'info',
      text: 'Stopped after 20 model calls (the limit)',
    });
    expect(stopNotice({ status: 'max-iterations', llmCalls: 1, blocks: [] }, f)?.text).toBe(
      'Stopped after 1 model call (the limit)',
    );
    expect(stopNotice({ status: 'aborted', llmCalls: 1, blocks: [] }, f)?.text).toBe('Stopped by you');
    expect(stopNotice({ status: 'interrupted', llmCalls: 1, blocks: [] }, f)?.text).toBe(
      'Interrupted: the server stopped during this answer',
    );
    expect(
      stopNotice(
        { status: 'error', llmCalls: 1, blocks: [], error: { name: 'ModelServiceError', message: '503 overloaded' } },
        f,
      ),
    ).toEqual({ kind: 'error', text: '503 overloaded' });
    expect(stopNotice({ status: 'error', llmCalls: 0, blocks: [] }, f)?.text).toBe('The run failed.');
  });
  it('says nothing for an answered or streaming run', () => {
    const answer = { kind: 'text' as const, id: 't1', text: 'Four.' };
    expect(stopNotice({ status: 'answered', llmCalls: 2, blocks: [answer] }, f)).toBeUndefined();
    expect(stopNotice({ status: 'streaming', llmCalls: 0, blocks: [] }, f)).toBeUndefined();
  });
  it('speaks Chinese on a Chinese page', () => {
    expect(stopNotice({ status: 'max-iterations', llmCalls: 20, blocks: [] }, zh)?.text).toBe(
      '调用模型 20 次后停止（已达上限）',
    );
    expect(reasoningLabel('thinking', 100, 3300, false, zh)).toBe('已思考 3.2 秒');
  });
  it('says why the model server is asked again, when, and which attempt', () => {
    expect(retryNotice({ attempt: 2, status: 429 }, 3200, f)).toBe('Rate limited, retrying in 4 s (attempt 2)…');
    expect(retryNotice({ attempt: 1, status: 502 }, 900, f)).toBe(
      'The model server failed (502), retrying in 900 ms (attempt 1)…',
    );
    expect(retryNotice({ attempt: 3 }, 0, f)).toBe('The model server did not answer, retrying in 0 ms (attempt 3)…');
    expect(retryNotice({ attempt: 2, status: 429 }, 4000, zh)).toBe('请求受限，4 秒后重试（第 2 次）…');
  });
});

describe('shownAddress', () => {
  it('shows a server’s address without the user, password or query it may carry', () => {
    expect(shownAddress('http://localhost:11434/v1')).toBe('http://localhost:11434/v1');
    expect(shownAddress('https://bob:s3cret@llm.example.com/v1/?api-key=sk-123#x')).toBe('https://llm.example.com/v1');
    expect(shownAddress('not a url')).toBeUndefined();
  });
});
