// Raw-stream recording against the scripted model server over HTTP: the provider's SSE chunks as received, kept in
// the run log and the export, per conversation or for all (RECORD_RAW_STREAM=1); off by default.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { everyToolActor } from '../../lib/chat/actor';
import { loadRunExport } from '../../lib/inspect/load';
import { markRawStream } from '../../lib/inspect/raw-stream';
import type { AgentEvent } from '../../lib/protocol/events';
import { ownerScope } from '../../lib/store/owner';
import { openSqliteStore } from '../../lib/store';
import type { ChatStore } from '../../lib/store/types';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { chatContext, drain, follow } from '../support/chat';

let dir: string;
let server: ModelServer;
let store: ChatStore;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'raw-stream-'));
  server = await createModelServer();
  store = await openSqliteStore(path.join(dir, 'chat.db'));
});
afterAll(async () => {
  await store.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => server.reset());

const OWNER = ownerScope('owner-a');

async function chat(env: Record<string, string> = {}) {
  const ctx = await chatContext(store, undefined as never, {
    DATA_DIR: dir,
    OPENAI_BASE_URL: server.url,
    OPENAI_API_KEY: 'k',
    OPENAI_MODEL: 'scripted',
    LLM_MAX_RETRIES: '0',
    ...env,
  });
  return ctx.chat;
}

async function llmEnds(service: Awaited<ReturnType<typeof chat>>, settings?: { recordRawStream?: boolean }) {
  server.setScenario({
    replies: [
      { toolCalls: [{ id: 'c1', name: 'calculator', arguments: '{"expression":"6*7"}' }] },
      { content: 'The answer is forty-two.', chunkSize: 4 },
    ],
  });
  const started = await service.send(everyToolActor(OWNER), { message: 'What is 6*7?', settings });
  await drain(follow(service, OWNER, started.runId));
  const events = await store.getRunEvents(OWNER, started.runId);
  return {
    runId: started.runId,
    ends: events.filter((e): e is Extract<AgentEvent, { type: 'llm-end' }> => e.type === 'llm-end'),
  };
}

describe('raw stream recording', () => {
  it('keeps each call’s SSE chunks in order, with the tool-call delta and the finish reason marked, in the log and the export', async () => {
    const { runId, ends } = await llmEnds(await chat(), { recordRawStream: true });
    expect(ends).toHaveLength(2);
    const [first, second] = ends.map((e) => e.rawStream!);
    for (const s of [first!, second!]) {
      const times = s.chunks.map((c) => c.t);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(s.chunks.at(-1)!.data).toBe('[DONE]');
      expect(s.dropped).toBe(0);
      expect(s.bytes).toBe(s.chunks.reduce((n, c) => n + Buffer.byteLength(c.data), 0));
    }
    const marked = markRawStream(second!);
    // The answer, reassembled from the raw payloads, in the order they came.
    const text = marked
      .filter((c) => !c.marks.includes('done'))
      .map(
        (c) => (JSON.parse(c.data) as { choices: { delta?: { content?: string } }[] }).choices[0]?.delta?.content ?? '',
      )
      .join('');
    expect(text).toBe('The answer is forty-two.');
    expect(marked.filter((c) => c.marks.includes('finish')).map((c) => c.finishReason)).toEqual(['stop']);
    expect(marked.findIndex((c) => c.marks.includes('first-token'))).toBeLessThan(
      marked.findIndex((c) => c.marks.includes('finish')),
    );
    expect(markRawStream(first!).some((c) => c.marks.includes('tool-call'))).toBe(true);
    expect(markRawStream(first!).find((c) => c.marks.includes('finish'))?.finishReason).toBe('tool_calls');

    const exported = await loadRunExport(store, OWNER, runId);
    const exportedEnds = exported.events.filter((e) => e.type === 'llm-end');
    expect(exportedEnds.map((e) => (e.type === 'llm-end' ? e.rawStream : undefined))).toEqual([first, second]);
  });

  it('is off by default, and on for every conversation with RECORD_RAW_STREAM=1', async () => {
    const off = await llmEnds(await chat());
    expect(off.ends.map((e) => e.rawStream)).toEqual([undefined, undefined]);
    const all = await llmEnds(await chat({ RECORD_RAW_STREAM: '1' }));
    expect(all.ends.every((e) => (e.rawStream?.chunks.length ?? 0) > 2)).toBe(true);
  });
});
