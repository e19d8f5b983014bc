// The store suite's part for the Runs page's queries (called from describeChatStore in store-suite.ts, so every
// store answers them alike): each filter, the search words wherever they are (user message, answer, tool arguments,
// tool results; substrings, case aside, Chinese included, short words too), the figures and the facets, and
// another owner's runs never in any of them.
import { beforeEach, describe, expect, it } from 'vitest';
import type { AgentKind } from '../../lib/protocol/enums';
import type { AgentEvent, Pricing } from '../../lib/protocol/events';
import { LOCAL_OWNER_ID, ownerScope, type OwnerScope } from '../../lib/store/owner';
import type { RunOutcome } from '../../lib/protocol/enums';
import type { RunQuery } from '../../lib/store/run-query';
import type { ChatStore } from '../../lib/store/types';

const A = ownerScope('user-a');
const B = ownerScope('user-b');
const TODAY = new Date().toISOString().slice(0, 10);
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

interface Call {
  name: string;
  args: string;
  ok: boolean;
  result: string;
  ms: number;
  /** The run was stopped while the call ran: not a failed call. */
  stopped?: true;
}

interface RunSpec {
  id: string;
  title: string;
  message: string;
  answer: string;
  model: string;
  kind: AgentKind;
  outcome: RunOutcome;
  calls?: Call[];
  /** Per model call: prompt, completion tokens and the time to first token (null: not reported). */
  llm: [number, number, number | null][];
  /** The prices its run-start keeps (absent: none set for its model). */
  pricing?: Pricing;
  /** The saved agent its conversation talks to. */
  agentId?: string;
}

async function record(store: ChatStore, owner: OwnerScope, r: RunSpec): Promise<void> {
  const conversation = await store.createConversation(owner, {
    title: r.title,
    ...(r.agentId ? { settings: { agentId: r.agentId } } : {}),
  });
  await store.addTurnWithRun(owner, conversation.id, r.message, r.id);
  const base = { runId: r.id, iteration: 1, t: 1 };
  const events: AgentEvent[] = [
    {
      ...base,
      iteration: 0,
      type: 'run-start',
      agent: 'Helper',
      kind: r.kind,
      model: r.model,
      lang: 'en',
      maxLlmCalls: 8,
      tools: (r.calls ?? []).map((c) => c.name),
      ...(r.pricing ? { pricing: r.pricing } : {}),
    },
  ];
  r.llm.forEach(([promptTokens, completionTokens, ttft], i) => {
    events.push({
      ...base,
      iteration: i + 1,
      type: 'llm-end',
      finishReason: 'stop',
      usage: { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens },
      ...(ttft === null ? {} : { ttftMs: ttft }),
      durationMs: 40,
    });
  });
  (r.calls ?? []).forEach((c, i) => {
    const functionId = `f${i}`;
    events.push({ ...base, type: 'tool-call', functionId, name: c.name, arguments: c.args });
    events.push({
      ...base,
      type: 'tool-result',
      functionId,
      name: c.name,
      arguments: c.args,
      ok: c.ok,
      content: c.result,
      durationMs: c.ms,
      ...(c.stopped && { error: { kind: 'stopped' as const, type: 'Stopped', message: 'Stopped while running.' } }),
    });
  });
  events.push({ ...base, type: 'text-delta', text: r.answer.slice(0, 4) });
  events.push({ ...base, type: 'text-delta', text: r.answer.slice(4) });
  await store.appendEvents(owner, r.id, events);
  await store.finishRun(owner, r.id, r.outcome);
}

