// The Runs page's index (tables: migrations.ts step 7). A run is indexed once, when it ends (runs.ts, in the
// transaction that closes it): from its log, read once, a summary row, a row per tool call and per model call, and
// the text a search looks in, under the dialect's full-text index. Appending events is untouched, so streaming
// costs what it did. The queries read the index only, never event logs; they run as prepared statements through the
// dialect (dialect.ts RunsSql: a page costs well under a millisecond on SQLite, where a query builder's work per call
// would show), with named parameters (@name).
import { sql } from 'kysely';
import { runCost, sumCosts } from '../llm/cost';
import { contentText } from '../llm/schema';
import { AGENT_KINDS, type AgentKind } from '../protocol/enums';
import type { AgentEvent, EventOf, Usage } from '../protocol/events';
import { byText, type Db, type Dialect, type Params } from './dialect';
import type { OwnerScope } from './owner';
import {
  RUNS_PER_PAGE,
  searchWords,
  type ModelFigure,
  type RunFacets,
  type RunFigures,
  type RunListRow,
  type RunPage,
  type RunQuery,
  type RunSearchStore,
  type ToolFigure,
} from './run-query';
import { fromRow, insert, query } from './query';
import type { Tables } from './tables';

const DAY_MS = 86_400_000;

/** A model call of a run as the index counts it: an llm-end, or a call cut before it (no usage). */
type ModelCall = Pick<EventOf<'llm-end'>, 'runId' | 'usage' | 'ttftMs'>;
/** Matching runs are counted up to this many ("more than 1,000"). */
export const COUNT_CAP = 1000;
/** The figures cover the newest this many matching runs. */
const FIGURES_CAP = 5000;
/** A set of run ids (a tool or a words filter) of more runs than this is checked run by run (see filters()). */
const SET_DRIVEN_MAX = 2000;
/** How much of each piece goes into the full-text index (characters): a search finds words within these. */
const INDEXED_CHARS = { message: 4000, answer: 20000, toolArguments: 2000, toolResult: 4000 } as const;

/** The run's row as the index reads it (runs.ts facts); `message`: its user message's search text. */
type RunToIndex = Pick<Tables['runs'], 'started_at' | 'ended_at'> &
  Pick<Tables['run_summaries'], 'conversation_id' | 'owner_id'> & {
    outcome: Tables['runs']['status'];
    message: string;
  };

type SummaryRow = Omit<Tables['run_summaries'], 'id' | 'owner_id'> & {
  conversation_title: string;
  saved_agent_id: string | null;
  saved_agent_name: string | null;
};

const Q = {
  drop: query((d, p) => d.db.deleteFrom('run_summaries').where('run_id', '=', p('id'))),
  summary: insert<{ id: number }>('run_summaries', { returning: ['id'] }),
  toolCall: insert('run_tool_calls'),
  llmCall: insert('run_llm_calls'),
  text: query((d, p) => ({
    compile: () =>
      sql`INSERT INTO run_text (${sql.raw(d.runs.textId)}, body) VALUES (${p('id')}, ${p('body')})`.compile(d.db),
  })),
};

/** Indexes an ended run (again, if it was) from its log (at least its run-start, llm-end, tool-result and run-end
 *  events, in order); `answer`: its answer's search text. In the transaction that ends it. Its child runs (a Router's
 *  helpers, a GroupChat's members, at any depth) count in its model calls, tokens, cost and tool calls, each model
 *  call at its own run's model and prices; the agent, model and duration are the run's own. */
/** A call that failed: one the run was stopped during did not (a stop is not an error). */
const failed = (e: EventOf<'tool-result'>) => !e.ok && e.error?.kind !== 'stopped';

