// The Runs page's index on PostgreSQL (tables: pg-schema.ts step 7), the same rows and answers as SQLite's
// (run-index.ts): a run is indexed once, when it finishes (in the transaction that closes it), from the few events
// that matter (run-summary.ts); the queries read the index only. The words of a search are matched as substrings,
// case aside, by ILIKE over the indexed text, which a pg_trgm GIN index serves (as FTS5's trigram tokenizer does on
// SQLite; words under three characters have no trigram and are checked row by row there too). Queries differ by
// which filters are set: each shape is a named statement (prepared once per connection), named by its text.
import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { AgentKind } from '../protocol/enums';
import type { OwnerScope } from './owner';
import { pgText, type Queryable } from './pg-statements';
import { COUNT_CAP, FIGURES_CAP } from './run-index';
import {
  dayStart,
  RUNS_PER_PAGE,
  type ModelFigure,
  type RunFacets,
  type RunFigures,
  type RunListRow,
  type RunOutcome,
  type RunPage,
  type RunQuery,
  type ToolFigure,
} from './run-query';
import { searchWords, summariseRun, type RunToIndex } from './run-summary';
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

/** A query's SQL with its positional parameters. */
class Sql {
  readonly values: unknown[] = [];
  /** `$n` for a value. */
  v(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

function query<Row extends pg.QueryResultRow>(db: Queryable, text: string, values: unknown[]) {
  const name = `runs_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
  return db.query<Row>({ name, text, values });
}

export class PgRunIndex {
  constructor(private readonly pool: pg.Pool) {}

  /** Indexes a finished run (again, if it was). `answer`: its answer text, as the store keeps it for search. Call
   *  inside the transaction that finishes it. */
  async index(db: Queryable, runId: string, answer: string): Promise<void> {
    const run = (
      await query<RunToIndex>(
        db,
        `SELECT r.started_at, r.ended_at, r.status AS outcome, t.conversation_id, c.owner_id, t.search_text AS message
           FROM runs r JOIN turns t ON t.id = r.turn_id JOIN conversations c ON c.id = t.conversation_id
          WHERE r.id = $1`,
        [runId],
      )
    ).rows[0];
    if (!run) return;
    const rows = await query<{ json: string }>(
      db,
      `SELECT json FROM run_events WHERE run_id = $1
          AND type IN ('run-start', 'llm-end', 'tool-call', 'tool-result', 'run-end', 'child') ORDER BY seq`,
      [runId],
    );
    const s = summariseRun(run, upgradeRunLog(rows.rows.map((r) => JSON.parse(r.json) as unknown)), answer);
    await query(db, 'DELETE FROM run_summaries WHERE run_id = $1', [runId]);
    const id = (
      await query<{ id: number }>(
        db,
        `INSERT INTO run_summaries (run_id, conversation_id, owner_id, started_at, outcome, agent, model, llm_calls,
           tool_calls, failed_tool_calls, prompt_tokens, completion_tokens, duration_ms, cost)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id`,
        [
          runId,
          run.conversation_id,
          run.owner_id,
          run.started_at,
          run.outcome,
          s.agent,
          s.model === null ? null : pgText(s.model),
          s.llmCalls.length,
          s.toolCalls.length,
          s.toolCalls.filter((c) => !c.ok).length,
          s.promptTokens,
          s.completionTokens,
          s.durationMs,
          s.cost,
        ],
      )
    ).rows[0]!.id;
    if (s.toolCalls.length)
      await query(
        db,
        `INSERT INTO run_tool_calls (summary_id, name, ok, duration_ms)
           SELECT $1, * FROM unnest($2::text[], $3::boolean[], $4::double precision[])`,
        [
          id,
          s.toolCalls.map((c) => pgText(c.name)),
          s.toolCalls.map((c) => c.ok),
          s.toolCalls.map((c) => c.durationMs),
        ],
      );
    if (s.llmCalls.length)
      await query(
        db,
        `INSERT INTO run_llm_calls (summary_id, model, prompt_tokens, completion_tokens, ttft_ms)
           SELECT $1, * FROM unnest($2::text[], $3::bigint[], $4::bigint[], $5::double precision[])`,
        [
          id,
          s.llmCalls.map((c) => pgText(c.model)),
          s.llmCalls.map((c) => c.promptTokens),
          s.llmCalls.map((c) => c.completionTokens),
          s.llmCalls.map((c) => c.ttftMs),
        ],
      );
    await query(db, 'INSERT INTO run_text (summary_id, body) VALUES ($1, $2)', [id, pgText(s.body)]);
  }

  /** The owner copied onto each summary follows its conversations (ChatStore.adoptLocalData), in its transaction. */
  async adopt(db: Queryable, fromOwnerId: string, toOwnerId: string): Promise<void> {
    await query(db, 'UPDATE run_summaries SET owner_id = $1 WHERE owner_id = $2', [toOwnerId, fromOwnerId]);
  }

  /** Indexes every finished run that is not yet (those finished before the index existed), in `db`'s transaction
   *  (the store opens it under the migrations' lock, so instances starting at once index each run once). */
  async backfill(db: Queryable): Promise<number> {
    const { rows } = await query<{ id: string; answer: string | null }>(
      db,
      `SELECT r.id, r.answer_text AS answer FROM runs r
         WHERE r.status <> 'running' AND NOT EXISTS (SELECT 1 FROM run_summaries s WHERE s.run_id = r.id)`,
      [],
    );
    for (const r of rows) await this.index(db, r.id, r.answer ?? '');
    return rows.length;
  }

  async search(owner: OwnerScope, q: RunQuery): Promise<RunPage> {
    const sql = new Sql();
    const where = filters(sql, owner, q);
    const counted = (
      await query<{ n: number }>(
        this.pool,
        `SELECT count(*) AS n FROM (SELECT 1 FROM run_summaries s WHERE ${where} LIMIT ${COUNT_CAP + 1}) m`,
        sql.values,
      )
    ).rows[0]!.n;
    const capped = counted > COUNT_CAP;
    const total = Math.min(counted, COUNT_CAP);
    const lastPage = Math.max(1, Math.ceil(total / RUNS_PER_PAGE));
    const page = capped ? Math.max(1, q.page ?? 1) : Math.min(Math.max(1, q.page ?? 1), lastPage);
    const offset = sql.v((page - 1) * RUNS_PER_PAGE);
    const { rows } = await query<SummaryRow>(
      this.pool,
      `SELECT s.run_id, s.conversation_id, c.title, s.agent, s.model, s.outcome, s.started_at, s.duration_ms,
              s.llm_calls, s.tool_calls, s.failed_tool_calls, s.prompt_tokens, s.completion_tokens, s.cost,
              a.id AS saved_agent_id, a.name AS saved_agent_name
         FROM (SELECT * FROM run_summaries s WHERE ${where}
                ORDER BY s.started_at DESC, s.id DESC LIMIT ${RUNS_PER_PAGE + 1} OFFSET ${offset}::integer) s
         JOIN conversations c ON c.id = s.conversation_id
         LEFT JOIN agents a ON a.id = (c.settings_json::jsonb ->> 'agentId') AND a.owner_id = s.owner_id
        ORDER BY s.started_at DESC, s.id DESC`,
      sql.values,
    );
    const hasOlder = rows.length > RUNS_PER_PAGE;
    const result: RunPage = { rows: rows.slice(0, RUNS_PER_PAGE).map(toRow), total, page, hasOlder };
    if (capped) result.moreThanTotal = true;
    else result.pageCount = lastPage;
    return result;
  }

  /** Nearest-rank percentiles by window functions, in SQL, as on SQLite. */
  async figures(owner: OwnerScope, q: RunQuery): Promise<RunFigures> {
    const sql = new Sql();
    const where = filters(sql, owner, q);
    const matching = `SELECT s.id FROM run_summaries s WHERE ${where} ORDER BY s.started_at DESC LIMIT ${FIGURES_CAP}`;
    const rank = (p: number, value: string) => `min(CASE WHEN rn >= (${p} * n + 99) / 100 THEN ${value} END)`;
    const [covered, tools, models, days] = await Promise.all([
      query<{ n: number }>(this.pool, `SELECT count(*) AS n FROM (${matching}) m`, sql.values),
      query<ToolFigure>(
        this.pool,
        `WITH c AS (SELECT name, ok, duration_ms, row_number() OVER w AS rn, count(*) OVER (PARTITION BY name) AS n
                      FROM run_tool_calls WHERE summary_id IN (${matching})
                      WINDOW w AS (PARTITION BY name ORDER BY duration_ms))
         SELECT name, count(*) AS calls, count(*) FILTER (WHERE NOT ok) AS failed,
                ${rank(50, 'duration_ms')} AS "p50Ms", ${rank(95, 'duration_ms')} AS "p95Ms"
           FROM c GROUP BY name ORDER BY name COLLATE "C"`,
        sql.values,
      ),
      query<Omit<ModelFigure, 'ttftP50Ms' | 'ttftP95Ms'> & { ttftP50Ms: number | null; ttftP95Ms: number | null }>(
        this.pool,
        `WITH c AS (SELECT model, prompt_tokens, completion_tokens, ttft_ms, row_number() OVER w AS rn,
                           count(*) OVER (PARTITION BY model, ttft_ms IS NULL) AS n
                      FROM run_llm_calls WHERE summary_id IN (${matching})
                      WINDOW w AS (PARTITION BY model, ttft_ms IS NULL ORDER BY ttft_ms))
         SELECT model, count(*) AS calls, sum(prompt_tokens)::bigint AS "promptTokens",
                sum(completion_tokens)::bigint AS "completionTokens",
                ${rank(50, 'ttft_ms')} AS "ttftP50Ms", ${rank(95, 'ttft_ms')} AS "ttftP95Ms"
           FROM c GROUP BY model ORDER BY model COLLATE "C"`,
        sql.values,
      ),
      query<{ day: string; runs: number }>(
        this.pool,
        `SELECT to_char(to_timestamp(s.started_at / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
                count(*) AS runs
           FROM run_summaries s WHERE s.id IN (${matching}) GROUP BY day ORDER BY day`,
        sql.values,
      ),
    ]);
    const runs = covered.rows[0]!.n;
    return {
      runs,
      newestOnly: runs === FIGURES_CAP,
      tools: tools.rows,
      models: models.rows.map(({ ttftP50Ms, ttftP95Ms, ...m }) =>
        ttftP50Ms === null || ttftP95Ms === null ? m : { ...m, ttftP50Ms, ttftP95Ms },
      ),
      days: days.rows,
    };
  }

  async facets(owner: OwnerScope): Promise<RunFacets> {
    const sql = new Sql();
    const where = filters(sql, owner, {});
    const list = async (text: string) => (await query<{ v: string }>(this.pool, text, sql.values)).rows.map((r) => r.v);
    const [tools, models, agents, savedAgents] = await Promise.all([
      list(
        `SELECT DISTINCT tc.name COLLATE "C" AS v FROM run_tool_calls tc JOIN run_summaries s ON s.id = tc.summary_id
           WHERE ${where} ORDER BY v`,
      ),
      list(
        `SELECT DISTINCT s.model COLLATE "C" AS v FROM run_summaries s WHERE ${where} AND s.model IS NOT NULL
           ORDER BY v`,
      ),
      list(
        `SELECT DISTINCT s.agent COLLATE "C" AS v FROM run_summaries s WHERE ${where} AND s.agent IS NOT NULL
           ORDER BY v`,
      ),
      query<{ id: string; name: string }>(
        this.pool,
        'SELECT id, name FROM agents WHERE owner_id = $1 ORDER BY name COLLATE "C", id',
        [owner.ownerId],
      ).then((r) => r.rows),
    ]);
    return { tools, models, agents: agents as AgentKind[], savedAgents };
  }
}

/** The WHERE clause of a query over `run_summaries s` (its values added to `sql`): the owner's runs, each filter
 *  set, a tool (or a failed call of it) and every word of the search. */
function filters(sql: Sql, owner: OwnerScope, q: RunQuery): string {
  const where = [`s.owner_id = ${sql.v(owner.ownerId)}`];
  if (q.outcome) where.push(`s.outcome = ${sql.v(q.outcome)}`);
  if (q.model) where.push(`s.model = ${sql.v(q.model)}`);
  if (q.agent) where.push(`s.agent = ${sql.v(q.agent)}`);
  if (q.savedAgent)
    where.push(
      `s.conversation_id IN (SELECT id FROM conversations WHERE owner_id = ${sql.v(owner.ownerId)}
                              AND (settings_json::jsonb ->> 'agentId') = ${sql.v(q.savedAgent)})`,
    );
  if (q.from) where.push(`s.started_at >= ${sql.v(dayStart(q.from))}::bigint`);
  if (q.to) where.push(`s.started_at < ${sql.v(dayStart(q.to) + DAY_MS)}::bigint`);
  if (q.tool) {
    const failed = q.failedToolsOnly ? ' AND NOT ok' : '';
    where.push(`s.id IN (SELECT summary_id FROM run_tool_calls WHERE name = ${sql.v(q.tool)}${failed})`);
  } else if (q.failedToolsOnly) where.push('s.failed_tool_calls > 0');
  const words = searchWords(q.text);
  if (words.length) {
    const each = words.map((w) => `body ILIKE ${sql.v(`%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`);
    where.push(`s.id IN (SELECT summary_id FROM run_text WHERE ${each.join(' AND ')})`);
  }
  return where.join(' AND ');
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
