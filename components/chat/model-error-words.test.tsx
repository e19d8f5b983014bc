// A model server that fails mid-answer (an HTTP 500, an error event in the stream, a connection cut, a stream gone
// idle), run by real agents against the scripted model server over HTTP, their events folded and the turn drawn as
// the page draws it: in English the server's words, in Chinese the same facts in Chinese with only the server's own
// detail as it came.
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FnCallAgent, ParallelDocQA, ReActChat, type AgentEvent } from '../../lib/agent';
import { foldRun } from '../../lib/chat/view';
import { createChatModel } from '../../lib/llm';
import type { GenerateCfg } from '../../lib/llm/model';
import { AgentEventSchema } from '../../lib/protocol/events';
import type { ScriptedReply } from '../../lib/protocol/fixture';
import { localDocumentsForEachTest } from '../../test/support/local-documents';
import { collectEvents, ofType } from '../../test/support/run';
import { RunView } from './run-view';
import { render, textOf } from './test-html';

const env = localDocumentsForEachTest('model-error-words-');

const llm = (generateCfg: GenerateCfg = {}) =>
  createChatModel({ model: 'scripted', baseURL: env.server.url, apiKey: 'k', maxRetries: 0, generateCfg });

/** The turn as each page shows it, after the events went through their schema (as they are stored and sent). */
function shown(
  events: AgentEvent[],
  where: { connection?: string; address?: string } = {},
): { en: string; zh: string } {
  const parsed = events.map((e) => AgentEventSchema.parse(e));
  const run = { ...foldRun(parsed[0]!.runId, parsed), ...(where.connection ? { connection: where.connection } : {}) };
  const view = (locale: 'en' | 'zh-CN') => textOf(render(<RunView run={run} address={where.address} />, locale));
  return { en: view('en'), zh: view('zh-CN') };
}