export async function indexRun(
  ctx: { d: Dialect },
  db: Db,
  runId: string,
  run: RunToIndex,
  answer: string,
  events: readonly AgentEvent[],
): Promise<void> {
  let start: EventOf<'run-start'> | undefined;
  let end: EventOf<'run-end'> | undefined;
  const starts = new Map<string, EventOf<'run-start'>>();
  const llm: ModelCall[] = [];
  /** Model calls begun (llm-start) and not ended: cut by a stop or a failure, they count, without tokens. */
  const open = new Map<string, ModelCall>();
  const tools: EventOf<'tool-result'>[] = [];
  const visit = (e: AgentEvent, own: boolean): void => {
    if (e.type === 'child') visit(e.event, false);
    else if (e.type === 'run-start') {
      starts.set(e.runId, e);
      if (own) start = e;
    } else if (e.type === 'run-end') {
      if (own) end = e;
    } else if (e.type === 'llm-start') open.set(`${e.runId} ${e.iteration}`, { runId: e.runId });
    else if (e.type === 'llm-end') {
      open.delete(`${e.runId} ${e.iteration}`);
      llm.push(e);
    } else if (e.type === 'tool-result') tools.push(e);
  };
  for (const e of events) visit(e, true);
  llm.push(...open.values());
  const model = start?.model ?? null;
  const tokens = (k: 'promptTokens' | 'completionTokens') => llm.reduce((n, e) => n + (e.usage?.[k] ?? 0), 0);
  await Q.drop.run(ctx, db, { id: runId });
  const { id } = (await Q.summary.first(ctx, db, {
    run_id: runId,
    conversation_id: run.conversation_id,
    owner_id: run.owner_id,
    started_at: run.started_at,
    outcome: run.outcome,
    agent: start && (AGENT_KINDS as readonly string[]).includes(start.kind) ? start.kind : null,
    model,
    llm_calls: llm.length,
    tool_calls: tools.length,
    failed_tool_calls: tools.filter(failed).length,
    prompt_tokens: tokens('promptTokens'),
    completion_tokens: tokens('completionTokens'),
    duration_ms: Math.round(end?.durationMs ?? Math.max(0, (run.ended_at ?? run.started_at) - run.started_at)),
    cost: treeCost(llm, starts),
  }))!;
  const pieces = [run.message.slice(0, INDEXED_CHARS.message), answer.slice(0, INDEXED_CHARS.answer)];
  for (const e of tools) {
    await Q.toolCall.run(ctx, db, { summary_id: id, name: e.name, ok: !failed(e), duration_ms: e.durationMs });
    pieces.push(e.arguments.slice(0, INDEXED_CHARS.toolArguments));
    pieces.push(contentText(e.content).slice(0, INDEXED_CHARS.toolResult));
  }
  for (const e of llm)
    await Q.llmCall.run(ctx, db, {
      summary_id: id,
      model: starts.get(e.runId)?.model ?? model ?? '',
      prompt_tokens: e.usage?.promptTokens ?? 0,
      completion_tokens: e.usage?.completionTokens ?? 0,
      ttft_ms: e.ttftMs ?? null,
    });
  // The user message, the answer, each tool call's arguments and result, one per line, each cut to its bound.
  await Q.text.run(ctx, db, { id, body: pieces.filter(Boolean).join('\n') });
}

/** What the model calls of a run and its children cost, each run's at the prices its run-start kept, summed as the
 *  inspector sums them; null when no run had a price (never a cost of 0). Calls without token counts, or of a run
 *  without a price, add nothing (the cost is then a lower bound, as the inspector says). */
function treeCost(llm: readonly ModelCall[], starts: ReadonlyMap<string, EventOf<'run-start'>>) {
  const usages = new Map<string, (Usage | undefined)[]>();
  for (const e of llm) usages.set(e.runId, [...(usages.get(e.runId) ?? []), e.usage]);
  const cost = sumCosts([...starts].map(([id, s]) => ({ cost: runCost(usages.get(id) ?? [], s.pricing), calls: 0 })));
  return cost.state === 'priced' ? cost.amount : null;
}

