// The Runs page's index on SQLite (tables: schema.sql.ts step 7). A run is indexed once, when it finishes (the
// store's closeRun, in the same transaction): its log is read once for the few event types that matter, and a
// summary row, one row per tool call and per model call, and one full-text row are written. Appending events is
// untouched, so the hot path of a streaming run costs what it did. Queries read the index only, never event logs.
import type Database from 'better-sqlite3';
import type { AgentKind } from '../protocol/enums';
import {
  dayStart,
  RUNS_PER_PAGE,
  type RunFacets,
  type RunFigures,
  type RunListRow,
  type RunOutcome,
  type RunPage,
  type RunQuery,
  type ToolFigure,
  type ModelFigure,
} from './run-query';
import type { OwnerScope } from './owner';
import { searchWords, summariseRun } from './run-summary';
import { upgradeRunLog } from './upgrade';

const DAY_MS = 86_400_000;

interface SummaryRow {
  run_id: string;
  conversation_id: string;
  title: string;
  agent: string | null;
  saved_agent_id: string | null;
  saved_agent_name: string | null;
  model: string | null;
  outcome: RunOutcome;
  started_at: number;
  duration_ms: number;
  llm_calls: number;
  tool_calls: number;
  failed_tool_calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost: number | null;
}

type Params = Record<string, string | number>;

export class SqliteRunIndex {
  private readonly statements = new Map<string, Database.Statement>();
  private readonly sql;

