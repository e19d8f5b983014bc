// The built-in local model on real parts: a GGUF the suite writes itself (scripts/tiny-gguf: llama architecture,
// random weights, byte-level BPE vocabulary, ChatML template with tools), loaded by the real node-llama-cpp in the
// real worker thread, on the CPU. It streams, stops on abort, counts tokens exactly, and with a JSON-schema grammar
// makes a tool call that our parsers read and FnCallAgent runs.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentEventSchema, FnCallAgent } from '../../lib/agent';
import { loadConfig } from '../../lib/config';
import { createChatModel } from '../../lib/llm';
import { DeferredLocalModel } from '../../lib/llm/local/deferred-model';
import { LocalChatModel, type LocalModelOptions } from '../../lib/llm/local/local-model';
import { resolveLocalModel } from '../../lib/llm/local/models-dir';
import { localModelHost, LocalModelHost } from '../../lib/llm/local/worker-host';
import { isAbortError } from '../../lib/llm/retry';
import { writeTinyModel } from '../../scripts/tiny-gguf/tiny-model';
import { BaseTool } from '../../tools';
import { collectChat, collectEvents, ofType } from '../support/run';

const file = path.join(mkdtempSync(path.join(tmpdir(), 'local-model-')), 'tiny.gguf');
const host = new LocalModelHost();
const load = { gpu: false as const, threads: 1, contextSize: 2048 };
const localModel = (extra: Partial<LocalModelOptions> = {}) =>
  new LocalChatModel({ file, host, load, generateCfg: { temperature: 0 }, ...extra });

beforeAll(() => {
  writeTinyModel(file);
});
afterAll(() => Promise.all([host.close(), localModelHost().close()]));

/** A weather tool whose city is one of a few: under the grammar, even random weights finish the call quickly. */
class CityWeather extends BaseTool {
  name = 'city_weather';
  description = 'Current weather in a city';
  parameters = {
    type: 'object',
    properties: {
      city: { type: 'string', enum: ['Paris', 'Tokyo', 'Lima'] },
      unit: { type: 'string', enum: ['c', 'f'] },
    },
    required: ['city'],
  };
  calls: { city: string }[] = [];
  async call(params: string) {
    const args = this.parseArgs<{ city: string }>(params);
    this.calls.push(args);
    return `${args.city}: 21°C, sunny`;
  }
}

const question = [{ role: 'user' as const, content: 'What is the weather in Paris?' }];

