// Router and GroupChat end to end over real HTTP to the scripted model server: routing by the model's `Call:`,
// each speaker selection, `@Name`, `[STOP]`, max_round, and the nested events folded into messages and the view.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AgentEventSchema,
  FnCallAgent,
  GroupChat,
  Router,
  type AgentEvent,
  type GroupChatOptions,
  type Message,
} from '../../lib/agent';
import { createChatModel } from '../../lib/llm';
import { foldRun, answerText, type AgentBlock } from '../../lib/chat/view';
import { feedEvent } from '../../lib/chat/feed';
import { foldInspection } from '../../lib/inspect/fold';
import type { FeedEvent } from '../../lib/protocol/events';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { collectEvents, ofType } from '../support/run';
import { GetWeather } from '../support/tools';

let server: ModelServer;
beforeAll(async () => {
  server = await createModelServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const llm = () =>
  createChatModel({ model: 'scripted', baseURL: server.url, apiKey: 'k', generateCfg: { retry_base_delay_ms: 10 } });
const helper = (name: string, description = '') =>
  new FnCallAgent({ llm: llm(), name, description, functionList: [new GetWeather()] });

/** The system text and last user text of each model request, in order. */
function asked(): { system: string; last: string; stop?: string[] }[] {
  return server.requests.map((r) => {
    const msgs = r.body.messages as { role: string; content: unknown }[];
    const text = (c: unknown) =>
      typeof c === 'string' ? c : (c as { text?: string }[]).map((p) => p.text ?? '').join('');
    return {
      system: msgs[0]?.role === 'system' ? text(msgs[0].content) : '',
      last: text(msgs[msgs.length - 1]!.content),
      stop: r.body.stop,
    };
  });
}

function view(events: AgentEvent[]) {
  const feed = events.map(feedEvent).filter((e): e is FeedEvent => e !== undefined);
  return foldRun(events[0]!.runId, feed);
}

describe('Router', () => {
  const router = () =>
    new Router({
      llm: llm(),
      name: 'desk',
      agents: [helper('weather', 'answers questions about the weather'), helper('poet', 'writes poems')],
    });

  it('hands the turn to the helper its model calls; the helper answers the whole conversation, named', async () => {
    server.setScenario({
      replies: [{ content: 'Call: poet\nReply: a poem' }, { content: 'Roses are red.' }],
    });
    const events = await collectEvents(router().runEvents([{ role: 'user', content: 'A poem please' }]));
    for (const e of events) expect(() => AgentEventSchema.parse(e)).not.toThrow();
    const [routerCall, poetCall] = asked();
    expect(routerCall!.system).toContain('poet: writes poems');
    expect(routerCall!.stop).toEqual(expect.arrayContaining(['Reply:']));
    expect(poetCall!.system).not.toContain('Call:'); // the helper sees the conversation, not the router's prompt
    expect(poetCall!.last).toBe('A poem please');
    // The router's own text shows nothing of the Call:; the helper's answer comes as a child run.
    expect(ofType(events, 'text-delta')).toEqual([]);
    expect(ofType(events, 'handoff')).toMatchObject([{ to: 'poet', reason: 'call', round: 1 }]);
    const children = ofType(events, 'child');
    expect(new Set(children.map((c) => c.agent))).toEqual(new Set(['poet']));
    expect(children[0]!.event.type).toBe('run-start');
    expect(children.at(-1)!.event.type).toBe('run-end');
    const end = ofType(events, 'run-end')[0]!;
    expect(end).toMatchObject({ reason: 'answered', llmCalls: 2 });
    // The router's call keeps its whole text for the inspector.
    expect(ofType(events, 'llm-end')[0]!.raw).toEqual({ content: 'Call: poet\n' });
    const v = view(events);
    const block = v.blocks.find((b): b is AgentBlock => b.kind === 'agent')!;
    expect(block).toMatchObject({ name: 'poet', reason: 'call', agentKind: 'fncall' });
    expect(block.endT).toBeGreaterThanOrEqual(block.startT);
    expect(answerText(v)).toBe('Roses are red.');
    // The inspector has the tree: the router's own call, and the helper's run with its iteration and request.
    const inspected = foldInspection(events);
    expect(inspected.iterations).toHaveLength(1);
    expect(inspected.children).toHaveLength(1);
    const child = inspected.children![0]!;
    expect(child).toMatchObject({ agent: 'poet', reason: 'call', round: 1 });
    expect(child.run.iterations).toHaveLength(1);
    expect(child.run.iterations[0]!.response.content).toBe('Roses are red.');
    expect(child.run.iterations[0]!.request?.messages.at(-1)).toMatchObject({ content: 'A poem please' });
  });

  it('yields the helper-named answer as run() messages, and later turns show the router who answered', async () => {
    server.setScenario({ replies: [{ content: 'Call: weather\nReply:' }, { content: 'Sunny.' }] });
    const out = await router().runNonStream([{ role: 'user', content: 'Weather?' }]);
    expect(out).toEqual([{ role: 'assistant', content: 'Sunny.', name: 'weather' }]);

    server.reset();
    server.setScenario({ replies: [{ content: 'You are welcome.' }] });
    const history: Message[] = [{ role: 'user', content: 'Weather?' }, ...out, { role: 'user', content: 'Thanks' }];
    const second = await collectEvents(router().runEvents(history));
    const sent = server.requests[0]!.body.messages as { role: string; content: string }[];
    expect(sent.find((m) => m.role === 'assistant')!.content).toBe('Call: weather\nReply:Sunny.');
    // No Call: this time: the router answers itself, as plain text.
    expect(ofType(second, 'handoff')).toEqual([]);
    expect(
      ofType(second, 'text-delta')
        .map((e) => e.text)
        .join(''),
    ).toBe('You are welcome.');
  });

  it('falls back to the first helper when the model names one it does not have', async () => {
    server.setScenario({ replies: [{ content: 'Call: nobody\nReply:' }, { content: 'Cloudy.' }] });
    const events = await collectEvents(router().runEvents([{ role: 'user', content: 'Hm?' }]));
    expect(ofType(events, 'handoff')).toMatchObject([{ to: 'weather', reason: 'fallback' }]);
  });

  it('refuses helpers without unique names', () => {
    expect(() => new Router({ llm: llm(), agents: [helper('a'), helper('a')] })).toThrow(/names must differ/);
    expect(() => new Router({ llm: llm(), agents: [] })).toThrow(/at least one agent/);
  });
});

describe('GroupChat', () => {
  const group = (opts: Partial<GroupChatOptions> = {}) =>
    new GroupChat({
      llm: llm(),
      name: 'group',
      agents: [helper('Alice', 'a chemist'), helper('Bob', 'a poet')],
      ...opts,
    });

  it('round_robin: members speak in order, each as a child run, for max_round rounds', async () => {
    server.setScenario({ replies: [{ content: 'A1' }, { content: 'B1' }, { content: 'A2' }] });
    const events = await collectEvents(
      group({ selection: 'round_robin', maxRound: 3 }).runEvents([{ role: 'user', content: 'Hi all' }]),
    );
    expect(ofType(events, 'handoff').map((h) => [h.round, h.to, h.reason])).toEqual([
      [1, 'Alice', 'round_robin'],
      [2, 'Bob', 'round_robin'],
      [3, 'Alice', 'round_robin'],
    ]);
    // Bob sees Alice's line folded into the user's message, ending with his name.
    const bob = asked()[1]!;
    expect(bob.system).toContain('You are Bob');
    expect(bob.last).toBe('user: Hi all\nAlice: A1\nBob: ');
    // Alice's second turn has her first answer as her own.
    const third = server.requests[2]!.body.messages as { role: string; content: string }[];
    expect(third.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(third[3]!.content).toBe('Bob: B1\nAlice: ');
    const v = view(events);
    const sections = v.blocks.filter((b): b is AgentBlock => b.kind === 'agent');
    expect(sections.map((s) => [s.name, s.round, answerText(s.run)])).toEqual([
      ['Alice', 1, 'A1'],
      ['Bob', 2, 'B1'],
      ['Alice', 3, 'A2'],
    ]);
    server.setScenario({ replies: [{ content: 'A' }, { content: 'B' }] });
    const out = await group({ selection: 'round_robin', maxRound: 2 }).runNonStream([
      { role: 'user', content: 'again' },
    ]);
    expect(out.map((m) => m.name)).toEqual(['Alice', 'Bob']);
  });

  it('@Name puts the named members first, in the order named', async () => {
    server.setScenario({ replies: [{ content: 'B' }, { content: 'A' }] });
    const events = await collectEvents(
      group({ selection: 'round_robin', maxRound: 2 }).runEvents([
        { role: 'user', content: '@bob first, then @Alice' },
      ]),
    );
    expect(ofType(events, 'handoff').map((h) => [h.to, h.reason])).toEqual([
      ['Bob', 'mention'],
      ['Alice', 'mention'],
    ]);
  });

  it('auto: the host model names the next speaker, and [STOP] ends the turn', async () => {
    server.setScenario({
      replies: [{ content: 'Bob' }, { content: 'B says' }, { content: '[STOP]' }],
    });
    const events = await collectEvents(group({ maxRound: 5 }).runEvents([{ role: 'user', content: 'Go' }]));
    expect(ofType(events, 'handoff').map((h) => [h.to, h.reason])).toEqual([
      ['Bob', 'auto'],
      [undefined, 'stop'],
    ]);
    const [host1, , host2] = asked();
    expect(host1!.system).toContain('Alice: a chemist');
    expect(host2!.last).toBe('user: Go\nBob: B says');
    // The host's choice is no answer text; it is the call's raw response.
    expect(ofType(events, 'text-delta')).toEqual([]);
    expect(ofType(events, 'llm-end')[0]!.raw).toEqual({ content: 'Bob' });
    expect(view(events).blocks.map((b) => b.kind)).toEqual(['agent', 'handoff']);
  });

  it('random picks with the given source; manual waits for the user to name the speaker', async () => {
    server.setScenario({ replies: [{ content: 'B' }] });
    const picked = await collectEvents(
      group({ selection: 'random', maxRound: 1, random: () => 0.9 }).runEvents([{ role: 'user', content: 'x' }]),
    );
    expect(ofType(picked, 'handoff')).toMatchObject([{ to: 'Bob', reason: 'random' }]);

    server.reset();
    const manual = await collectEvents(group({ selection: 'manual' }).runEvents([{ role: 'user', content: 'x' }]));
    expect(ofType(manual, 'handoff')).toMatchObject([{ to: 'user', user: true, reason: 'manual' }]);
    expect(server.requests).toHaveLength(0);
    server.setScenario({ replies: [{ content: 'A' }] });
    const named = await collectEvents(
      group({ selection: 'manual' }).runEvents([{ role: 'user', content: '@Alice your turn' }]),
    );
    expect(ofType(named, 'handoff').map((h) => [h.to, h.reason])).toEqual([
      ['Alice', 'mention'],
      ['user', 'manual'],
    ]);
  });

  it("a member's failure ends the group's run saying whose it was", async () => {
    server.setScenario({ replies: [{ fault: { kind: 'status', status: 400, body: { error: { message: 'bad' } } } }] });
    const events = await collectEvents(group({ selection: 'round_robin' }).runEvents([{ role: 'user', content: 'x' }]));
    const end = ofType(events, 'run-end')[0]!;
    expect(end.reason).toBe('error');
    expect(end.error!.message).toMatch(/^Alice: /);
  });
});
