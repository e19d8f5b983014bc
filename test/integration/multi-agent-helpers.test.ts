// Qwen-Agent's multi-agent helpers over real HTTP to the scripted model server: GroupChatCreator's reply format and
// the messages it makes of it, HumanSimulator's pick among its proposals, DialogueSimulator's alternating rounds and
// its stop, and UserAgent's hand-over to the person (alone and as a GroupChat's user member).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AgentEventSchema,
  DialogueSimulator,
  FnCallAgent,
  GroupChat,
  GroupChatCreator,
  HumanSimulator,
  PENDING_USER_INPUT,
  SIMULATED_USER_STOP,
  UserAgent,
  foldEvents,
  groupDraftFrom,
  type Message,
} from '../../lib/agent';
import { createChatModel } from '../../lib/llm';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import type { RecordedRequest } from '../../scripts/model-server/script';
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

type WireMessage = { role: string; content: string; name?: string };
const sent = (r: RecordedRequest) => r.body.messages as WireMessage[];

const CREATOR_REPLY = [
  '<Background>: A book club that meets online every Friday.',
  '<Config>: {"name": "Ada", "description": "Loves science fiction", "instructions": "You are Ada, you recommend science fiction."}',
  '<Config>: ```json\n{"name": "Ben", "description": "The skeptic", "instructions": "You are Ben, you question every choice."}\n```',
  '<Config>: not a configuration at all',
  '<Answer>: Should the club also have a moderator?',
].join('\n');

describe('GroupChatCreator', () => {
  it('turns the reply into upstream’s background, role_config and answer messages, and folds them back next turn', async () => {
    server.setScenario({
      replies: [
        { content: CREATOR_REPLY },
        {
          content:
            '<Config>: {"name": "Ben", "description": "The moderator", "instructions": "You are Ben, you keep the discussion on topic."}\n<Answer>: Anything else?',
        },
      ],
    });
    const creator = new GroupChatCreator({ llm: llm() });
    const first: Message[] = [{ role: 'user', content: 'A book club of three readers.' }];
    const out = await creator.runNonStream(first);

    const system = sent(server.requests[0]!)[0]!;
    expect(system.role).toBe('system');
    for (const token of ['<Background>', '<Config>', '<Answer>']) expect(system.content).toContain(token);
    expect(out.map((m) => [m.role, m.name, m.content])).toEqual([
      ['assistant', 'background', 'A book club that meets online every Friday.'],
      [
        'assistant',
        'role_config',
        '{"name": "Ada", "description": "Loves science fiction", "instructions": "You are Ada, you recommend science fiction."}',
      ],
      [
        'assistant',
        'role_config',
        '{"name": "Ben", "description": "The skeptic", "instructions": "You are Ben, you question every choice."}',
      ],
      ['assistant', 'GroupChatCreator', 'Should the club also have a moderator?'],
    ]);
    const draft = groupDraftFrom(out);
    expect(draft.background).toBe('A book club that meets online every Friday.');
    expect(draft.members.map((m) => m.name)).toEqual(['Ada', 'Ben']);

    // The next turn: its earlier messages go back as the one reply the model wrote.
    const history = [...first, ...out, { role: 'user' as const, content: 'Make Ben the moderator.' }];
    const second = await creator.runNonStream(history);
    const again = sent(server.requests[1]!);
    expect(again.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(again[2]!.content).toBe(
      [
        '<Background>: A book club that meets online every Friday.',
        '<Config>: {"name": "Ada", "description": "Loves science fiction", "instructions": "You are Ada, you recommend science fiction."}',
        '<Config>: {"name": "Ben", "description": "The skeptic", "instructions": "You are Ben, you question every choice."}',
        '<Answer>: Should the club also have a moderator?',
      ].join('\n'),
    );
    // Only Ben changed: he is replaced in place, Ada and the background stay.
    const updated = groupDraftFrom(second, draft);
    expect(updated.background).toBe(draft.background);
    expect(updated.members).toEqual([
      draft.members[0],
      { name: 'Ben', description: 'The moderator', instructions: 'You are Ben, you keep the discussion on topic.' },
    ]);
  });

  it('takes a reply without the format as the answer, and writes its prompt in Chinese for a Chinese request', async () => {
    server.setScenario({ replies: [{ content: '你想要几个角色？' }] });
    const out = await new GroupChatCreator({ llm: llm() }).runNonStream([
      { role: 'user', content: '帮我建一个读书群' },
    ]);
    expect(out).toEqual([{ role: 'assistant', content: '你想要几个角色？', name: 'GroupChatCreator' }]);
    expect(sent(server.requests[0]!)[0]!.content).toContain('每个角色的配置是一个 JSON 对象');
  });
});

describe('HumanSimulator', () => {
  it('asks for four proposals as the user and says one of them, picked by its seed', async () => {
    const proposals = ['What is RAG?', 'Show me an example.', 'Is it fast?', 'Thanks, bye.'];
    server.setScenario({ fallback: { content: `Here you go:\n\`\`\`json\n${JSON.stringify(proposals)}\n\`\`\`` } });
    const said = async (seed: number) =>
      (await new HumanSimulator({ llm: llm(), seed, systemMessage: 'You are a student.' }).runNonStream([]))[0]!
        .content as string;
    const picks = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map(said));
    for (const p of picks) expect(proposals).toContain(p);
    expect(new Set(picks).size).toBeGreaterThan(1); // the seed decides
    expect(await said(3)).toBe(picks[2]); // and the same seed says the same
    const request = sent(server.requests[0]!);
    expect(request[0]!.content).toContain('JSON list of four questions');
    expect(request[0]!.content).toContain('You are a student.');
    // With no conversation yet, it is asked for its first request.
    expect(request.map((m) => m.role)).toEqual(['system', 'user']);
    expect(request[1]!.content).toContain('first request');
  });

  it('says the stop marker when the model writes no list', async () => {
    server.setScenario({ replies: [{ content: 'I have nothing more to ask.' }] });
    const out = await new HumanSimulator({ llm: llm() }).runNonStream([{ role: 'user', content: 'hi' }]);
    expect(out[0]!.content).toBe(SIMULATED_USER_STOP);
  });
});