describe('LocalChatModel on a GGUF written by the suite', () => {
  it('loads it once with its own chat template and reports how it runs', async () => {
    const a = localModel();
    const info = await a.info();
    expect(info).toMatchObject({ gpu: false, chatWrapper: 'JinjaTemplate', templateTools: true, contextSize: 2048 });
    expect(await localModel().info()).toBe(info); // a second model object on the same file reuses the loaded one
    expect(a.model).toBe('tiny');
  });

  it('streams the answer as it is generated, with usage counted by the model', async () => {
    const { events, result, text } = await collectChat(localModel(), { messages: question, cfg: { max_tokens: 600 } });
    // The worker sends the first token at once, then what came in each 16 ms.
    const deltas = events.filter((e) => e.type === 'text');
    expect(deltas.length).toBeGreaterThan(5);
    expect(result.ttftMs!).toBeLessThan(result.durationMs / 4);
    expect(result.messages).toEqual([{ role: 'assistant', content: text }]);
    expect(result.finishReason).toBe('length');
    expect(result.usage?.completionTokens).toBe(600);
    const request = events.find((e) => e.type === 'request');
    expect(request).toMatchObject({ format: 'none', request: { model: 'tiny', params: { max_tokens: 600 } } });
  });

  it('stops when aborted, long before max_tokens', async () => {
    const controller = new AbortController();
    let received = '';
    const model = localModel();
    const run = model.chat({ messages: question, signal: controller.signal, cfg: { max_tokens: 3000 } }, (e) => {
      if (e.type !== 'text') return;
      received += e.text;
      controller.abort();
    });
    const error = await run.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isAbortError(error)).toBe(true);
    expect(await model.countTokens(received)).toBeLessThan(300); // of 3000: it stopped at once
    // The worker is free again at once: the next call answers in full.
    const next = await model.chat({ messages: question, cfg: { max_tokens: 5 } });
    expect(next.usage?.completionTokens).toBe(5);
  });

  it('counts tokens exactly as llama.cpp tokenizes and as the prompt is rendered', async () => {
    const { getLlama, JinjaTemplateChatWrapper } = await import('node-llama-cpp');
    const llama = await getLlama({ gpu: false, build: 'never' });
    const model = await llama.loadModel({ modelPath: file });
    try {
      const local = localModel();
      for (const text of [
        'Hello world',
        'The weather in Paris is sunny, 21 degrees.',
        '北京天气怎么样？',
        '<tool_call>',
      ])
        expect(await local.countTokens(text), text).toBe(model.tokenize(text).length);
      expect(await local.countTokens('<tool_call>')).toBe(1); // Qwen's user-defined token stays one token

      const messages = [{ role: 'system' as const, content: 'Be brief.' }, ...question];
      const wrapper = new JinjaTemplateChatWrapper({
        template: model.fileInfo.metadata.tokenizer.chat_template!,
        tokenizer: model.tokenizer,
      });
      const rendered = wrapper.generateContextState({
        chatHistory: [
          { type: 'system', text: 'Be brief.' },
          { type: 'user', text: question[0]!.content },
          { type: 'model', response: [] },
        ],
      });
      const expected = rendered.contextText.tokenize(model.tokenizer).length;
      expect(await local.countPromptTokens(messages)).toBe(expected);
      const r = await local.chat({ messages, cfg: { max_tokens: 3 } });
      expect(r.usage).toEqual({ promptTokens: expected, completionTokens: 3, totalTokens: expected + 3 });
    } finally {
      await model.dispose();
    }
  });

  it('streams what the model writes inside <think> as reasoning, apart from the answer', async () => {
    // A variant that writes <think> at every step: node-llama-cpp opens a thought segment on the first one.
    const thinker = path.join(path.dirname(file), 'thinker.gguf');
    writeTinyModel(thinker, { favour: ['<think>'] });
    const { events, result, reasoning } = await collectChat(localModel({ file: thinker }), {
      messages: question,
      cfg: { max_tokens: 12 },
    });
    expect(events.filter((e) => e.type === 'reasoning').length).toBeGreaterThan(0);
    expect(events.filter((e) => e.type === 'text')).toEqual([]);
    expect(reasoning).toBe('<think>'.repeat(11));
    expect(result.messages).toEqual([{ role: 'assistant', content: '', reasoning_content: reasoning }]);
    expect(result.usage?.completionTokens).toBe(12);
  });

  it('ends the answer at a stop word', async () => {
    const model = localModel();
    const full = (await collectChat(model, { messages: question, cfg: { max_tokens: 30 } })).text;
    const stopWord = full.slice(12, 16);
    expect(stopWord.length).toBe(4);
    const cut = await collectChat(model, { messages: question, cfg: { max_tokens: 30, stop: [stopWord] } });
    expect(cut.result.finishReason).toBe('stop');
    expect(full.startsWith(cut.text)).toBe(true);
    expect(cut.text.length).toBeLessThanOrEqual(12);
    expect(cut.text).not.toContain(stopWord);
  });

  it("in qwen mode sends the template's stop words on a call without tools too, as upstream's qwen model does", async () => {
    const { events } = await collectChat(localModel({ fncallMode: 'qwen' }), {
      messages: question,
      cfg: { max_tokens: 4, stop: ['END'] },
    });
    const request = events.find((e) => e.type === 'request');
    expect(request).toMatchObject({ format: 'none', request: { stop: ['END', '✿RESULT✿', '✿RETURN✿'] } });
  });

  it("writes its prompts in generate_cfg.lang when the caller gives none, as upstream's models do", async () => {
    const tool = new CityWeather();
    const request = async (cfg: Record<string, unknown>) => {
      const { events } = await collectChat(localModel({ fncallMode: 'qwen' }), {
        messages: question,
        functions: [tool.function],
        cfg: { max_tokens: 2, ...cfg },
      });
      return JSON.stringify(events.find((e) => e.type === 'request'));
    };
    expect(await request({})).toContain('# Tools');
    const zh = await request({ lang: 'zh' });
    expect(zh).toContain('# 工具');
    expect(zh).not.toContain('# Tools');
  });

  describe.each(['nous', 'native'] as const)('a tool call required in %s mode', (mode) => {
    it('is produced under the grammar, parses, and runs through FnCallAgent', async () => {
      const tool = new CityWeather();
      const agent = new FnCallAgent({
        llm: localModel({ fncallMode: mode, generateCfg: { temperature: 0, function_choice: 'city_weather' } }),
        functionList: [tool],
        maxLlmCalls: 2,
      });
      const events = await collectEvents(agent.runEvents(question, { generateCfg: { max_tokens: 200 } }));
      for (const e of events) AgentEventSchema.parse(e);
      const end = ofType(events, 'run-end')[0]!;
      expect(end.error).toBeUndefined();
      expect(end.reason).toBe('max-iterations'); // the call is required on every model call of the run

      const calls = ofType(events, 'tool-call');
      expect(calls).toHaveLength(2);
      for (const c of calls) {
        expect(c.name).toBe('city_weather');
        expect(['Paris', 'Tokyo', 'Lima']).toContain(JSON.parse(c.arguments).city);
      }
      expect(tool.calls).toHaveLength(2);
      const results = ofType(events, 'tool-result');
      expect(results.map((r) => r.ok)).toEqual([true, true]);
      for (const llmEnd of ofType(events, 'llm-end')) expect(llmEnd.parseErrors).toBeUndefined();

      // The second request carries the first call and its result back, in the form the mode writes them.
      const second = ofType(events, 'llm-start')[1]!;
      const sent = JSON.stringify(second.request!.messages);
      expect(sent).toContain('21°C, sunny');
      if (mode === 'nous') {
        expect(second.format).toBe('nous');
        expect(sent).toContain('<tool_call>\\n{\\"name\\": \\"city_weather\\"');
        expect(sent).toContain('<tool_response>');
      } else {
        expect(second.format).toBe('native');
        expect(second.request!.tools).toHaveLength(1);
        expect(sent).toContain('"tool_calls"');
      }
    });

    it('with function_choice "required", calls one of the functions', async () => {
      const tool = new CityWeather();
      const model = localModel({ fncallMode: mode });
      const r = await model.chat({
        messages: question,
        functions: [tool.function, { name: 'noop', description: 'Does nothing', parameters: { type: 'object' } }],
        cfg: { function_choice: 'required', max_tokens: 200 },
      });
      const call = r.messages.find((m) => m.function_call)!;
      expect(['city_weather', 'noop']).toContain(call.function_call!.name);
      expect(() => JSON.parse(call.function_call!.arguments)).not.toThrow();
      expect(r.parseErrors).toEqual([]);
      expect(r.raw?.content).toContain('<tool_call>');
    });
  });

  it('refuses a function_choice that names no function', async () => {
    const tool = new CityWeather();
    await expect(
      localModel({ fncallMode: 'nous' }).chat({
        messages: question,
        functions: [tool.function],
        cfg: { function_choice: 'nope' },
      }),
    ).rejects.toThrow(/function_choice must be 'auto', 'none', 'required' or one of the functions \(got 'nope'\)/);
  });

  it('embeds texts with the GGUF for vector search: one vector per text, the same text the same vector', async () => {
    const embedder = localModel().embedder();
    expect(embedder.id).toBe('local:tiny.gguf');
    const [a, b, again] = await embedder.embed([
      'the harbour opens at dawn',
      'taxes are due in April',
      'the harbour opens at dawn',
    ]);
    expect(a).toBeInstanceOf(Float32Array);
    expect(a!.length).toBeGreaterThan(0);
    expect(b!.length).toBe(a!.length);
    expect(Array.from(again!)).toEqual(Array.from(a!));
    expect(Array.from(b!)).not.toEqual(Array.from(a!));
    expect(a!.every((x) => Number.isFinite(x))).toBe(true);
    // Another model of the models folder only by its .gguf file name.
    expect(() => localModel().embedder('../elsewhere/model.gguf')).toThrow(
      /not a \.gguf file name in the models folder/,
    );
    expect(localModel().embedder('bge-small.gguf').id).toBe('local:bge-small.gguf');
  });

  it('says clearly when the file cannot be loaded', async () => {
    const missing = new LocalChatModel({ file: path.join(path.dirname(file), 'missing.gguf'), host, load });
    await expect(missing.chat({ messages: question })).rejects.toThrow(/local model missing\.gguf could not be loaded/);
  });
});