const RUNS: RunSpec[] = [
  {
    id: 'tides',
    title: 'Tides',
    message: 'When is high tide in Brest?',
    answer: 'High tide is at noon.',
    model: 'model-a',
    kind: 'fncall',
    outcome: 'answered',
    calls: [{ name: 'calculator', args: '{"expression":"12+0.5"}', ok: true, result: 'result 12.5', ms: 30 }],
    llm: [
      [10, 5, 100],
      [12, 6, 200],
    ],
    pricing: { inputPerMTok: 2, outputPerMTok: 8 },
  },
  {
    id: 'broken',
    title: 'Broken sums',
    message: 'Divide one by nothing',
    answer: 'Sorry, that failed.',
    model: 'model-b',
    kind: 'react',
    outcome: 'error',
    calls: [
      { name: 'calculator', args: '{"expression":"1/"}', ok: false, result: 'SyntaxError: xyzzy', ms: 10 },
      { name: 'current_time', args: '{}', ok: true, result: '2026-12-01T12:00:00Z', ms: 2 },
    ],
    llm: [[7, 3, 50]],
    pricing: { inputPerMTok: 0, outputPerMTok: 0 },
  },
  {
    id: 'greeting',
    title: 'Greeting',
    message: '用中文打个招呼',
    answer: 'Bonjour, 你好世界!',
    model: 'model-a',
    kind: 'assistant',
    outcome: 'aborted',
    calls: [{ name: 'current_time', args: '{}', ok: false, result: 'The run was stopped.', ms: 5, stopped: true }],
    llm: [[4, 4, null]],
  },
];

/** B's run: it holds every word and every name A searches by, and must never be in A's answers. */
const SECRET: RunSpec = {
  id: 'secret',
  title: 'Secret tides',
  message: 'high tide 你好 xyzzy',
  answer: 'noon',
  model: 'model-a',
  kind: 'fncall',
  outcome: 'answered',
  calls: [{ name: 'calculator', args: '{"expression":"1/"}', ok: false, result: 'xyzzy secret_result', ms: 99 }],
  llm: [[1000, 1000, 1]],
};

