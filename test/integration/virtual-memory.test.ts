// VirtualMemoryAgent over real HTTP to the scripted model server: a conversation longer than the model's
// max_input_tokens keeps its newest turns, and the earlier turns that answer the question come back in the system
// message, shown in the trace as a retrieval by `memory` (turn by turn); the retrieval tool searches them too and
// its findings replace the knowledge in the system message, as upstream's agent does.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AgentEventSchema, VirtualMemoryAgent, type Message } from '../../lib/agent';
import { feedEvent } from '../../lib/chat/feed';
import { foldRun, usedPassages } from '../../lib/chat/view';
import { clearIndexCache } from '../../lib/documents/search';
import { foldInspection } from '../../lib/inspect/fold';
import { createChatModel } from '../../lib/llm';
import { countMessageTokens } from '../../lib/llm/tokens';
import type { FeedEvent } from '../../lib/protocol/events';
import { messageText } from '../../scripts/model-server/script';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { allowLocalFileStaging } from '../../tools';
import { collectEvents, ofType } from '../support/run';

const BUDGET = 600;
let server: ModelServer;
let tmp: string;

beforeAll(async () => {
  allowLocalFileStaging(true);
  server = await createModelServer();
});
afterAll(() => {
  allowLocalFileStaging(false);
  return server.close();
});
beforeEach(async () => {
  server.reset();
  clearIndexCache();
  tmp = await mkdtemp(path.join(os.tmpdir(), 'memory-'));
  return () => rm(tmp, { recursive: true, force: true });
});

const agent = (extra: Partial<ConstructorParameters<typeof VirtualMemoryAgent>[0]> = {}) =>
  new VirtualMemoryAgent({
    llm: createChatModel({
      model: 'scripted',
      baseURL: server.url,
      apiKey: 'k',
      fncallMode: 'native',
      generateCfg: { max_input_tokens: BUDGET },
    }),
    systemMessage: 'You are a patient helper.',
    ...extra,
  });

const TOPICS = ['gardening', 'bicycles', 'astronomy', 'baking', 'chess', 'sailing', 'pottery', 'birdwatching'];

/** A long conversation about other things, the locker code told in its 9th turn (neither first nor recent). */
function longConversation(question: string): Message[] {
  const messages: Message[] = [];
  for (let i = 0; i < 24; i++) {
    const topic = TOPICS[i % TOPICS.length]!;
    if (i === 8)
      messages.push(
        { role: 'user', content: 'Please remember this: my locker code is 4711.' },
        { role: 'assistant', content: 'Noted, your locker code is 4711.' },
      );
    messages.push(
      { role: 'user', content: `Tell me one more thing about ${topic}, number ${i}.` },
      { role: 'assistant', content: `Here is fact ${i} about ${topic}: it takes practice, patience and some care.` },
    );
  }
  messages.push({ role: 'user', content: question });
  return messages;
}

function request(i: number) {
  return server.requests[i]!.body.messages as { role: string; content: unknown }[];
}
const systemOf = (i: number) => messageText(request(i)[0]!.content);

