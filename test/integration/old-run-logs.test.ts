// Run logs written before the events carried their final facts (the agent's kind, the arguments a call ran with,
// ReAct parts) still load and show the same. The logs are the rows the SQLite store of commit fb396ce wrote
// (test/fixtures/run-logs), put into a database as that store left them and read back through today's store.
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { foldEvents } from '../../lib/agent/fold';
import { storedFeed } from '../../lib/chat/feed';
import { foldRun, markInterrupted, type RunView } from '../../lib/chat/view';
import { digestRun } from '../../lib/compare/runs';
import { foldInspection } from '../../lib/inspect/fold';
import { AgentEventSchema } from '../../lib/protocol/events';
import { openSqliteStore } from '../../lib/store';
import { ownerScope } from '../../lib/store/owner';

const OWNER = ownerScope('owner-a');

interface OldRun {
  name: string;
  runId: string;
  status: string;
  rows: string[];
  view: RunView & { agentType?: string };
  messages: unknown;
  inspection: Record<string, unknown>;
  digest: Record<string, unknown> & { prompts: [number, string][] };
}

const fixture = JSON.parse(
  readFileSync(path.join(__dirname, '../fixtures/run-logs/written-by-fb396ce.json'), 'utf8'),
) as { runs: OldRun[] };

/** What a person sees of a run view: block ids, the kind field and ReAct thoughts' timestamps are not shown; the
 *  model and connection under a turn came later (checked against run-start below), and so did the call format (for
 *  the tool-call-mode hint) and the retry in progress. */
function shown(view: RunView, react: boolean): unknown {
  const {
    kind: _kind,
    agentType: _agentType,
    model: _model,
    connection: _connection,
    callFormat: _callFormat,
    retrying: _retrying,
    ...rest
  } = view as RunView & { agentType?: string };
  return {
    ...rest,
    blocks: view.blocks.map((b) => {
      const { id: _id, afterTools: _afterTools, ...block } = b as typeof b & { afterTools?: number };
      if (react && block.kind === 'reasoning') return { ...block, startT: 0, endT: 0 };
      if (react && block.kind === 'tool') return { ...block, iteration: 0, functionId: '' };
      // Which model call wrote a text block came later (the inspector's link from the answer); not shown as text.
      if (block.kind === 'text') {
        const { iteration: _iteration, ...text } = block as typeof block & { iteration?: number };
        return text;
      }
      return block;
    }),
  };
}

async function storedAsMainLeftIt(run: OldRun) {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'old-logs-')), 'agent-studio.db');
  const store = await openSqliteStore(file);
  const conversation = await store.createConversation(OWNER);
  await store.addTurnWithRun(OWNER, conversation.id, 'q', run.runId);
  const db = new Database(file);
  const insert = db.prepare('INSERT INTO run_events (run_id, seq, type, json) VALUES (?, ?, ?, ?)');
  run.rows.forEach((json, seq) => insert.run(run.runId, seq, (JSON.parse(json) as { type: string }).type, json));
  db.close();
  return { store, conversationId: conversation.id };
}

describe('run logs written by an older version', () => {
  it.each(fixture.runs.map((r) => [r.name, r] as const))('%s: loads valid and shows the same', async (_, run) => {
    const { store, conversationId } = await storedAsMainLeftIt(run);
    try {
      const events = await store.getRunEvents(OWNER, run.runId);
      for (const e of events) AgentEventSchema.parse(e);
      const [record] = await store.listTurns(OWNER, conversationId);
      expect(record!.events).toEqual(events);

      const react = run.name === 'react';
      const view = foldRun(run.runId, storedFeed(events));
      if (run.status === 'interrupted') markInterrupted(view);
      expect(shown(view, react)).toEqual(shown(run.view, react));
      expect(view.kind).toBe(run.view.agentType === 'ReActChat' ? 'react' : view.kind);
      const start = events.find((e) => e.type === 'run-start');
      expect(view.model).toBe(start?.type === 'run-start' ? start.model : undefined);

      expect(foldEvents(events)).toEqual(run.messages);

      const inspected = foldInspection(events);
      // Costs came later: a run from before has no prices, so it reads as "no price", never as a cost of 0.
      expect(inspected.cost).toEqual({ state: 'no-price' });
      expect(inspected.iterations.every((it) => it.cost.state === 'no-price' && !it.context)).toBe(true);
      const {
        kind,
        cost: _cost,
        ...inspection
      } = {
        ...inspected,
        iterations: inspected.iterations.map(({ cost: _c, ...it }) => ({ ...it, request: undefined })),
        input: undefined,
      };
      const { agentType, ...oldInspection } = run.inspection;
      // The stop's explanation is the page's wording, reworded since (#34); the reason is the run's fact.
      const reasonOnly = (i: Record<string, unknown>) => ({
        ...i,
        stop: { reason: (i.stop as { reason: string }).reason },
      });
      expect(reasonOnly(JSON.parse(JSON.stringify(inspection)))).toEqual(reasonOnly(oldInspection));
      expect(kind).toBe({ FnCallAgent: 'fncall', ReActChat: 'react', Assistant: 'assistant' }[agentType as string]);

      const digest = digestRun(run.runId, events);
      expect({ ...digest, prompts: [...digest.prompts.entries()] }).toEqual(run.digest);
    } finally {
      await store.close();
    }
  });
});
