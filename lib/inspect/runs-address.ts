// The Runs page's filters as the address bar holds them: read from and written to URL search parameters here, once,
// for the page and the server action alike. What a query means is the store's (lib/store/run-query.ts).
import { AGENT_KINDS, type AgentKind } from '../protocol/enums';
import { RUN_OUTCOMES, type RunOutcome, type RunQuery } from '../store/run-query';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MAX_TEXT = 200;

const oneOf = <T extends string>(values: readonly T[], s: string) => (values as readonly string[]).includes(s);
const day = (s: string) => (DAY.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) ? s : undefined);

/** Each filter's name in the address bar, in the order it is written there, and its value read from the text there
 *  (undefined: it does not parse, and is left out: a hand-edited link still opens the page). */
const PARAMS: { [K in keyof RunQuery]-?: [name: string, read: (s: string) => RunQuery[K]] } = {
  text: ['q', (s) => s.slice(0, MAX_TEXT)],
  outcome: ['outcome', (s) => (oneOf(RUN_OUTCOMES, s) ? (s as RunOutcome) : undefined)],
  tool: ['tool', (s) => s],
  failedToolsOnly: ['failed', (s) => s === '1' || undefined],
  model: ['model', (s) => s],
  agent: ['agent', (s) => (oneOf(AGENT_KINDS, s) ? (s as AgentKind) : undefined)],
  savedAgent: ['savedAgent', (s) => s.slice(0, MAX_TEXT)],
  from: ['from', day],
  to: ['to', day],
  page: ['page', (s) => (Number.isInteger(Number(s)) && Number(s) > 1 ? Number(s) : undefined)],
};

/** The query in the address bar. */
export function runQueryFromParams(params: URLSearchParams | Record<string, string | string[] | undefined>): RunQuery {
  const q: Record<string, unknown> = {};
  for (const [key, [name, read]] of Object.entries(PARAMS)) {
    const v = params instanceof URLSearchParams ? params.get(name) : params[name];
    const s = (Array.isArray(v) ? v[0] : v)?.trim();
    const value = s ? read(s) : undefined;
    if (value !== undefined) q[key] = value;
  }
  return q as RunQuery;
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