/** An address on loopback where nothing listens (a port just given up). */
async function closedAddress(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/v1`;
}

async function failedChat(reply: ScriptedReply, generateCfg?: GenerateCfg) {
  env.server.setScenario({ fallback: reply });
  return shown(
    await collectEvents(new FnCallAgent({ llm: llm(generateCfg) }).runEvents([{ role: 'user', content: 'hi' }])),
  );
}

describe('a model server failing mid-answer, as the turn says it', () => {
  it('an HTTP error: its status and the server’s own words, in a Chinese sentence on the Chinese page', async () => {
    const said = await failedChat({
      fault: { kind: 'status', status: 500, body: { error: { message: 'the GPU fell over', type: 'server_error' } } },
    });
    expect(said.en).toBe('Model server error 500: the GPU fell over');
    expect(said.zh).toBe('模型服务器返回了错误 500：the GPU fell over');

    const silent = await failedChat({ fault: { kind: 'status', status: 503, body: 'nope' } });
    expect(silent.zh).toBe('模型服务器返回了错误 503，没有说明原因。');
  });

  it('an error event inside the stream', async () => {
    const said = await failedChat({
      content: 'abcdef',
      chunkSize: 2,
      fault: { kind: 'stream-error', afterChunks: 1, error: { message: 'engine crashed', code: 'boom' } },
    });
    expect(said.en).toContain('Model server error: engine crashed');
    expect(said.zh).toContain('模型服务器在回答中途报错：engine crashed');
    expect(said.zh).not.toContain('Model server error');
  });

  it('a connection cut after part of the answer', async () => {
    const said = await failedChat({
      content: 'partial answer that never ends',
      chunkSize: 4,
      fault: { kind: 'cut', afterChunks: 3 },
    });
    expect(said.en).toBe('partial The connection to the model server failed: terminated (other side closed)');
    expect(said.zh).toBe('partial 与模型服务器的连接中断了：terminated (other side closed)');
  });

  it('a server nothing answers at: its words inside our sentence, named by its connection when the page knows it', async () => {
    const baseURL = await closedAddress();
    const dead = createChatModel({ model: 'scripted', baseURL, apiKey: 'k', maxRetries: 0 });
    const events = await collectEvents(new FnCallAgent({ llm: dead }).runEvents([{ role: 'user', content: 'hi' }]));
    expect(ofType(events, 'run-end').at(-1)!.error).toMatchObject({
      code: 'model-unreachable',
      values: { detail: expect.stringMatching(/^Connection error\./) },
    });
    const detail = String(ofType(events, 'run-end').at(-1)!.error!.values!.detail);
    // No connection known (a run through the HTTP API, an imported run): the same fact in each language.
    const bare = shown(events);
    expect(bare.en).toBe(`Cannot reach the model server: ${detail}`);
    expect(bare.zh).toBe(`无法连接模型服务器：${detail}`);
    // Its connection and, for its owner, its address: what to check.
    const owned = shown(events, { connection: 'Lab', address: baseURL });
    expect(owned.en).toContain(
      `Cannot reach the model server of “Lab” at ${baseURL}. Is the server running, and is that address right (Settings → Models)? The error: ${detail}`,
    );
    expect(owned.zh).toContain(
      `无法连接“Lab”的模型服务器（${baseURL}）。请检查服务器是否在运行，以及这个地址是否正确（设置 → 模型）。错误信息：${detail}`,
    );
    const shared = shown(events, { connection: 'Environment' });
    expect(shared.zh).toBe(
      `无法连接“环境变量”的模型服务器。它可能暂时不可用：请稍后再试，或告诉它的管理员。错误信息：${detail}`,
    );
  });

  it('a stream gone idle: how long, in the page’s words', async () => {
    const said = await failedChat(
      { content: 'abcdefgh', chunkSize: 2, fault: { kind: 'stall', afterChunks: 2, ms: 5000 } },
      { idle_timeout_ms: 300 },
    );
    expect(said.en).toContain('Model request timed out: the stream was idle for 300 ms.');
    expect(said.zh).toContain('模型请求超时：回答已有 300 毫秒没有新内容。');
  });

  it('bad input to the model layer (a call it cannot make): in a Chinese sentence, its own words inside', async () => {
    env.server.setScenario({ fallback: { content: 'never asked' } });
    const nous = createChatModel({
      model: 'scripted',
      baseURL: env.server.url,
      apiKey: 'k',
      maxRetries: 0,
      fncallMode: 'nous',
      generateCfg: { function_choice: 'required' },
    });
    const events = await collectEvents(
      new FnCallAgent({ llm: nous, functionList: ['calculator'] }).runEvents([{ role: 'user', content: '6*7?' }]),
    );
    const error = ofType(events, 'run-end').at(-1)!.error!;
    expect(error).toMatchObject({ status: 400, code: 'model-input-invalid' });
    const said = shown(events);
    expect(said.en).toBe(error.message);
    expect(said.en).toMatch(/^function_choice 'required' needs the tools API/);
    expect(said.zh).toBe(`发给模型的请求无效：${error.message}`);
  });

  it('in a ReAct run too', async () => {
    env.server.setScenario({
      fallback: { fault: { kind: 'status', status: 502, body: { error: { message: 'bad gateway' } } } },
    });
    const said = shown(await collectEvents(new ReActChat({ llm: llm() }).runEvents([{ role: 'user', content: 'hi' }])));
    expect(said.en).toBe('Model server error 502: bad gateway');
    expect(said.zh).toBe('模型服务器返回了错误 502：bad gateway');
  });

  it('inside a ParallelDocQA reader’s error: whose it was, then the error, each in the page’s language', async () => {
    const notes = path.join(env.dir, 'notes.txt');
    await writeFile(notes, 'The vault code is 4417. The porter keeps the spare key.\n');
    env.server.setScenario({
      fallback: { fault: { kind: 'status', status: 500, body: { error: { message: 'the GPU fell over' } } } },
    });
    const events = await collectEvents(
      new ParallelDocQA({ llm: llm() }).runEvents([{ role: 'user', content: [{ file: notes }, { text: 'Code?' }] }]),
    );
    expect(ofType(events, 'run-end').at(-1)!.error).toMatchObject({
      code: 'model-http',
      agent: expect.stringMatching(/^Reader 1: notes\.txt/),
    });
    const said = shown(events);
    expect(said.en).toMatch(/Reader 1: notes\.txt, chunk 1 \(.*\): Model server error 500: the GPU fell over$/);
    expect(said.zh).toMatch(/Reader 1: notes\.txt, chunk 1 \(.*\)：模型服务器返回了错误 500：the GPU fell over$/);
    expect(said.zh).not.toContain('error id');
  });
});