/** `setDrivenMax`: see SET_DRIVEN_MAX (a test sets it low to take the other plan over few runs). */
export function runSearch(d: Dialect, setDrivenMax = SET_DRIVEN_MAX): RunSearchStore {
  /** Rows of a query written with @name parameters, run as a statement prepared once per text (Dialect.run). */
  const q = async <Row>(text: string, params: Params) => {
    const values: unknown[] = [];
    const positional = text.replace(/@([A-Za-z]\w*)/g, (_, name: string) =>
      d.runs.placeholder(values.push(params[name])),
    );
    return (await d.run<Row>(d.db, positional, values)).rows;
  };
  const count = async (text: string, params: Params) => (await q<{ n: number }>(text, params))[0]!.n;

  /** The WHERE clause of a query over `run_summaries s`, and its named parameters. A filter by tool or by words is
   *  a set of run ids. A small set drives the query (its runs are looked up and sorted); a large one would cost a
   *  sort of thousands of rows for a page of 25, so the runs are read newest first instead and each is checked
   *  against the set (the `+` keeps SQLite from driving by it), which stops once the page or the count is full.
   *  With both sets, the smaller drives (the runs in both can be few: reading newest first could read them all). */
  async function planned(owner: OwnerScope, query: RunQuery) {
    const out = filters(d, owner, query);
    const sizes: number[] = [];
    for (const set of out.sets)
      sizes.push(await count(`SELECT count(*) AS n FROM (${set} LIMIT ${setDrivenMax + 1}) m`, out.params));
    // Of two sets, the smaller drives; when both are past the cap, the tool's (reading the words' set costs more).
    const driving = out.sets.length > 1 ? sizes.indexOf(Math.min(...sizes)) : -1;
    const checked = (i: number) => i !== driving && (out.sets.length > 1 || sizes[i]! > setDrivenMax);
    const where = [...out.where, ...out.sets.map((set, i) => `${checked(i) ? '+' : ''}s.id IN (${set})`)].join(' AND ');
    // The count stops at its cap, so when words are the only set it is driven by the full-text index itself, which
    // yields matches one by one (a set of 20,000 is never built to count 1,001); one index row per run, so none is
    // counted twice, and the driving join keeps that order. With a tool's set too, few runs may be in both: reading
    // every match to find them would cost more than the plan above.
    const from =
      out.text && out.sets.length === 1
        ? `run_text ${d.runs.drivingJoin} run_summaries s ON s.id = run_text.${d.runs.textId}
            WHERE ${out.text} AND ${out.where.join(' AND ')}`
        : `run_summaries s WHERE ${where}`;
    return { where, params: out.params, countFrom: from };
  }

  return {
    async searchRuns(owner, query) {
      const { where, params, countFrom } = await planned(owner, query);
      // Counted up to a cap: counting every one of 100,000 runs costs more than the page itself.
      const counted = await count(
        `SELECT count(*) AS n FROM (SELECT 1 FROM ${countFrom} LIMIT ${COUNT_CAP + 1}) m`,
        params,
      );
      const capped = counted > COUNT_CAP;
      const total = Math.min(counted, COUNT_CAP);
      const lastPage = Math.max(1, Math.ceil(total / RUNS_PER_PAGE));
      const page = capped ? Math.max(1, query.page ?? 1) : Math.min(Math.max(1, query.page ?? 1), lastPage);
      // The page is picked from the summaries alone, and only its rows are joined to their conversations.
      const rows = await q<SummaryRow>(
        `SELECT s.run_id, s.conversation_id, c.title AS conversation_title, s.agent, s.model, s.outcome, s.started_at,
                s.duration_ms, s.llm_calls, s.tool_calls, s.failed_tool_calls, s.prompt_tokens, s.completion_tokens, s.cost,
                a.id AS saved_agent_id, a.name AS saved_agent_name
           FROM (SELECT * FROM run_summaries s WHERE ${where}
                  ORDER BY s.started_at DESC, s.id DESC LIMIT ${RUNS_PER_PAGE + 1} OFFSET @offset) s
           JOIN conversations c ON c.id = s.conversation_id
           LEFT JOIN agents a ON a.id = ${d.runs.jsonText('c.settings_json', 'agentId')} AND a.owner_id = s.owner_id
          ORDER BY s.started_at DESC, s.id DESC`,
        { ...params, offset: (page - 1) * RUNS_PER_PAGE },
      );
      const hasOlder = rows.length > RUNS_PER_PAGE;
      const result: RunPage = { rows: rows.slice(0, RUNS_PER_PAGE).map(toRow), total, page, hasOlder };
      if (capped) result.moreThanTotal = true;
      else result.pageCount = lastPage;
      return result;
    },

    /** Aggregated in SQL (window functions for the nearest-rank percentiles), so that a figure over tens of
     *  thousands of calls does not bring each call into JavaScript. */
    async runFigures(owner, query) {
      const { where, params } = await planned(owner, query);
      // The newest FIGURES_CAP matching runs: a bound on the work.
      const matching = `SELECT s.id FROM run_summaries s WHERE ${where} ORDER BY s.started_at DESC LIMIT ${FIGURES_CAP}`;
      const covered = await count(`SELECT count(*) AS n FROM (${matching}) m`, params);
      const rank = (p: number, value: string) => `min(CASE WHEN rn >= (${p} * n + 99) / 100 THEN ${value} END)`;
      const tools = await q<ToolFigure>(
        `WITH c AS (SELECT name, ok, duration_ms, row_number() OVER w AS rn, count(*) OVER (PARTITION BY name) AS n
                      FROM run_tool_calls WHERE summary_id IN (${matching})
                      WINDOW w AS (PARTITION BY name ORDER BY duration_ms))
         SELECT name, count(*) AS calls, sum(CASE WHEN ok = false THEN 1 ELSE 0 END) AS failed,
                ${rank(50, 'duration_ms')} AS "p50Ms", ${rank(95, 'duration_ms')} AS "p95Ms"
           FROM c GROUP BY name`,
        params,
      );
      // The time to first token's percentiles are NULL when no call reported one: fromRow leaves them out.
      const models = await q<ModelFigure>(
        `WITH c AS (SELECT model, prompt_tokens, completion_tokens, ttft_ms, row_number() OVER w AS rn,
                           count(*) OVER (PARTITION BY model, ttft_ms IS NULL) AS n
                      FROM run_llm_calls WHERE summary_id IN (${matching})
                      WINDOW w AS (PARTITION BY model, ttft_ms IS NULL ORDER BY ttft_ms))
         SELECT model, count(*) AS calls, CAST(sum(prompt_tokens) AS bigint) AS "promptTokens",
                CAST(sum(completion_tokens) AS bigint) AS "completionTokens",
                ${rank(50, 'ttft_ms')} AS "ttftP50Ms", ${rank(95, 'ttft_ms')} AS "ttftP95Ms"
           FROM c GROUP BY model`,
        params,
      );
      // Days since the epoch: an integer division on both databases.
      const days = await q<{ day: number; runs: number }>(
        `SELECT s.started_at / ${DAY_MS} AS day, count(*) AS runs
           FROM run_summaries s WHERE s.id IN (${matching}) GROUP BY day ORDER BY day`,
        params,
      );
      return {
        runs: covered,
        newestOnly: covered === FIGURES_CAP,
        tools: tools.sort((a, b) => byText(a.name, b.name)),
        models: models.map(fromRow<ModelFigure>).sort((a, b) => byText(a.model, b.model)),
        days: days.map(({ day, runs }) => ({ day: new Date(day * DAY_MS).toISOString().slice(0, 10), runs })),
      } satisfies RunFigures;
    },

    async runFacets(owner): Promise<RunFacets> {
      const { where, params } = filters(d, owner, {});
      const list = async (text: string) => (await q<{ v: string }>(text, params)).map((r) => r.v).sort(byText);
      return {
        tools: await list(
          `SELECT DISTINCT tc.name AS v FROM run_tool_calls tc JOIN run_summaries s ON s.id = tc.summary_id
             WHERE ${where.join(' AND ')}`,
        ),
        models: await list(
          `SELECT DISTINCT s.model AS v FROM run_summaries s WHERE ${where.join(' AND ')} AND s.model IS NOT NULL`,
        ),
        agents: (await list(
          `SELECT DISTINCT s.agent AS v FROM run_summaries s WHERE ${where.join(' AND ')} AND s.agent IS NOT NULL`,
        )) as AgentKind[],
        // The owner's saved agents, by name (the runs' conversations name them by id).
        savedAgents: (
          await q<{ id: string; name: string }>('SELECT id, name FROM agents WHERE owner_id = @owner', params)
        ).sort((a, b) => byText(a.name, b.name) || byText(a.id, b.id)),
      };
    },
  };
}

