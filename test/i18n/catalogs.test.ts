// The two catalogs say the same things: the same keys, the same ICU arguments and tags in each message, every
// message well-formed, and every error code the app sends has its words. (A key the code names statically is checked
// by the type-check: next-intl's AppConfig types every t('…') call against the English catalog.)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { createTranslator } from 'next-intl';
import { describe, expect, it } from 'vitest';
import { RunLimiter, type RateLimitError } from '../../lib/http/rate-limit';
import { ERROR_CODES } from '../../lib/protocol/errors';
import { DOCUMENT_ERROR_CODES } from '../../lib/documents/types';
import { agentLang, LOCALES, negotiateLocale, requestLocale } from '../../lib/i18n/locales';
import en from '../../lib/i18n/messages/en.json';
import zhCN from '../../lib/i18n/messages/zh-CN.json';

type Tree = { [key: string]: string | Tree };
const CATALOGS: Record<(typeof LOCALES)[number], Tree> = { en, 'zh-CN': zhCN };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === 'string') out.set(prefix + key, value);
    else for (const [k, v] of flatten(value, `${prefix}${key}.`)) out.set(k, v);
  }
  return out;
}

/** The argument names and tag names a message uses (`{name}`, `{n, plural, …}`, `<code>…</code>`). */
function placeholders(message: string): { args: string[]; tags: string[] } {
  const args = new Set([...message.matchAll(/\{\s*([A-Za-z_]\w*)/g)].map((m) => m[1]!));
  const tags = new Set([...message.matchAll(/<([A-Za-z]\w*)>/g)].map((m) => m[1]!));
  return { args: [...args].sort(), tags: [...tags].sort() };
}

const flat = { en: flatten(en), 'zh-CN': flatten(zhCN) };

describe('the message catalogs', () => {
  it('have the same keys', () => {
    const onlyEn = [...flat.en.keys()].filter((k) => !flat['zh-CN'].has(k));
    const onlyZh = [...flat['zh-CN'].keys()].filter((k) => !flat.en.has(k));
    expect({ 'missing in zh-CN.json': onlyEn, 'missing in en.json': onlyZh }).toEqual({
      'missing in zh-CN.json': [],
      'missing in en.json': [],
    });
  });

  it('use the same arguments and tags in each message', () => {
    const differ = [...flat.en].flatMap(([key, message]) => {
      const other = flat['zh-CN'].get(key);
      if (other === undefined) return [];
      const a = placeholders(message);
      const b = placeholders(other);
      return JSON.stringify(a) === JSON.stringify(b) ? [] : [{ key, en: a, 'zh-CN': b }];
    });
    expect(differ).toEqual([]);
  });

  it('hold only well-formed ICU messages, with no English left in the Chinese one but names and code', () => {
    for (const locale of LOCALES) {
      const t = createTranslator({ locale, messages: CATALOGS[locale] as typeof en });
      for (const [key, message] of flat[locale]) {
        const { args, tags } = placeholders(message);
        const values = Object.fromEntries([
          ...args.map((a) => [a, 1]),
          ...tags.map((tag) => [tag, (chunks: string) => chunks]),
        ]);
        expect(() => t.markup(key as never, values), `${locale}: ${key}`).not.toThrow();
      }
    }
    // Every Chinese message holds Chinese, unless all it says besides its placeholders is a name, a unit or a symbol.
    const chinese = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/; // ideographs, CJK and full-width punctuation
    const names = new Set(['Agent', 'Studio', 'Top', 'p', 'Token', 'B', 'KB', 'MB', 'GB', 'id']);
    const english = [...flat['zh-CN']].filter(([, m]) => {
      if (chinese.test(m)) return false;
      const words =
        m
          .replace(/\{[^{}]*\}/g, ' ')
          .replace(/<\/?\w+>/g, ' ')
          .match(/[A-Za-z]+/g) ?? [];
      return words.some((w) => !names.has(w));
    });
    expect(english).toEqual([]);
  });

  it('name every error code the server sends and the page raises', () => {
    const errors = flatten(en.errors);
    const documents = flatten(en.documents.errors);
    expect(ERROR_CODES.filter((code) => !errors.has(code))).toEqual([]);
    expect(
      [...DOCUMENT_ERROR_CODES, 'unreadable', 'gone', 'store-busy'].filter((code) => !documents.has(code)),
    ).toEqual([]);
    // The page's own codes, as its components write them.
    const used = new Set<string>();
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const file = path.join(dir, name);
        if (statSync(file).isDirectory()) walk(file);
        else if (/\.tsx?$/.test(name) && !name.includes('.test.'))
          for (const m of readFileSync(file, 'utf8').matchAll(/\bcode: '([a-z][a-z-]*)'/g)) used.add(m[1]!);
      }
    };
    walk(path.join(__dirname, '../../components'));
    expect(used.size).toBeGreaterThan(5);
    expect([...used].filter((code) => !errors.has(code) && !documents.has(code))).toEqual([]);
  });

  it('say in English and in Chinese every code lib/, tools/ and app/ raise, and hold none that nothing raises', () => {
    // A coded error's code is an ErrorCode (the type-check holds lib/, tools/ and app/ to ERROR_CODES): each has its
    // sentence in both catalogs, and each is raised somewhere (a code nobody raises is a sentence nobody reads).
    const said = { en: flatten(en.errors), 'zh-CN': flatten(zhCN.errors) };
    const unsaid = ERROR_CODES.flatMap((code) =>
      LOCALES.filter((locale) => !said[locale].get(code)?.trim()).map((locale) => `${locale}: ${code}`),
    );
    expect(unsaid).toEqual([]);
    expect(ERROR_CODES.filter((code) => !/[\u4e00-\u9fff]/.test(said['zh-CN'].get(code)!))).toEqual([]);
    const root = path.join(__dirname, '../..');
    const sources: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const file = path.join(dir, name);
        if (statSync(file).isDirectory()) walk(file);
        else if (/\.tsx?$/.test(name) && !name.includes('.test.') && file !== path.join(root, 'lib/protocol/errors.ts'))
          sources.push(readFileSync(file, 'utf8'));
      }
    };
    for (const dir of ['lib', 'tools', 'app', 'components']) walk(path.join(root, dir));
    const text = sources.join('\n');
    expect(ERROR_CODES.filter((code) => !text.includes(`'${code}'`))).toEqual([]);
  });
});

