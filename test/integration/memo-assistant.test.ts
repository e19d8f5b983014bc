// MemoAssistant over real HTTP to the scripted model server, with the real storage tool on a temporary root: a note
// the model saves in one turn is on disk, listed in the system message of every later turn (read from the
// conversation's own storage calls, as upstream does), and read back from storage when the model asks for it.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MemoAssistant, type Message } from '../../lib/agent';
import { lastTurns, notesFrom } from '../../lib/agent/memo-assistant';
import { createChatModel } from '../../lib/llm';
import { messageText } from '../../scripts/model-server/script';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { collectEvents, ofType } from '../support/run';

let server: ModelServer;
let root: string;

beforeAll(async () => {
  server = await createModelServer();
});
afterAll(() => server.close());
beforeEach(async () => {
  server.reset();
  root = await mkdtemp(path.join(os.tmpdir(), 'memo-'));
  return () => rm(root, { recursive: true, force: true });
});

const memo = () =>
  new MemoAssistant({
    llm: createChatModel({ model: 'scripted', baseURL: server.url, apiKey: 'k', fncallMode: 'native' }),
    systemMessage: 'You are a friendly companion.',
    functionList: [{ name: 'storage', root }],
  });

const systemOf = (i: number) => {
  const messages = server.requests[i]!.body.messages as { role: string; content: unknown }[];
  return messages[0]!.role === 'system' ? messageText(messages[0]!.content) : '';
};
const put = (key: string, value: string) => JSON.stringify({ operate: 'put', key, value });

describe('MemoAssistant', () => {
  it('keeps a note with storage in one turn and reads it back in a later one', async () => {
    // Turn 1: the model saves two notes.
    server.setScenario({
      replies: [
        {
          toolCalls: [
            { id: 'c1', name: 'storage', arguments: put('name', 'Alice') },
            { id: 'c2', name: 'storage', arguments: put('drink', 'green tea') },
          ],
        },
        { content: 'Nice to meet you, Alice.' },
      ],
    });
    const first: Message[] = [{ role: 'user', content: 'I am Alice and I drink green tea.' }];
    const turn1 = await memo().runNonStream(first);
    expect(await readFile(path.join(root, 'name'), 'utf8')).toBe('Alice');
    expect(await readFile(path.join(root, 'drink'), 'utf8')).toBe('green tea');
    // Nothing was saved before the first turn: the prompt lists no notes yet.
    expect(systemOf(0)).toMatch(
      /^You are a friendly companion\.\n\nDuring this conversation you may use the storage tool/,
    );
    expect(systemOf(0)).toContain('<info>\n\n</info>');

    // Turn 2: the notes are in the system message; the model reads one back from storage too.
    server.reset();
    server.setScenario({
      replies: [
        { toolCalls: [{ id: 'c3', name: 'storage', arguments: '{"operate": "get", "key": "name"}' }] },
        { content: 'You are Alice.' },
      ],
    });
    const history = [...first, ...turn1, { role: 'user' as const, content: 'Who am I?' }];
    const events = await collectEvents(memo().runEvents(history));
    expect(systemOf(0)).toContain('<info>\nname: Alice\ndrink: green tea\n</info>');
    const read = ofType(events, 'tool-result')[0]!;
    expect(read).toMatchObject({ name: 'storage', ok: true, content: 'Alice' });
    const sent = server.requests[1]!.body.messages as { role: string; content: unknown }[];
    expect(messageText(sent.findLast((m) => m.role === 'tool')!.content)).toBe('Alice');
    expect(ofType(events, 'run-start')[0]).toMatchObject({ kind: 'memo', tools: ['storage'] });
  });

  it('lists the notes in Chinese for a Chinese conversation, without a deleted one', async () => {
    server.setScenario({ replies: [{ content: '好的。' }] });
    const call = (id: string, args: string): Message => ({
      role: 'assistant',
      content: '',
      function_call: { name: 'storage', arguments: args },
      extra: { function_id: id },
    });
    await memo().runNonStream([
      { role: 'user', content: '记住我的城市和爱好。' },
      call('1', put('城市', '杭州')),
      call('2', put('爱好', '围棋')),
      { role: 'function', name: 'storage', content: 'ok', extra: { function_id: '1' } },
      { role: 'function', name: 'storage', content: 'ok', extra: { function_id: '2' } },
      call('3', '{"operate": "delete", "key": "爱好"}'),
      { role: 'function', name: 'storage', content: 'ok', extra: { function_id: '3' } },
      { role: 'assistant', content: '记住了。' },
      { role: 'user', content: '我住在哪里？' },
    ]);
    expect(systemOf(0)).toContain('你可以随时用 storage 工具保存值得记住的信息');
    expect(systemOf(0)).toContain('<info>\n城市: 杭州\n</info>');
  });
});

describe('MemoAssistant helpers', () => {
  it('replays put, update and delete in order, skipping calls it cannot read', () => {
    const call = (args: string): Message => ({
      role: 'assistant',
      content: '',
      function_call: { name: 'storage', arguments: args },
    });
    expect(
      notesFrom([
        call(put('a', '1')),
        call('{"operate": "update", "key": "a", "value": "2"}'),
        call('not json at all {'),
        call(put('b', '3')),
        call('{"operate": "get", "key": "b"}'),
        call("{operate: 'delete', key: 'b'}"), // JSON5, as the model may write it
      ]),
    ).toBe('a: 2');
  });

  it('keeps the last 400 user turns and the system message', () => {
    const turns: Message[] = [{ role: 'system', content: 's' }];
    for (let i = 0; i < 402; i++)
      turns.push({ role: 'user', content: `u${i}` }, { role: 'assistant', content: `a${i}` });
    const kept = lastTurns(turns, 400);
    expect(kept[0]).toEqual({ role: 'system', content: 's' });
    expect(kept[1]).toEqual({ role: 'user', content: 'u2' });
    expect(kept.filter((m) => m.role === 'user')).toHaveLength(400);
    expect(lastTurns(turns.slice(0, 5), 400)).toEqual(turns.slice(0, 5));
  });
});