/** The conditions of a query over `run_summaries s`, its named parameters, and the sets of summary ids (SELECTs)
 *  a run must be in. */
function filters(d: Dialect, owner: OwnerScope, q: RunQuery) {
  const where = ['s.owner_id = @owner'];
  const sets: string[] = [];
  const params: Params = { owner: owner.ownerId };
  const add = (clause: string, values: Params) => {
    where.push(clause);
    Object.assign(params, values);
  };
  if (q.outcome) add('s.outcome = @outcome', { outcome: q.outcome });
  if (q.model) add('s.model = @model', { model: q.model });
  if (q.agent) add('s.agent = @agent', { agent: q.agent });
  if (q.savedAgent)
    add(
      `s.conversation_id IN (SELECT id FROM conversations
                              WHERE owner_id = @owner AND ${d.runs.jsonText('settings_json', 'agentId')} = @savedAgent)`,
      { savedAgent: q.savedAgent },
    );
  if (q.from) add('s.started_at >= @from', { from: Date.parse(`${q.from}T00:00:00Z`) });
  if (q.to) add('s.started_at < @to', { to: Date.parse(`${q.to}T00:00:00Z`) + DAY_MS });
  if (q.tool) {
    const failed = q.failedToolsOnly ? ` AND ok = false` : '';
    sets.push(`SELECT summary_id FROM run_tool_calls WHERE name = @tool${failed}`);
    params.tool = q.tool;
  } else if (q.failedToolsOnly) where.push('s.failed_tool_calls > 0'); // as the partial index says it
  // Every word must occur (as a substring, case aside).
  const words = searchWords(q.text);
  if (!words.length) return { where, sets, params };
  const text = d.runs.textMatch(words, params);
  sets.push(`SELECT ${d.runs.textId} FROM run_text WHERE ${text}`);
  return { where, sets, params, text };
}

function toRow({ saved_agent_id: id, saved_agent_name: name, ...row }: SummaryRow): RunListRow {
  return { ...fromRow<RunListRow>(row), ...(id && name !== null && { savedAgent: { id, name } }) };
}