describe('VirtualMemoryAgent', () => {
  it('recalls the earlier turn that answers the question once the conversation overflows, and shows it', async () => {
    const conversation = longConversation('What is my locker code?');
    expect(conversation.reduce((sum, m) => sum + countMessageTokens(m), 0)).toBeGreaterThan(BUDGET);
    server.setScenario({ replies: [{ content: 'Your locker code is 4711.' }] });
    const events = await collectEvents(agent({ ragCfg: { parser_page_size: 40 } }).runEvents(conversation));
    for (const e of events) expect(() => AgentEventSchema.parse(e)).not.toThrow();

    // The model got the newest turns, not the first one, and the first one's content in the system message.
    const sent = request(0);
    expect(sent[0]!.role).toBe('system');
    const system = systemOf(0);
    expect(system.startsWith('You are a patient helper.\n\n# Knowledge Base\n\n## Earlier in this conversation')).toBe(
      true,
    );
    expect(system).toMatch(/\[turn 9\]\nuser: Please remember this: my locker code is 4711\./);
    expect(sent.slice(1).some((m) => messageText(m.content).includes('locker code is 4711'))).toBe(false);
    expect(messageText(sent[sent.length - 1]!.content)).toBe('What is my locker code?');
    expect(sent.length).toBeLessThan(conversation.length);
    // What was sent fits the budget: the model layer had nothing left to cut.
    expect(ofType(events, 'llm-start')[0]!.truncation).toBeUndefined();

    const [recall] = ofType(events, 'retrieval');
    expect(recall).toMatchObject({ by: 'memory', query: 'What is my locker code?', iteration: 0 });
    const used = recall!.candidates.filter((c) => c.used);
    expect(used.some((c) => c.page === 9 && c.text.includes('4711'))).toBe(true);
    expect(recall!.mode).toBe('ranked'); // found by searching, not because everything fitted
    expect(recall!.usedTokens).toBeLessThanOrEqual(recall!.budgetTokens);
    expect(recall!.budgetTokens).toBeLessThanOrEqual(BUDGET / 4);
    const order = events.map((e) => e.type);
    expect(order.indexOf('retrieval')).toBeLessThan(order.indexOf('llm-start'));

    // The page shows the recall as its own card (no citation of a document); the inspector lists it.
    const feed = events.map(feedEvent).filter((e): e is FeedEvent => e !== undefined);
    const view = foldRun('r', feed);
    expect(view.blocks.map((b) => b.kind)).toEqual(['retrieval', 'text']);
    expect(view.blocks[0]).toMatchObject({ kind: 'retrieval', by: 'memory' });
    expect(usedPassages(view)).toEqual([]);
    expect(foldInspection(events).retrievals).toMatchObject([{ by: 'memory', query: 'What is my locker code?' }]);
  });

  it('sends a conversation that fits as it is, recalling nothing', async () => {
    server.setScenario({ replies: [{ content: 'Hello.' }] });
    const short: Message[] = [
      { role: 'user', content: 'My locker code is 4711.' },
      { role: 'assistant', content: 'Noted.' },
      { role: 'user', content: 'Thanks.' },
    ];
    const events = await collectEvents(agent().runEvents(short));
    expect(ofType(events, 'retrieval')).toEqual([]);
    expect(request(0).map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(systemOf(0)).toBe('You are a patient helper.');
    expect(ofType(events, 'run-start')[0]).toMatchObject({ kind: 'virtualmemory', tools: ['retrieval'] });
  });

  it("searches the files and the earlier turns for the retrieval tool's query; the findings replace the knowledge", async () => {
    const notes = path.join(tmp, 'notes.md');
    const paragraphs = Array.from({ length: 30 }, (_, i) => `Paragraph ${i}: routine office matters.`);
    paragraphs.splice(12, 0, 'The spare locker key hangs in the caretaker room.');
    await writeFile(notes, paragraphs.join('\n\n'));
    const conversation = longConversation('Where is the spare key, and what was my code again?');
    conversation[conversation.length - 1] = {
      role: 'user',
      content: [{ file: notes }, { text: 'Where is the spare key, and what was my code again?' }],
    };
    server.setScenario({
      replies: [
        {
          toolCalls: [
            { id: 'call_m', name: 'retrieval', arguments: '{"query": "locker code spare key", "files": ["notes.md"]}' },
          ],
        },
        { content: 'The key is in the caretaker room; your code is 4711.' },
      ],
    });
    const events = await collectEvents(
      agent({ ragCfg: { max_ref_token: 100, parser_page_size: 60 } }).runEvents(conversation, {
        workDir: path.join(tmp, 'work'),
      }),
    );
    expect(ofType(events, 'run-end')[0]!.reason).toBe('answered');
    const retrievals = ofType(events, 'retrieval');
    expect(retrievals.map((r) => [r.by, r.functionId, r.query])).toEqual([
      ['memory', undefined, 'Where is the spare key, and what was my code again?'],
      ['tool', 'call_m', 'locker code spare key'],
      ['memory', 'call_m', 'locker code spare key'],
    ]);
    // The call's result only says where the passages went; the passages are in the next request's system message.
    const result = ofType(events, 'tool-result')[0]!;
    expect(result).toMatchObject({ ok: true, name: 'retrieval' });
    expect(result.content).toContain('system message');
    const second = systemOf(1);
    expect(
      second.startsWith('You are a patient helper.\n\n# Knowledge Base\n\n## The content from [file](notes.md):'),
    ).toBe(true);
    expect(second).toContain('The spare locker key hangs in the caretaker room.');
    expect(second).toContain('my locker code is 4711');
    expect(second.match(/# Knowledge Base/g)).toHaveLength(1); // the first recall's block was replaced
    const fn = request(1).find((m) => m.role === 'tool');
    expect(messageText(fn!.content)).toBe(result.content);
  });
});
