// The Runs page's filters as the address bar holds them: read from and written to URL search parameters here, once,
// for the page and the server action alike. What a query means is the store's (lib/store/run-query.ts).
import { AGENT_KINDS, type AgentKind } from '../protocol/enums';
import { RUN_OUTCOMES, type RunOutcome } from '../protocol/enums';
import { searchWords, type RunQuery } from '../store/run-query';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MAX_TEXT = 200;
/** A page past this is no page (its offset would not be a number a database takes). */
const MAX_PAGE = 1_000_000;

const oneOf = <T extends string>(values: readonly T[], s: string) => (values as readonly string[]).includes(s);
/** A day that exists (2026-02-30 does not: it is not read as March 2nd). */
const day = (s: string) => {
  const t = DAY.test(s) ? Date.parse(`${s}T00:00:00Z`) : NaN;
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === s ? s : undefined;
};

/** Each filter's name in the address bar, in the order it is written there, and its value read from the text there
 *  (undefined: it does not parse, and is left out: a hand-edited link still opens the page, and says what it left
 *  out). A free-text filter (words, tool, model, a saved agent's id) always reads: matching nothing is an answer. */
const PARAMS: { [K in keyof RunQuery]-?: [name: string, read: (s: string) => RunQuery[K]] } = {
  text: ['q', (s) => s.slice(0, MAX_TEXT)],
  outcome: ['outcome', (s) => (oneOf(RUN_OUTCOMES, s) ? (s as RunOutcome) : undefined)],
  tool: ['tool', (s) => s],
  failedToolsOnly: ['failed', (s) => (s === '1' ? true : s === '0' ? false : undefined)],
  model: ['model', (s) => s],
  agent: ['agent', (s) => (oneOf(AGENT_KINDS, s) ? (s as AgentKind) : undefined)],
  savedAgent: ['savedAgent', (s) => s.slice(0, MAX_TEXT)],
  from: ['from', day],
  to: ['to', day],
  page: ['page', (s) => (/^\d+$/.test(s) && Number(s) >= 1 && Number(s) <= MAX_PAGE ? Number(s) : undefined)],
};

/** A filter of the address that was left out, by its name there, and the value it had (cut to 100 characters). */
export interface IgnoredFilter {
  name: 'outcome' | 'failed' | 'agent' | 'savedAgent' | 'from' | 'to' | 'page';
  value: string;
}

/** The query in the address bar, and what of it was left out because it cannot be a value of its filter. */
export function readRunsAddress(params: URLSearchParams | Record<string, string | string[] | undefined>): {
  query: RunQuery;
  ignored: IgnoredFilter[];
} {
  const q: Record<string, unknown> = {};
  const ignored: IgnoredFilter[] = [];
  for (const [key, [name, read]] of Object.entries(PARAMS)) {
    const v = params instanceof URLSearchParams ? params.get(name) : params[name];
    const s = (Array.isArray(v) ? v[0] : v)?.trim();
    if (!s) continue;
    const value = read(s);
    if (value === false) continue;
    if (value !== undefined) q[key] = value;
    else ignored.push({ name: name as IgnoredFilter['name'], value: s.slice(0, 100) });
  }
  // Page 1 is no page at all in the address (the first is the one without it); quotes alone are no search.
  if (q.page === 1) delete q.page;
  if (typeof q.text === 'string' && !searchWords(q.text).length) delete q.text;
  return { query: q as RunQuery, ignored };
}

/** The query in the address bar (what cannot be read is left out). */
export function runQueryFromParams(params: URLSearchParams | Record<string, string | string[] | undefined>): RunQuery {
  return readRunsAddress(params).query;
}

/** From is after To: no run can match (the page says so next to the dates). */
export function rangeBackwards(q: RunQuery): boolean {
  return Boolean(q.from && q.to && q.from > q.to);
}

/** The address-bar form of a query (only what is set, in a fixed order). */
export function runQueryToParams(q: RunQuery): URLSearchParams {
  const p = new URLSearchParams();
  for (const [key, [name]] of Object.entries(PARAMS)) {
    const value = q[key as keyof RunQuery];
    if (value && (key !== 'page' || Number(value) > 1)) p.set(name, value === true ? '1' : String(value));
  }
  return p;
}