  /** `setDrivenMax`: see SET_DRIVEN_MAX (a test sets it low to take the other plan over few runs). */
  constructor(
    private readonly db: Database.Database,
    private readonly setDrivenMax = SET_DRIVEN_MAX,
  ) {
    const p = <P extends unknown[], R = unknown>(source: string) => db.prepare<P, R>(source);
    this.sql = {
      run: p<
        [string],
        {
          started_at: number;
          ended_at: number | null;
          outcome: string;
          conversation_id: string;
          owner_id: string;
          message: string;
        }
      >(
        `SELECT r.started_at, r.ended_at, r.status AS outcome, t.conversation_id, c.owner_id,
                t.search_text AS message
           FROM runs r JOIN turns t ON t.id = r.turn_id JOIN conversations c ON c.id = t.conversation_id
          WHERE r.id = ?`,
      ),
      events: p<[string], { json: string }>(
        // A child run's events come wrapped in `child` (a Router's helper, a GroupChat's member): they count too.
        `SELECT json FROM run_events WHERE run_id = ?
           AND type IN ('run-start', 'llm-end', 'tool-call', 'tool-result', 'run-end', 'child') ORDER BY seq`,
      ),
      drop: p<[string]>('DELETE FROM run_summaries WHERE run_id = ?'),
      adopt: p<[string, string]>('UPDATE run_summaries SET owner_id = ? WHERE owner_id = ?'),
      summary: p<
        [
          string,
          string,
          string,
          number,
          string,
          string | null,
          string | null,
          number,
          number,
          number,
          number,
          number,
          number,
          number | null,
        ]
      >(
        `INSERT INTO run_summaries (run_id, conversation_id, owner_id, started_at, outcome, agent, model, llm_calls,
           tool_calls, failed_tool_calls, prompt_tokens, completion_tokens, duration_ms, cost)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      toolCall: p<[number | bigint, string, number, number]>(
        'INSERT INTO run_tool_calls (summary_id, name, ok, duration_ms) VALUES (?, ?, ?, ?)',
      ),
      llmCall: p<[number | bigint, string, number, number, number | null]>(
        'INSERT INTO run_llm_calls (summary_id, model, prompt_tokens, completion_tokens, ttft_ms) VALUES (?, ?, ?, ?, ?)',
      ),
      text: p<[number | bigint, string]>('INSERT INTO run_text (rowid, body) VALUES (?, ?)'),
      unindexed: p<[], { id: string; answer: string | null }>(
        `SELECT r.id, r.answer_text AS answer FROM runs r
           WHERE r.status != 'running' AND NOT EXISTS (SELECT 1 FROM run_summaries s WHERE s.run_id = r.id)`,
      ),
    };
  }

  /** Indexes a finished run (again, if it was). `answer`: the run's answer text. Call inside a transaction. */
  index(runId: string, answer: string): void {
    const run = this.sql.run.get(runId);
    if (!run) return;
    const events = upgradeRunLog(this.sql.events.all(runId).map((r) => JSON.parse(r.json) as unknown));
    const s = summariseRun(run, events, answer);
    this.sql.drop.run(runId);
    const id = this.sql.summary.run(
      runId,
      run.conversation_id,
      run.owner_id,
      run.started_at,
      run.outcome,
      s.agent,
      s.model,
      s.llmCalls.length,
      s.toolCalls.length,
      s.toolCalls.filter((c) => !c.ok).length,
      s.promptTokens,
      s.completionTokens,
      s.durationMs,
      s.cost,
    ).lastInsertRowid;
    for (const c of s.toolCalls) this.sql.toolCall.run(id, c.name, c.ok ? 1 : 0, c.durationMs);
    for (const c of s.llmCalls) this.sql.llmCall.run(id, c.model, c.promptTokens, c.completionTokens, c.ttftMs);
    this.sql.text.run(id, s.body);
  }

  /** The owner copied onto each summary follows its conversations when they change hands (ChatStore.adoptLocalData).
   *  Call inside the transaction that moves the conversations. */
  adopt(fromOwnerId: string, toOwnerId: string): void {
    this.sql.adopt.run(toOwnerId, fromOwnerId);
  }

  /** Indexes every finished run that is not yet (those finished before the index existed). Resolves with how many. */
  backfill(): number {
    return this.db.transaction(() => {
      const runs = this.sql.unindexed.all();
      for (const r of runs) this.index(r.id, r.answer ?? '');
      return runs.length;
    })();
  }

  search(owner: OwnerScope, q: RunQuery): RunPage {
    const { where, params, count } = this.filters(owner, q);
    // Counted up to a cap: counting every one of 100,000 runs costs more than the page itself.
    const counted = (
      this.prepared(`SELECT count(*) AS n FROM (SELECT 1 FROM ${count} LIMIT ${COUNT_CAP + 1})`).get(params) as {
        n: number;
      }
    ).n;
    const capped = counted > COUNT_CAP;
    const total = Math.min(counted, COUNT_CAP);
    const lastPage = Math.max(1, Math.ceil(total / RUNS_PER_PAGE));
    const page = capped ? Math.max(1, q.page ?? 1) : Math.min(Math.max(1, q.page ?? 1), lastPage);
    // The page is picked from the summaries alone, and only its rows are joined to their conversations.
    const rows = this.prepared(
      `SELECT s.run_id, s.conversation_id, c.title, s.agent, s.model, s.outcome, s.started_at, s.duration_ms,
              s.llm_calls, s.tool_calls, s.failed_tool_calls, s.prompt_tokens, s.completion_tokens, s.cost,
              a.id AS saved_agent_id, a.name AS saved_agent_name
         FROM (SELECT * FROM run_summaries s WHERE ${where}
                ORDER BY s.started_at DESC, s.id DESC LIMIT ${RUNS_PER_PAGE + 1} OFFSET @offset) s ${JOIN}
         LEFT JOIN agents a ON a.id = json_extract(c.settings_json, '$.agentId') AND a.owner_id = s.owner_id
        ORDER BY s.started_at DESC, s.id DESC`,
    ).all({ ...params, offset: (page - 1) * RUNS_PER_PAGE }) as SummaryRow[];
    const hasOlder = rows.length > RUNS_PER_PAGE;
    const result: RunPage = { rows: rows.slice(0, RUNS_PER_PAGE).map(toRow), total, page, hasOlder };
    if (capped) result.moreThanTotal = true;
    else result.pageCount = lastPage;
    return result;
  }

  /** Aggregated in SQL (window functions for the nearest-rank percentiles), so that a figure over tens of
   *  thousands of calls does not bring each call into JavaScript. */
  figures(owner: OwnerScope, q: RunQuery): RunFigures {
    const { where, params } = this.filters(owner, q);
    // The newest FIGURES_CAP matching runs: a bound on the work (SQLite answers on the server's one thread).
    const matching = `SELECT s.id FROM run_summaries s WHERE ${where} ORDER BY s.started_at DESC LIMIT ${FIGURES_CAP}`;
    const covered = (this.prepared(`SELECT count(*) AS n FROM (${matching})`).get(params) as { n: number }).n;
    const rank = (p: number, value: string) => `min(CASE WHEN rn >= (${p} * n + 99) / 100 THEN ${value} END)`;
    const tools = this.prepared(
      `WITH c AS (SELECT name, ok, duration_ms, row_number() OVER w AS rn, count(*) OVER (PARTITION BY name) AS n
                    FROM run_tool_calls WHERE summary_id IN (${matching})
                    WINDOW w AS (PARTITION BY name ORDER BY duration_ms))
       SELECT name, count(*) AS calls, sum(ok = 0) AS failed, ${rank(50, 'duration_ms')} AS p50Ms,
              ${rank(95, 'duration_ms')} AS p95Ms
         FROM c GROUP BY name ORDER BY name`,
    ).all(params) as ToolFigure[];
    const models = this.prepared(
      `WITH c AS (SELECT model, prompt_tokens, completion_tokens, ttft_ms, row_number() OVER w AS rn,
                         count(*) OVER (PARTITION BY model, ttft_ms IS NULL) AS n
                    FROM run_llm_calls WHERE summary_id IN (${matching})
                    WINDOW w AS (PARTITION BY model, ttft_ms IS NULL ORDER BY ttft_ms))
       SELECT model, count(*) AS calls, sum(prompt_tokens) AS promptTokens, sum(completion_tokens) AS completionTokens,
              ${rank(50, 'ttft_ms')} AS ttftP50Ms, ${rank(95, 'ttft_ms')} AS ttftP95Ms
         FROM c GROUP BY model ORDER BY model`,
    ).all(params) as (Omit<ModelFigure, 'ttftP50Ms' | 'ttftP95Ms'> & {
      ttftP50Ms: number | null;
      ttftP95Ms: number | null;
    })[];
    const days = this.prepared(
      `SELECT strftime('%Y-%m-%d', s.started_at / 1000, 'unixepoch') AS day, count(*) AS runs
         FROM run_summaries s WHERE s.id IN (${matching}) GROUP BY day ORDER BY day`,
    ).all(params) as { day: string; runs: number }[];
    return {
      runs: covered,
      newestOnly: covered === FIGURES_CAP,
      tools,
      models: models.map(({ ttftP50Ms, ttftP95Ms, ...m }) =>
        ttftP50Ms === null || ttftP95Ms === null ? m : { ...m, ttftP50Ms, ttftP95Ms },
      ),
      days,
    };
  }

  facets(owner: OwnerScope): RunFacets {
    const { where, params } = this.filters(owner, {});
    const list = (sql: string) => (this.prepared(sql).all(params) as { v: string }[]).map((r) => r.v);
    return {
      tools: list(
        `SELECT DISTINCT tc.name AS v FROM run_tool_calls tc JOIN run_summaries s ON s.id = tc.summary_id
           WHERE ${where} ORDER BY v`,
      ),
      models: list(
        `SELECT DISTINCT s.model AS v FROM run_summaries s WHERE ${where} AND s.model IS NOT NULL ORDER BY v`,
      ),
      agents: list(
        `SELECT DISTINCT s.agent AS v FROM run_summaries s WHERE ${where} AND s.agent IS NOT NULL ORDER BY v`,
      ) as AgentKind[],
      savedAgents: this.prepared('SELECT id, name FROM agents WHERE owner_id = @owner ORDER BY name, id').all({
        owner: owner.ownerId,
      }) as { id: string; name: string }[],
    };
  }

  /** The WHERE clause of a query over `run_summaries s`, and its named parameters. A filter by tool or by words is
   *  a set of run ids. A small set drives the query (its runs are looked up and sorted); a large one would cost a
   *  sort of thousands of rows for a page of 25, so the runs are read newest first instead and each is checked
   *  against the set (the `+` keeps SQLite from driving by it), which stops once the page or the count is full.
   *  With both sets, the smaller drives (the runs in both can be few: reading newest first could read them all). */
  private filters(owner: OwnerScope, q: RunQuery): { where: string; params: Params; count: string } {
    const out = filters(owner, q);
    const sizes = out.sets.map((set) => {
      const counted = this.prepared(`SELECT count(*) AS n FROM (${set} LIMIT ${this.setDrivenMax + 1})`);
      return (counted.get(out.params) as { n: number }).n;
    });
    // Of two sets, the smaller drives; when both are past the cap, the tool's (reading the words' set costs more).
    const driving = out.sets.length > 1 ? sizes.indexOf(Math.min(...sizes)) : -1;
    const checked = (i: number) => i !== driving && (out.sets.length > 1 || sizes[i]! > this.setDrivenMax);
    const where = [...out.where, ...out.sets.map((set, i) => `${checked(i) ? '+' : ''}s.id IN (${set})`)];
    // The count stops at its cap, so when words are the only set it is driven by the full-text index itself, which
    // yields matches one by one (a set of 20,000 is never built to count 1,001); one index row per run, so none is
    // counted twice, and CROSS JOIN keeps that order. With a tool's set too, few runs may be in both: reading every
    // match to find them would cost more than the plan above.
    const count =
      out.text && out.sets.length === 1
        ? `run_text CROSS JOIN run_summaries s ON s.id = run_text.rowid WHERE ${out.text} AND ${out.where.join(' AND ')}`
        : `run_summaries s WHERE ${where.join(' AND ')}`;
    return { where: where.join(' AND '), params: out.params, count };
  }

  /** Queries differ by which filters are set; each shape is prepared once. */
  private prepared(source: string): Database.Statement {
    let s = this.statements.get(source);
    if (!s) {
      s = this.db.prepare(source);
      this.statements.set(source, s);
    }
    return s;
  }
}

const JOIN = 'JOIN conversations c ON c.id = s.conversation_id';
/** Matching runs are counted up to this many ("more than 1,000"). */
export const COUNT_CAP = 1000;
/** The figures cover the newest this many matching runs. */
export const FIGURES_CAP = 5000;

/** A set of run ids (a tool or a words filter) of more runs than this is checked run by run (see filters()). */
export const SET_DRIVEN_MAX = 2000;

/** The conditions of a query over `run_summaries s`, its named parameters, and the sets of summary ids (SELECTs)
 *  a run must be in. */
function filters(owner: OwnerScope, q: RunQuery): { where: string[]; sets: string[]; params: Params; text?: string } {
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
                              WHERE owner_id = @owner AND json_extract(settings_json, '$.agentId') = @savedAgent)`,
      { savedAgent: q.savedAgent },
    );
  if (q.from) add('s.started_at >= @from', { from: dayStart(q.from) });
  if (q.to) add('s.started_at < @to', { to: dayStart(q.to) + DAY_MS });
  if (q.tool) {
    const failed = q.failedToolsOnly ? ' AND ok = 0' : '';
    sets.push(`SELECT summary_id FROM run_tool_calls WHERE name = @tool${failed}`);
    params.tool = q.tool;
  } else if (q.failedToolsOnly) where.push('s.failed_tool_calls > 0'); // as the partial index says it
  const text = textFilter(q.text);
  if (!text) return { where, sets, params };
  sets.push(`SELECT rowid FROM run_text WHERE ${text.where}`);
  Object.assign(params, text.params);
  return { where, sets, params, text: text.where };
}

/** Every word must occur (as a substring, case-folded). Words of three or more characters go through the trigram
 *  index; shorter ones (a trigram needs three) are matched with LIKE over the indexed text, a scan. */
function textFilter(text: string | undefined): { where: string; params: Params } | undefined {
  const words = searchWords(text);
  if (!words.length) return undefined;
  const long = words.filter((w) => [...w].length >= 3);
  const short = words.filter((w) => [...w].length < 3);
  const where: string[] = [];
  const params: Params = {};
  if (long.length) {
    where.push('run_text MATCH @match');
    params.match = long.map((w) => `"${w}"`).join(' ');
  }
  short.forEach((w, i) => {
    where.push(`body LIKE @like${i} ESCAPE '\\'`);
    params[`like${i}`] = `%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  });
  return { where: where.join(' AND '), params };
}

function toRow(r: SummaryRow): RunListRow {
  return {
    runId: r.run_id,
    conversationId: r.conversation_id,
    conversationTitle: r.title,
    agent: (r.agent as AgentKind | null) ?? undefined,
    ...(r.saved_agent_id && r.saved_agent_name !== null
      ? { savedAgent: { id: r.saved_agent_id, name: r.saved_agent_name } }
      : {}),
    model: r.model ?? undefined,
    outcome: r.outcome,
    startedAt: r.started_at,
    durationMs: r.duration_ms,
    llmCalls: r.llm_calls,
    toolCalls: r.tool_calls,
    failedToolCalls: r.failed_tool_calls,
    promptTokens: r.prompt_tokens,
    completionTokens: r.completion_tokens,
    ...(r.cost === null ? {} : { cost: r.cost }),
  };
}