/** The simulated user's requests carry the game's rules in their system message. */
const isSimulator = (r: RecordedRequest) => String(sent(r)[0]?.content ?? '').includes('swapped roles');

describe('DialogueSimulator', () => {
  it('alternates the simulated user and the agent for maxRound rounds, the user seeing the roles swapped', async () => {
    const weather = new GetWeather();
    let asked = 0;
    server.setScenario((req) => {
      if (isSimulator(req)) return { content: JSON.stringify([`Question ${++asked}?`]) };
      // The agent calls its tool on the first question, then answers.
      const last = sent(req).at(-1)!;
      if (last.role === 'user' && last.content === 'Question 1?')
        return { toolCalls: [{ name: 'get_weather', arguments: '{"city":"Paris"}' }] };
      return { content: `Answer to ${sent(req).filter((m) => m.role === 'user').length} questions.` };
    });
    const assistant = new FnCallAgent({ llm: llm(), name: 'helper', functionList: [weather] });
    const sim = new DialogueSimulator({
      userAgent: new HumanSimulator({ llm: llm(), name: 'tester' }),
      assistantAgent: assistant,
      maxRound: 3,
    });
    const events = await collectEvents(sim.runEvents([]));
    for (const e of events) expect(AgentEventSchema.safeParse(e).success).toBe(true);
    const out = foldEvents(events);
    const dialogue = out.filter((m) => m.role === 'user' || (m.role === 'assistant' && !m.function_call));
    expect(dialogue.map((m) => [m.role, m.content])).toEqual([
      ['user', 'Question 1?'],
      ['assistant', 'Answer to 1 questions.'],
      ['user', 'Question 2?'],
      ['assistant', 'Answer to 2 questions.'],
      ['user', 'Question 3?'],
      ['assistant', 'Answer to 3 questions.'],
    ]);
    expect(out.some((m) => m.role === 'function' && m.name === 'get_weather')).toBe(true);
    // Each simulated line is a child run speaking as the user; the agent's answers are plain child runs.
    const children = ofType(events, 'child');
    expect(children.filter((c) => c.asUser).every((c) => c.agent === 'tester')).toBe(true);
    expect(children.some((c) => c.agent === 'helper' && !c.asUser)).toBe(true);
    expect(ofType(events, 'run-end').at(-1)!.llmCalls).toBe(7); // 3 user lines, 3 answers, 1 tool step
    // The simulated user saw the dialogue swapped: the agent's answer as the user's, its own line as its answer, and
    // no tool step.
    const third = server.requests.filter(isSimulator)[2]!;
    expect(sent(third).map((m) => [m.role, m.content])).toEqual([
      ['system', expect.stringContaining('swapped roles')],
      ['user', expect.stringContaining('first request')],
      ['assistant', 'Question 1?'],
      ['user', 'Answer to 1 questions.'],
      ['assistant', 'Question 2?'],
      ['user', 'Answer to 2 questions.'],
    ]);
  });

  it('ends when the simulated user says the stop marker, without that line', async () => {
    let lines = 0;
    server.setScenario((req) =>
      isSimulator(req)
        ? { content: ++lines === 1 ? '["How do I start?"]' : `["${SIMULATED_USER_STOP}"]` }
        : { content: 'Start with the tutorial.' },
    );
    const sim = new DialogueSimulator({
      userAgent: new HumanSimulator({ llm: llm() }),
      assistantAgent: new FnCallAgent({ llm: llm(), name: 'helper' }),
    });
    const events = await collectEvents(sim.runEvents([]));
    const out = foldEvents(events);
    expect(out.map((m) => [m.role, m.content])).toEqual([
      ['user', 'How do I start?'],
      ['assistant', 'Start with the tutorial.'],
    ]);
    expect(ofType(events, 'handoff').at(-1)).toMatchObject({ round: 2, reason: 'stop' });
    expect(server.requests).toHaveLength(3); // a line, an answer, the stop
  });
});

describe('UserAgent', () => {
  it('hands the turn to the person with upstream’s marker, and is a GroupChat’s user member', async () => {
    const out = await new UserAgent({ name: 'Sam' }).runNonStream([{ role: 'user', content: 'hello' }]);
    expect(out).toEqual([{ role: 'user', content: PENDING_USER_INPUT, name: 'Sam' }]);
    expect(server.requests).toHaveLength(0);

    const group = new GroupChat({
      llm: llm(),
      agents: [new FnCallAgent({ llm: llm(), name: 'bot' }), new UserAgent({ name: 'Sam', description: 'the reader' })],
      selection: 'round_robin',
    });
    expect(group.user).toEqual({ name: 'Sam', description: 'the reader' });
    server.setScenario({ fallback: { content: 'Hi Sam.' } });
    const events = await collectEvents(group.runEvents([{ role: 'user', content: 'hello', name: 'Sam' }]));
    expect(ofType(events, 'handoff').map((h) => h.to)).toEqual(['bot', 'Sam']);
    expect(() => new GroupChat({ llm: llm(), agents: [new UserAgent(), new UserAgent({ name: 'b' })] })).toThrow(
      /one user/,
    );
  });
});
