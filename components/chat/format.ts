// Pure text helpers for the run view: what a tool card, a reasoning toggle and a stop line say. Words come from the
// catalog's `format` namespace (passed in, so these stay plain functions the tests call in Node); numbers are
// formatted for the page's locale.
import { answerText, type RunView } from '../../lib/chat/view';
import type { ContentItem } from '../../lib/llm/schema';
import type en from '../../lib/i18n/messages/en.json';

export type FormatKey = keyof (typeof en)['format'];

/** The `format` words of the page's language and its locale (useFormatWords() in a component). */
export interface FormatWords {
  t: (key: FormatKey, values?: Record<string, string | number>) => string;
  locale: string;
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/** A number for the locale with exactly `digits` decimals (the formatters are kept: they are costly to build). */
export function formatNumber(n: number, locale: string, digits = 0): string {
  const key = `${locale}/${digits}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits });
    numberFormats.set(key, format);
  }
  return format.format(n);
}

/** "12 ms", "1.4 s", "2 min 5 s" (in Chinese "12 毫秒", "1.4 秒", "2 分 5 秒"). */
export function formatDuration(ms: number, f: FormatWords): string {
  if (!Number.isFinite(ms) || ms < 0) return '';
  const rounded = Math.round(ms);
  if (rounded < 1000) return f.t('ms', { n: formatNumber(rounded, f.locale) });
  const tenths = Math.round(ms / 100) / 10;
  if (tenths < 60) return f.t('seconds', { n: formatNumber(tenths, f.locale, 1) });
  const totalSeconds = Math.round(ms / 1000);
  const minutes = formatNumber(Math.floor(totalSeconds / 60), f.locale);
  const seconds = totalSeconds % 60;
  return seconds
    ? f.t('minutesSeconds', { m: minutes, s: formatNumber(seconds, f.locale) })
    : f.t('minutes', { m: minutes });
}

/** The inspector's finer durations: "0.42 ms", "12 ms", "1.23 s", "12.3 s". */
export function formatPreciseDuration(ms: number, f: FormatWords): string {
  if (!Number.isFinite(ms)) return '';
  if (ms < 1) return f.t('ms', { n: formatNumber(ms, f.locale, 2) });
  if (ms < 1000) return f.t('ms', { n: formatNumber(Math.round(ms), f.locale) });
  return f.t('seconds', { n: formatNumber(ms / 1000, f.locale, ms < 10_000 ? 2 : 1) });
}

/** "512 B", "1.5 KB", "3 MB", "16 GB": binary units, as the server's messages (lib/protocol/bytes.ts). */
export function formatBytes(n: number, f: FormatWords): string {
  if (n < 1024) return f.t('bytes', { n: formatNumber(n, f.locale) });
  const [value, key] =
    n < 1024 ** 2
      ? [n / 1024, 'kilobytes' as const]
      : n < 1024 ** 3
        ? [n / 1024 ** 2, 'megabytes' as const]
        : [n / 1024 ** 3, 'gigabytes' as const];
  const rounded = Math.round(value * 10) / 10;
  return f.t(key, { n: formatNumber(rounded, f.locale, Number.isInteger(rounded) ? 0 : 1) });
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** Cuts to at most `max` characters (code points, so an emoji is never split), ending in "…" when cut. */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return chars.slice(0, Math.max(0, max - 1)).join('') + '…';
}

function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function summarizeValue(value: unknown, max: number): string {
  // Long strings are cut before escaping so a 1 MB argument costs no more than a short one.
  if (typeof value === 'string') return JSON.stringify(value.length > max ? value.slice(0, max) : value);
  return JSON.stringify(value) ?? String(value);
}

/**
 * One line describing a call's arguments: `expression: "2+3"` or `query: "cats", top_k: 3`. Arguments that are
 * not JSON (models do send those) are shown as they came, on one line.
 */
export function summarizeArguments(args: string, max = 80): string {
  const parsed = parseJson(args);
  if (!parsed.ok) return truncate(collapseWhitespace(args), max);
  const { value } = parsed;
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const parts = Object.entries(value).map(([k, v]) => `${k}: ${summarizeValue(v, max)}`);
    return truncate(collapseWhitespace(parts.join(', ')), max);
  }
  return truncate(collapseWhitespace(summarizeValue(value, max)), max);
}

/** A tool card's one line: code_interpreter's code as its lines (no JSON escapes, no fences), other tools' arguments
 *  by summarizeArguments. */
export function toolCallSummary(name: string, args: string, max = 80): string {
  if (name !== 'code_interpreter') return summarizeArguments(args, max);
  const lines = interpreterCode(args)
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  return truncate(lines.join('; '), max);
}

/** The arguments indented as JSON, or undefined when they do not parse. */
export function prettyJson(text: string): string | undefined {
  const parsed = parseJson(text);
  return parsed.ok ? JSON.stringify(parsed.value, null, 2) : undefined;
}

/** A fenced markdown code block whose fence cannot be closed early by backticks inside the code. */
export function codeFence(code: string, lang = ''): string {
  const longestRun = Math.max(0, ...Array.from(code.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  return `${fence}${lang}\n${code}\n${fence}`;
}

/**
 * The code a code_interpreter call carries: the `code` field of its JSON arguments, or (Qwen-Agent also accepts
 * these) the inside of a markdown code block, or the raw text.
 */
export function interpreterCode(args: string): string {
  const parsed = parseJson(args);
  if (parsed.ok && parsed.value && typeof parsed.value === 'object') {
    const code = (parsed.value as Record<string, unknown>).code;
    if (typeof code === 'string') return code;
  }
  const block = /```[^\n`]*\n([\s\S]*?)(?:\n```|$)/.exec(args);
  return block?.[1] ?? args;
}

/** The text of a tool result: a string as is, content items' text parts joined by newlines. */
export function resultText(result: string | ContentItem[]): string {
  if (typeof result === 'string') return result;
  return result
    .map((item) => item.text)
    .filter((t): t is string => t !== undefined)
    .join('\n');
}

/** The parentheses of a URL as written in Markdown (`%28`) or not: one key for both. */
function parensKey(url: string): string {
  return url.replace(/%28/gi, '(').replace(/%29/gi, ')');
}

/** A tool's Markdown with each image already shown on its card (`shown`: their URLs) made a link to it instead, so
 *  that the card shows it once. */
export function linkShownImages(text: string, shown: readonly string[]): string {
  if (!shown.length) return text;
  const keys = new Set(shown.map(parensKey));
  return text.replace(/!(\[(?:\\.|[^\]\\\n])*\]\(\s*<?([^)\s>]+)>?\s*\))/g, (image, link: string, src: string) =>
    keys.has(parensKey(src)) ? link : image,
  );
}

