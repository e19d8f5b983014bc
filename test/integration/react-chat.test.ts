// ReActChat over real HTTP: prompt, stop words, tolerant parsing, the transcript and the parsed steps.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ReActChat } from '../../lib/agent';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { collectEvents, ofType } from '../support/run';
import { GetWeather } from '../support/tools';
import { foldRun } from '../../lib/chat/view';
import { createChatModel } from '../../lib/llm';

let server: ModelServer;
beforeAll(async () => {
  server = await createModelServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const react = (tool = new GetWeather(), maxLlmCalls?: number) =>
  new ReActChat({
    llm: createChatModel({ model: 'scripted', baseURL: server.url, apiKey: 'k' }),
    functionList: [tool],
    name: 'reactor',
    maxLlmCalls,
  });

describe('ReActChat', () => {
  it('sends the ReAct prompt with stop words, runs the action, appends the observation, and answers', async () => {
    server.setScenario({
      replies: [
        // The model runs on past the action; the server cuts at the stop word like a real one.
        {
          content:
            'I need the weather.\nAction: get_weather\nAction Input: {"city": "Paris"}\nObservation: it is raining frogs',
          chunkSize: 5,
        },
        { content: 'I know it now.\nFinal Answer: Sunny, 21°C.', chunkSize: 5 },
      ],
    });
    const tool = new GetWeather();
    const a = react(tool);
    const events = await collectEvents(a.runEvents([{ role: 'user', content: 'Weather in Paris?' }]));
    const first = server.requests[0]!.body;
    expect(first.stop).toEqual(['Observation:', 'Observation:\n']);
    expect(first.tools).toBeUndefined();
    const prompt = first.messages.at(-1).content as string;
    expect(prompt).toContain('get_weather');
    expect(prompt).toMatch(/Question: Weather in Paris\?\nThought: $/);
    expect(tool.calls).toEqual([{ city: 'Paris' }]);
    // The scratchpad goes back inside the last user turn.
    const second = server.requests[1]!.body.messages.at(-1).content as string;
    expect(second).toContain(
      'Action: get_weather\nAction Input: {"city": "Paris"}\nObservation: Paris: 21°C, sunny\nThought: ',
    );
    expect(second).not.toContain('frogs');

    const transcript = ofType(events, 'text-delta')
      .map((e) => e.text)
      .join('');
    expect(transcript).toBe(
      'Thought: I need the weather.\nAction: get_weather\nAction Input: {"city": "Paris"}\nObservation: Paris: 21°C, sunny\nThought: I know it now.\nFinal Answer: Sunny, 21°C.',
    );
    // Each piece of the transcript says which part of a step it is, so the page shows steps without parsing it;
    // the model's text streamed in 5-character chunks, and markers split across them are whole parts all the same.
    const parts = (part: string) =>
      ofType(events, 'text-delta')
        .filter((e) => e.part === part)
        .map((e) => e.text)
        .join('|');
    expect(ofType(events, 'text-delta').every((e) => e.part !== undefined)).toBe(true);
    expect(parts('thought').replace(/\|/g, '')).toBe('I need the weather.I know it now.');
    expect(parts('action').replace(/\|/g, '')).toBe('get_weather');
    expect(parts('action-input').replace(/\|/g, '')).toBe('{"city": "Paris"}');
    expect(parts('observation')).toBe('Paris: 21°C, sunny');
    expect(parts('answer').replace(/\|/g, '')).toBe('Sunny, 21°C.');
    const view = foldRun('r', events);
    expect(
      view.blocks.map((b) =>
        b.kind === 'tool' ? `tool:${b.name}:${b.status}` : `${b.kind}:${'text' in b ? b.text : ''}`,
      ),
    ).toEqual([
      'reasoning:I need the weather.',
      'tool:get_weather:done',
      'reasoning:I know it now.',
      'text:Sunny, 21°C.',
    ]);
    const steps = ofType(events, 'react-step');
    expect(steps[0]).toMatchObject({
      thought: 'I need the weather.',
      action: 'get_weather',
      actionInput: '{"city": "Paris"}',
      observation: 'Paris: 21°C, sunny',
    });
    expect(steps[1]).toMatchObject({ thought: 'I know it now.', finalAnswer: 'Sunny, 21°C.' });
    expect(ofType(events, 'run-end')[0]).toMatchObject({ reason: 'answered', llmCalls: 2, toolCalls: 1 });
  });

  it('yields one assistant message holding the whole transcript (Final Answer not stripped)', async () => {
    server.setScenario({ replies: [{ content: 'Easy.\nFinal Answer: 4' }] });
    const result = await react().runNonStream([{ role: 'user', content: '2+2?' }]);
    expect(result).toEqual([{ role: 'assistant', content: 'Thought: Easy.\nFinal Answer: 4', name: 'reactor' }]);
  });

  it('takes a reply without a tool call or a Final Answer as the answer, as upstream yields it', async () => {
    // Small models often skip the format: the reply streams as a thought, then shows as the answer.
    server.setScenario({
      replies: [{ content: 'Paris is the capital of France.\nIt sits on the Seine.', chunkSize: 4 }],
    });
    const events = await collectEvents(react().runEvents([{ role: 'user', content: 'Capital of France?' }]));
    expect(ofType(events, 'react-step')).toMatchObject([
      { thought: '', finalAnswer: 'Paris is the capital of France.\nIt sits on the Seine.', plainReply: true },
    ]);
    expect(ofType(events, 'run-end')[0]).toMatchObject({ reason: 'answered', llmCalls: 1, toolCalls: 0 });
    const view = foldRun('r', events);
    expect(view.blocks.map((b) => `${b.kind}:${'text' in b ? b.text : ''}`)).toEqual([
      'text:Paris is the capital of France.\nIt sits on the Seine.',
    ]);
    // The history keeps upstream's message: the transcript as the model continued it.
    server.setScenario({ replies: [{ content: 'Four.' }] });
    expect(await react().runNonStream([{ role: 'user', content: '2+2?' }])).toEqual([
      { role: 'assistant', content: 'Thought: Four.', name: 'reactor' },
    ]);
  });

  it('takes a reply whose Action has no Action Input whole as the answer (no tool is called)', async () => {
    server.setScenario({ replies: [{ content: 'I would look it up.\nAction: get_weather' }] });
    const tool = new GetWeather();
    const events = await collectEvents(react(tool).runEvents([{ role: 'user', content: 'Weather?' }]));
    expect(tool.calls).toEqual([]);
    expect(foldRun('r', events).blocks.map((b) => `${b.kind}:${'text' in b ? b.text : ''}`)).toEqual([
      'text:I would look it up.\nAction: get_weather',
    ]);
  });

  it('after a tool step, a reply without Final Answer is the answer and the earlier thought stays a thought', async () => {
    server.setScenario({
      replies: [
        { content: 'I need the weather.\nAction: get_weather\nAction Input: {"city": "Paris"}' },
        { content: 'It is sunny in Paris, 21°C.' },
      ],
    });
    const events = await collectEvents(react().runEvents([{ role: 'user', content: 'Weather in Paris?' }]));
    expect(
      foldRun('r', events).blocks.map((b) =>
        b.kind === 'tool' ? `tool:${b.name}:${b.status}` : `${b.kind}:${'text' in b ? b.text : ''}`,
      ),
    ).toEqual(['reasoning:I need the weather.', 'tool:get_weather:done', 'text:It is sunny in Paris, 21°C.']);
  });

  it('reports its kind by a declared name, not the class name (which production builds minify); subclasses keep it', async () => {
    class MyReact extends ReActChat {}
    server.setScenario({ replies: [{ content: 'Final Answer: 4' }] });
    const events = await collectEvents(
      new MyReact({ llm: createChatModel({ model: 'm', baseURL: server.url }) }).runEvents([
        { role: 'user', content: '2+2?' },
      ]),
    );
    expect(ofType(events, 'run-start')[0]!.kind).toBe('react');
  });

  it('tolerates a missing Observation after Action Input and unknown tools', async () => {
    server.setScenario({
      replies: [
        { content: 'hmm\nAction: teleport\nAction Input: {"to": "Mars"}' },
        { content: 'Final Answer: cannot' },
      ],
    });
    const events = await collectEvents(react().runEvents([{ role: 'user', content: 'go' }]));
    expect(ofType(events, 'tool-result')[0]).toMatchObject({ ok: false, content: 'Tool teleport does not exist.' });
    expect(ofType(events, 'run-end')[0]!.reason).toBe('answered');
  });

  it('stops at the call limit', async () => {
    server.setScenario({
      fallback: { content: 'again\nAction: get_weather\nAction Input: {"city": "X"}\nObservation:' },
    });
    const events = await collectEvents(react(new GetWeather(), 3).runEvents([{ role: 'user', content: 'loop' }]));
    expect(server.requests).toHaveLength(3);
    expect(ofType(events, 'run-end')[0]).toMatchObject({ reason: 'max-iterations', llmCalls: 3 });
  });
});