describe('createChatModel with a configuration that names a GGUF file', () => {
  it('builds the local model, run as the LOCAL_MODEL_* settings say, and FnCallAgent runs its tool call', async () => {
    const dataDir = path.join(path.dirname(file), 'data');
    mkdirSync(path.join(dataDir, 'models'), { recursive: true });
    writeTinyModel(path.join(dataDir, 'models', 'tiny.gguf'));
    const settings = { DATA_DIR: dataDir, LOCAL_MODEL_GPU: 'off', LOCAL_MODEL_CONTEXT_SIZE: '1024' };
    const config = loadConfig({ ...settings, LOCAL_MODEL_THREADS: '1' });
    const llm = createChatModel({
      fncallMode: 'nous',
      generateCfg: { temperature: 0, function_choice: 'city_weather' },
      maxInputTokens: config.llm.maxInputTokens,
      local: { file: resolveLocalModel(config.localModels.dir, 'tiny.gguf'), ...config.localModels },
    });
    expect(llm).toBeInstanceOf(DeferredLocalModel);
    expect(llm).toMatchObject({ model: 'tiny', fncallMode: 'nous' });
    const local = await (llm as DeferredLocalModel).local();
    expect(local).toBeInstanceOf(LocalChatModel);
    expect(local.loadOptions).toEqual({ gpu: false, threads: 1, contextSize: 1024 });
    expect(await local.info()).toMatchObject({ gpu: false, contextSize: 1024, chatWrapper: 'JinjaTemplate' });

    const tool = new CityWeather();
    const agent = new FnCallAgent({ llm, functionList: [tool], maxLlmCalls: 1 });
    const events = await collectEvents(agent.runEvents(question, { generateCfg: { max_tokens: 200 } }));
    expect(ofType(events, 'llm-start')[0]).toMatchObject({ format: 'nous', request: { model: 'tiny' } });
    expect(ofType(events, 'run-end')[0]!.error).toBeUndefined();
    expect(tool.calls).toHaveLength(1);
    expect(['Paris', 'Tokyo', 'Lima']).toContain(tool.calls[0]!.city);

    // One thread is the default on 2 cores: another number shows the setting is what reaches the model.
    const { localModels } = loadConfig({ ...settings, LOCAL_MODEL_THREADS: '3' });
    const other = createChatModel({ local: { file: local.file, ...localModels } }) as DeferredLocalModel;
    expect((await other.local()).loadOptions).toEqual({ gpu: false, threads: 3, contextSize: 1024 });
  });
});