describe('a run refused by the run limits', () => {
  const refusal = (limiter: RunLimiter): RateLimitError => {
    try {
      limiter.acquire('c');
    } catch (e) {
      return e as RateLimitError;
    }
    throw new Error('the limiter let the run start');
  };
  const say = (locale: (typeof LOCALES)[number], e: RateLimitError) =>
    createTranslator({ locale, messages: CATALOGS[locale] as typeof en, namespace: 'errors' })(e.code, e.values);

  it("is said by the English catalog in the server's words, and in Chinese with the same numbers", () => {
    const atOnce = new RunLimiter({ maxConcurrent: 2, perMinute: 100 });
    atOnce.acquire('c');
    atOnce.acquire('c');
    const running = refusal(atOnce);
    expect(say('en', running)).toBe(running.message);
    expect(say('zh-CN', running)).toBe(
      '同时进行的运行太多：你有 2 个运行仍在进行（上限为 2 个，由 MAX_CONCURRENT_RUNS 设定）。请等其中一个结束，或先停止一个。',
    );

    const perMinute = new RunLimiter({ maxConcurrent: 10, perMinute: 1 });
    perMinute.acquire('c').release();
    const started = refusal(perMinute);
    expect(say('en', started)).toBe(started.message);
    expect(say('zh-CN', started)).toBe(
      `启动的运行太多：每分钟最多 1 个（由 MAX_RUNS_PER_MINUTE 设定）。请 ${started.retryAfterS} 秒后再试。`,
    );
  });
});

describe('the page language', () => {
  it('follows Accept-Language (q-values, any Chinese to zh-CN), else English', () => {
    expect(negotiateLocale('zh-CN,zh;q=0.9,en;q=0.8')).toBe('zh-CN');
    expect(negotiateLocale('zh-TW')).toBe('zh-CN');
    expect(negotiateLocale('en-US,en;q=0.9,zh-CN;q=0.8')).toBe('en');
    expect(negotiateLocale('fr-FR,zh;q=0.5,en;q=0.4')).toBe('zh-CN');
    expect(negotiateLocale('de, fr;q=0.5')).toBe('en');
    expect(negotiateLocale('zh;q=0, en')).toBe('en');
    expect(negotiateLocale(undefined)).toBe('en');
  });
  it('is the one picked in the header when it is supported', () => {
    expect(requestLocale('en', 'zh-CN')).toBe('en');
    expect(requestLocale('zh-CN', 'en-US')).toBe('zh-CN');
    expect(requestLocale('klingon', 'zh-CN')).toBe('zh-CN');
  });
  it("sets the agent's prompt language", () => {
    expect(agentLang('zh-CN')).toBe('zh');
    expect(agentLang('en')).toBe('en');
  });
});