/** The reasoning toggle's words: always holds "Thinking" or "Thought", plus how long it took when known. */
export function reasoningLabel(
  label: 'thinking' | 'thought',
  startT: number,
  endT: number | undefined,
  live: boolean,
  f: FormatWords,
): string {
  const thought = () =>
    endT !== undefined && endT > startT
      ? f.t('thoughtFor', { duration: formatDuration(endT - startT, f) })
      : f.t('thought');
  if (label === 'thought') return thought();
  if (live) return f.t('thinking');
  return endT === undefined ? f.t('thinkingStopped') : thought();
}

/** Why the model server is being asked again, and when: "Rate limited, retrying in 4 s (attempt 2)". `remainingMs`:
 *  the wait still ahead (seconds rounded up; under one second, in ms). */
export function retryNotice(
  retrying: { attempt: number; status?: number },
  remainingMs: number,
  f: FormatWords,
): string {
  const left = Math.max(0, remainingMs);
  const delay =
    left >= 1000 ? f.t('seconds', { n: formatNumber(Math.ceil(left / 1000), f.locale) }) : formatDuration(left, f);
  const values = { attempt: retrying.attempt, delay };
  const { status } = retrying;
  if (status === 429) return f.t('retryingRateLimited', values);
  if (status !== undefined && (status >= 500 || status === 408))
    return f.t('retryingServerError', { ...values, status });
  return f.t('retryingConnection', values);
}

export type StopNotice = { kind: 'info'; text: string } | { kind: 'error'; text: string };

/** Why a run ended without a normal answer; undefined while it streams or when it answered. An error's message is
 *  the model server's or the agent's own words, shown as they came. */
export function stopNotice(
  run: Pick<RunView, 'status' | 'llmCalls' | 'error' | 'blocks'>,
  f: FormatWords,
): StopNotice | undefined {
  switch (run.status) {
    case 'answered':
      // A model that ended its turn with empty content: the turn would show only its buttons. A GroupChat that hands
      // the turn to the user says so with its own line.
      return !answerText(run).trim() && !run.blocks.some((b) => b.kind === 'handoff')
        ? { kind: 'info', text: f.t('noAnswer') }
        : undefined;
    case 'max-iterations':
      return { kind: 'info', text: f.t('stoppedAtLimit', { calls: run.llmCalls }) };
    case 'aborted':
      return { kind: 'info', text: f.t('stoppedByYou') };
    case 'interrupted':
      return { kind: 'info', text: f.t('interrupted') };
    case 'error':
      return { kind: 'error', text: run.error?.message || f.t('runFailed') };
    default:
      return undefined;
  }
}

/** How a model server's address is shown: scheme, host and path only (never a user name or password in it, nor a
 *  query, which some servers take a key in). */
export function shownAddress(baseURL: string): string | undefined {
  try {
    const url = new URL(baseURL);
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return undefined;
  }
}

/** A model server the run could not reach (its error's code `model-unreachable`): which connection, at which address
 *  when this viewer may see it (its owner, the admin), what to check, and the error as it came (`detail`). */
export function unreachableText(
  detail: string,
  connection: string,
  address: string | undefined,
  f: FormatWords,
): string {
  return address ? f.t('unreachableAt', { connection, address, detail }) : f.t('unreachable', { connection, detail });
}
