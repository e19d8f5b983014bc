// "Save as fixture" end to end: a real run against the scripted model server (over HTTP, into a real SQLite file) is
// saved as a fixture file; a fresh model server loads that file, the same conversation runs again against it, and
// the agent makes the same tool calls and gives the same answer. Also checks the inspector's load and fold of the
// stored run (the request of iteration 2 holds the tool result of iteration 1).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FnCallAgent, type AgentEvent } from '../../lib/agent';
import type { ChatService } from '../../lib/chat/service';
import { foldInspection, parseRunExport, runToFixture } from '../../lib/inspect';
import type { RunFixture, Scenario } from '../../lib/protocol/fixture';
import { loadRunExport, loadRunRequest } from '../../lib/inspect/load';
import { openSqliteStore } from '../../lib/store';
import type { ChatStore, ConversationSettings } from '../../lib/store/types';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { ofType } from '../support/run';
import { createChatModel } from '../../lib/llm';
import { chatContext, follow } from '../support/chat';
import { ownerScope } from '../../lib/store/owner';
import { everyToolActor } from '../../lib/chat/actor';

const OWNER = ownerScope('owner-a');
const ACTOR = everyToolActor(OWNER);

const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function stack(scenario: Scenario): Promise<{ server: ModelServer; store: ChatStore; service: ChatService }> {
  const server = await createModelServer({ scenario });
  const store = await openSqliteStore(path.join(mkdtempSync(path.join(tmpdir(), 'run-fixture-')), 'chat.db'));
  open.push(server, store);
  const service = (
    await chatContext(
      store,
      (s: ConversationSettings) =>
        new FnCallAgent({
          llm: createChatModel({
            model: 'scripted',
            baseURL: server.url,
            apiKey: 'k',
            fncallMode: s.fncallMode,
            generateCfg: { max_retries: 1, ...s.generateCfg },
          }),
          functionList: s.tools,
          name: 'assistant',
        }),
    )
  ).chat;
  return { server, store, service };
}

async function runOnce(
  service: ChatService,
  store: ChatStore,
  message: string,
  fncallMode: ConversationSettings['fncallMode'],
) {
  const started = await service.send(ACTOR, { message, settings: { tools: ['calculator'], fncallMode } });
  for await (const _ of follow(service, OWNER, started.runId)) {
    // drain
  }
  return { runId: started.runId, events: await store.getRunEvents(OWNER, started.runId) };
}

const calls = (events: AgentEvent[]) => ofType(events, 'tool-call').map((c) => [c.iteration, c.name, c.arguments]);
const results = (events: AgentEvent[]) => ofType(events, 'tool-result').map((r) => [r.name, r.ok, r.content]);
const answer = (events: AgentEvent[]) =>
  ofType(events, 'text-delta')
    .filter((d) => d.iteration === ofType(events, 'llm-end').length)
    .map((d) => d.text)
    .join('');

const SCENARIOS: { mode: ConversationSettings['fncallMode']; scenario: Scenario }[] = [
  {
    mode: 'native',
    scenario: {
      replies: [
        { fault: { kind: 'status', status: 503 } },
        { reasoning: 'Multiply first.', toolCalls: [{ name: 'calculator', arguments: '{"expression": "6*7"}' }] },
        { toolCalls: [{ name: 'calculator', arguments: '{"expression": "42+1"}' }] },
        { content: 'Six times seven is 42, plus one is 43.' },
      ],
    },
  },
  {
    mode: 'nous',
    scenario: {
      replies: [
        {
          content:
            '<think>I need the calculator.</think>Let me compute.\n<tool_call>\n{"name": "calculator", "arguments": {"expression": "6*7"}}\n</tool_call>',
        },
        { content: 'Six times seven is 42.' },
      ],
    },
  },
];

describe('Save as fixture', () => {
  for (const { mode, scenario } of SCENARIOS) {
    it(`replays a ${mode} tool run from its fixture with the same tool calls and answer`, async () => {
      const first = await stack(scenario);
      const original = await runOnce(first.service, first.store, 'What is six times seven?', mode);
      expect(ofType(original.events, 'run-end')[0]?.reason).toBe('answered');
      expect(calls(original.events).length).toBeGreaterThan(0);

      const file = path.join(mkdtempSync(path.join(tmpdir(), 'fixture-')), 'fixture.json');
      writeFileSync(file, JSON.stringify(runToFixture(original.events), null, 2));

      const fixture = JSON.parse(readFileSync(file, 'utf8')) as RunFixture;
      expect(fixture.userMessages).toEqual(['What is six times seven?']);
      const second = await stack(fixture);
      const replay = await runOnce(second.service, second.store, fixture.userMessages.at(-1)!, mode);

      expect(calls(replay.events)).toEqual(calls(original.events));
      expect(results(replay.events)).toEqual(results(original.events));
      expect(answer(replay.events)).toBe(answer(original.events));
      expect(answer(replay.events)).toMatch(/^Six times seven is 42/);
      expect(ofType(replay.events, 'llm-retry').length).toBe(ofType(original.events, 'llm-retry').length);
      expect(second.server.requests.length).toBe(first.server.requests.length);
      // Every reply of the fixture was used, and no more.
      expect(second.server.requests.length).toBe(fixture.replies.length);
    });
  }

  it('loads a stored run in full for the async inspector: the request of iteration 2 holds the tool result of iteration 1', async () => {
    const { store, service } = await stack(SCENARIOS[0]!.scenario);
    const { runId } = await runOnce(service, store, 'What is six times seven?', 'native');
    const bundle = await loadRunExport(store, OWNER, runId);
    expect(bundle.run).toMatchObject({
      id: runId,
      status: 'answered',
      userMessage: 'What is six times seven?',
      conversationTitle: 'What is six times seven?',
    });
    const back = await parseRunExport(JSON.stringify(bundle));
    expect(back.ok).toBe(true);

    const run = foldInspection(back.ok ? back.value.events : []);
    expect(run.iterations).toHaveLength(3);
    expect(run.iterations[0]!.retries).toHaveLength(1);
    expect(run.iterations[0]!.response.separateReasoning).toBe('Multiply first.');
    expect(run.iterations[0]!.tools[0]).toMatchObject({ name: 'calculator', ok: true, content: '42' });
    const sent = run.iterations[1]!.request!.messages;
    expect(sent.find((m) => m.role === 'tool')).toMatchObject({ content: '42' });
    expect(run.iterations[1]!.request!.tools?.length).toBe(1);
    expect(run.stop.reason).toBe('answered');
    await expect(loadRunExport(store, OWNER, 'no-such-run')).rejects.toThrow('Run no-such-run was not found');

    // The inspector opens a run without its requests and fetches the one it shows.
    const light = await loadRunExport(store, OWNER, runId, { requests: false });
    expect(light.events.some((e) => e.type === 'llm-start' && e.request)).toBe(false);
    expect(foldInspection(light.events).iterations.map((i) => i.response)).toEqual(
      run.iterations.map((i) => i.response),
    );
    expect(JSON.stringify(light).length).toBeLessThan(JSON.stringify(bundle).length);
    expect(await loadRunRequest(store, OWNER, runId, 2)).toEqual(run.iterations[1]!.request);
    expect(await loadRunRequest(store, OWNER, runId, 9)).toBeUndefined();
  });
});