export function describeRunSearch(open: () => Promise<ChatStore>): void {
  describe('runs search', () => {
    let store: ChatStore;
    beforeEach(async () => {
      store = await open();
      await record(store, B, SECRET);
      for (const r of RUNS) await record(store, A, r);
    });
    const ids = async (q: RunQuery, owner = A) => (await store.searchRuns(owner, q)).rows.map((r) => r.runId);

    it('lists the owner’s finished runs newest first, each with its figures', async () => {
      const page = await store.searchRuns(A, {});
      expect(page).toMatchObject({ total: 3, page: 1, pageCount: 1, hasOlder: false });
      expect(page.moreThanTotal).toBeUndefined();
      expect(page.rows.map((r) => r.runId)).toEqual(['greeting', 'broken', 'tides']);
      expect(page.rows[2]).toMatchObject({
        conversationTitle: 'Tides',
        agent: 'fncall',
        model: 'model-a',
        outcome: 'answered',
        llmCalls: 2,
        toolCalls: 1,
        failedToolCalls: 0,
        promptTokens: 22,
        completionTokens: 11,
      });
      expect(page.rows[1]).toMatchObject({ outcome: 'error', toolCalls: 2, failedToolCalls: 1 });
      // A call the run was stopped during is a call, not a failure.
      expect(page.rows[0]).toMatchObject({ outcome: 'aborted', toolCalls: 1, failedToolCalls: 0 });
      // At the prices each run started with: 22 in × 2 + 11 out × 8 per million; free is 0; no price is no cost.
      expect(page.rows.map((r) => r.cost)).toEqual([undefined, 0, (22 * 2 + 11 * 8) / 1e6]);
      expect(page.rows[0]).not.toHaveProperty('cost');
      expect(await ids({}, B)).toEqual(['secret']);
      expect(await ids({ page: 9 })).toEqual(['greeting', 'broken', 'tides']); // past the last page: the last
    });

    it('filters by outcome, tool, failed tool calls, model, agent and day', async () => {
      expect(await ids({ outcome: 'error' })).toEqual(['broken']);
      expect(await ids({ outcome: 'interrupted' })).toEqual([]);
      expect(await ids({ tool: 'calculator' })).toEqual(['broken', 'tides']);
      expect(await ids({ tool: 'calculator', failedToolsOnly: true })).toEqual(['broken']);
      expect(await ids({ tool: 'current_time', failedToolsOnly: true })).toEqual([]);
      expect(await ids({ failedToolsOnly: true })).toEqual(['broken']);
      expect(await ids({ model: 'model-a' })).toEqual(['greeting', 'tides']);
      expect(await ids({ agent: 'react' })).toEqual(['broken']);
      expect(await ids({ from: TODAY, to: TODAY })).toEqual(['greeting', 'broken', 'tides']);
      expect(await ids({ from: day(1) })).toEqual([]);
      expect(await ids({ to: day(-1) })).toEqual([]);
      expect(await ids({ model: 'model-a', tool: 'calculator', outcome: 'answered' })).toEqual(['tides']);
      expect(await ids({ tool: 'secret_tool' })).toEqual([]);
    });

    it('finds every word of a search in the user message, the answer, tool arguments or tool results', async () => {
      expect(await ids({ text: 'brest' })).toEqual(['tides']); // the user message
      expect(await ids({ text: 'NOON' })).toEqual(['tides']); // the answer, case aside
      expect(await ids({ text: '12+0.5' })).toEqual(['tides']); // tool arguments
      expect(await ids({ text: 'xyzzy' })).toEqual(['broken']); // a tool result
      expect(await ids({ text: 'high noon' })).toEqual(['tides']); // every word, wherever each is
      expect(await ids({ text: 'high xyzzy' })).toEqual([]);
      expect(await ids({ text: 'oon' })).toEqual(['tides']); // a substring
      expect(await ids({ text: 'ide' })).toEqual(['broken', 'tides']); // "divide", "tide"
      expect(await ids({ text: '你好' })).toEqual(['greeting']); // two characters: no trigram
      expect(await ids({ text: '你好世界' })).toEqual(['greeting']);
      expect(await ids({ text: 'AT' })).toEqual(['broken', 'tides']); // "that", "at": short, case aside
      expect(await ids({ text: '"noon"' })).toEqual(['tides']); // quotes are no part of a word
      expect(await ids({ text: 'y_' })).toEqual([]); // short, and still no pattern
      expect(await ids({ text: '%' })).toEqual([]); // plain characters, not patterns
      expect(await ids({ text: 'y_z' })).toEqual([]); // "yzz" is in xyzzy
      expect(await ids({ text: 'secret_result' })).toEqual([]);
      expect(await ids({ text: 'failed', outcome: 'error', tool: 'calculator' })).toEqual(['broken']);
      expect(await ids({ text: 'xyzzy' }, B)).toEqual(['secret']);
    });

    it('gives the figures: calls, failures and percentiles per tool, tokens and time to first token per model, runs per day', async () => {
      const figures = await store.runFigures(A, {});
      expect(figures).toEqual({
        runs: 3,
        newestOnly: false,
        tools: [
          { name: 'calculator', calls: 2, failed: 1, p50Ms: 10, p95Ms: 30 },
          { name: 'current_time', calls: 2, failed: 0, p50Ms: 2, p95Ms: 5 }, // one of them stopped: not failed
        ],
        models: [
          { model: 'model-a', calls: 3, promptTokens: 26, completionTokens: 15, ttftP50Ms: 100, ttftP95Ms: 200 },
          { model: 'model-b', calls: 1, promptTokens: 7, completionTokens: 3, ttftP50Ms: 50, ttftP95Ms: 50 },
        ],
        days: [{ day: TODAY, runs: 3 }],
      });
      expect(await store.runFigures(A, { model: 'model-a', text: '你好' })).toEqual({
        runs: 1,
        newestOnly: false,
        tools: [{ name: 'current_time', calls: 1, failed: 0, p50Ms: 5, p95Ms: 5 }],
        models: [{ model: 'model-a', calls: 1, promptTokens: 4, completionTokens: 4 }],
        days: [{ day: TODAY, runs: 1 }],
      });
      expect(await store.runFigures(A, { from: day(1) })).toEqual({
        runs: 0,
        newestOnly: false,
        tools: [],
        models: [],
        days: [],
      });
    });

    it('counts a Router’s helper runs in its figures: model calls at their own model and prices, tokens, tool calls', async () => {
      const R = ownerScope('user-router');
      const conversation = await store.createConversation(R, { title: 'Routed' });
      await store.addTurnWithRun(R, conversation.id, 'Ask the helper to add', 'routed');
      const own = { runId: 'routed', iteration: 1, t: 1 };
      const helper = { runId: 'helper-run', iteration: 1, t: 2 };
      const child = (event: AgentEvent): AgentEvent => ({ ...own, type: 'child', agent: 'adder', event });
      const usage = (promptTokens: number, completionTokens: number) => ({
        promptTokens,
        completionTokens,
        totalTokens: promptTokens + completionTokens,
      });
      const start = (runId: string, model: string, kind: AgentKind, pricing: Pricing): AgentEvent => ({
        runId,
        iteration: 0,
        t: 0,
        type: 'run-start',
        agent: model,
        kind,
        model,
        lang: 'en',
        maxLlmCalls: 8,
        tools: [],
        pricing,
      });
      await store.appendEvents(R, 'routed', [
        start('routed', 'router-model', 'router', { inputPerMTok: 1, outputPerMTok: 1 }),
        { ...own, type: 'llm-end', finishReason: 'stop', usage: usage(10, 2), durationMs: 5 },
        child(start('helper-run', 'helper-model', 'fncall', { inputPerMTok: 4, outputPerMTok: 4 })),
        child({ ...helper, type: 'llm-end', finishReason: 'tool_calls', usage: usage(100, 50), durationMs: 5 }),
        child({
          ...helper,
          type: 'tool-call',
          functionId: 'h1',
          name: 'calculator',
          arguments: '{"expression":"2+2"}',
        }),
        child({
          ...helper,
          type: 'tool-result',
          functionId: 'h1',
          name: 'calculator',
          arguments: '{"expression":"2+2"}',
          ok: true,
          content: 'helper result quokka',
          durationMs: 3,
        }),
        { ...own, type: 'text-delta', text: 'It is 4.' },
      ]);
      await store.finishRun(R, 'routed', 'answered');

      const [row] = (await store.searchRuns(R, {})).rows;
      expect(row).toMatchObject({
        agent: 'router',
        model: 'router-model',
        llmCalls: 2,
        toolCalls: 1,
        promptTokens: 110,
        completionTokens: 52,
      });
      expect(row?.cost).toBeCloseTo((10 * 1 + 2 * 1 + 100 * 4 + 50 * 4) / 1e6, 12);
      expect((await store.runFigures(R, {})).models).toEqual([
        { model: 'helper-model', calls: 1, promptTokens: 100, completionTokens: 50 },
        { model: 'router-model', calls: 1, promptTokens: 10, completionTokens: 2 },
      ]);
      expect((await store.runFigures(R, {})).tools).toMatchObject([{ name: 'calculator', calls: 1, failed: 0 }]);
      expect((await store.searchRuns(R, { tool: 'calculator' })).rows.map((r) => r.runId)).toEqual(['routed']);
      expect((await store.searchRuns(R, { text: 'quokka' })).rows.map((r) => r.runId)).toEqual(['routed']);
    });

    it('counts a model call a stop cut before its end (it was made), without tokens', async () => {
      const C = ownerScope('user-cut');
      const conversation = await store.createConversation(C, { title: 'Cut' });
      await store.addTurnWithRun(C, conversation.id, 'Tell me slowly about ibises', 'cut-run');
      const at = { runId: 'cut-run', iteration: 1 };
      await store.appendEvents(C, 'cut-run', [
        {
          ...at,
          iteration: 0,
          t: 0,
          type: 'run-start',
          agent: 'a',
          kind: 'fncall',
          model: 'slow-model',
          lang: 'en',
          maxLlmCalls: 8,
          tools: [],
        },
        { ...at, t: 1, type: 'llm-start', format: 'native' },
        { ...at, t: 50, type: 'text-delta', text: 'Ibises probe ' },
      ]);
      await store.finishRun(C, 'cut-run', 'aborted');
      // Before: 0 model calls on Runs, while the inspector and the run's end said 1.
      const [row] = (await store.searchRuns(C, {})).rows;
      expect(row).toMatchObject({ outcome: 'aborted', llmCalls: 1, promptTokens: 0, completionTokens: 0 });
      expect((await store.runFigures(C, {})).models).toEqual([
        { model: 'slow-model', calls: 1, promptTokens: 0, completionTokens: 0 },
      ]);
    });

    it('offers as filters only the tools, models and agents of the owner’s runs', async () => {
      expect(await store.runFacets(A)).toEqual({
        tools: ['calculator', 'current_time'],
        models: ['model-a', 'model-b'],
        agents: ['assistant', 'fncall', 'react'],
        savedAgents: [],
      });
      expect(await store.runFacets(ownerScope('user-c'))).toEqual({
        tools: [],
        models: [],
        agents: [],
        savedAgents: [],
      });
    });

    it('shows and filters by the saved agent of a run’s conversation, by its name now; never another owner’s', async () => {
      const definition = (name: string) => ({
        name,
        description: '',
        avatar: '🤖',
        kind: 'fncall' as const,
        systemMessage: '',
        tools: [],
        generateCfg: {},
        suggestions: [],
        members: [],
      });
      const helper = await store.createAgent(A, definition('Tide helper'));
      const theirs = await store.createAgent(B, definition('Not yours'));
      await record(store, A, { ...RUNS[0]!, id: 'with-agent', title: 'Asked the helper', agentId: helper.id });
      await record(store, B, { ...SECRET, id: 'b-agent', agentId: theirs.id });
      const page = await store.searchRuns(A, { savedAgent: helper.id });
      expect(page.rows.map((r) => [r.runId, r.savedAgent])).toEqual([
        ['with-agent', { id: helper.id, name: 'Tide helper' }],
      ]);
      expect(page.total).toBe(1);
      expect((await store.searchRuns(A, {})).rows.find((r) => r.runId === 'tides')?.savedAgent).toBeUndefined();
      expect(await ids({ savedAgent: helper.id, outcome: 'error' })).toEqual([]);
      expect(await ids({ savedAgent: theirs.id })).toEqual([]);
      expect(await ids({ savedAgent: helper.id }, B)).toEqual([]);
      await store.updateAgent(A, helper.id, definition('Harbour helper'));
      expect((await store.searchRuns(A, { savedAgent: helper.id })).rows[0]?.savedAgent?.name).toBe('Harbour helper');
      expect((await store.runFacets(A)).savedAgents).toEqual([{ id: helper.id, name: 'Harbour helper' }]);
      expect((await store.runFacets(B)).savedAgents).toEqual([{ id: theirs.id, name: 'Not yours' }]);
    });

    it('gives the first admin the local owner’s runs, in the list, the search and the facets', async () => {
      const local = ownerScope(LOCAL_OWNER_ID);
      await record(store, local, { ...RUNS[0]!, id: 'before-accounts', title: 'Before accounts' });
      expect(await ids({}, local)).toEqual(['before-accounts']);
      await store.adoptLocalData(B);
      expect(await ids({}, local)).toEqual([]);
      expect(await ids({}, B)).toEqual(['before-accounts', 'secret']);
      expect(await ids({ text: 'brest' }, B)).toEqual(['before-accounts']);
      expect((await store.runFacets(B)).agents).toEqual(['fncall']);
    });
  });
}
