// What `import { FnCallAgent } from './lib/agent'` loads in a plain Node process: the agent runtime, the tools'
// declarations and the model interface, but not the sandbox, the document parsers and search, or a model
// provider's SDK or the local model. Those load when an agent uses them (a code_interpreter call, a document search,
// createChatModel; the local model's code on its first call).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');

/**
 * Runs `body` (CommonJS, awaited, with `agent` = the lib/agent module) under tsx and returns every file it loaded.
 * tsx is imported whole (not only tsx/cjs) so the dynamic imports the code makes resolve as they do in the app.
 */
async function loadedBy(body: string): Promise<string[]> {
  const script = `
    const Module = require('node:module');
    const seen = new Set();
    const load = Module._load;
    Module._load = function (request, parent, isMain) {
      try { seen.add(Module._resolveFilename(request, parent, isMain)); } catch {}
      return load.apply(this, arguments);
    };
    const agent = require(${JSON.stringify(path.join(root, 'lib/agent'))});
    (async () => {
      ${body}
      process.stdout.write(JSON.stringify([...seen]));
    })();
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '-e', script], {
    cwd: root,
  });
  return (JSON.parse(stdout) as string[]).filter((f) => f.startsWith('/')).map((f) => path.relative(root, f));
}

const HEAVY = [
  /^lib\/sandbox\//,
  /^lib\/documents\/parse\//,
  // searchers.ts (the rag_searchers names, no imports) is read when a retrieval setting is checked; the rest is heavy.
  /^lib\/documents\/search\/(?!searchers\.ts$)/,
  /^node_modules\/openai\//,
  /^lib\/llm\/local\//,
  /^node_modules\/node-llama-cpp\//,
];
/** The local model's code behind the factory's stand-in (lib/llm/local/deferred-model.ts). */
const LOCAL_MODEL = /^lib\/llm\/local\/(local-model|worker-host|chat-history|grammar-schema)\.ts$|node-llama-cpp/;

describe('importing the agent core', () => {
  it('loads neither the sandbox, the document parsers and search, nor a model SDK', async () => {
    const files = await loadedBy('');
    expect(files).toContain('lib/agent/fncall-agent.ts');
    expect(files).toContain('tools/code-interpreter.ts'); // the builtin tools are registered...
    expect(files.filter((f) => HEAVY.some((re) => re.test(f)))).toEqual([]); // ...without what they run on
  }, 30_000);

  it('still loads none of them for an agent that is offered code_interpreter and retrieval but has not used them', async () => {
    const files = await loadedBy(`
      const model = { model: 'm', fncallMode: 'native', chat: async () => { throw new Error('not called'); } };
      new agent.FnCallAgent({ llm: model, functionList: ['calculator', 'code_interpreter', 'retrieval', 'doc_parser'] });
      new agent.Assistant({ llm: model });
      // Qwen-Agent's config dict: checked when the agent is made, its model's SDK loaded on the first call.
      new agent.FnCallAgent({ llm: { model: 'm', model_server: 'http://127.0.0.1:9/v1' } });
    `);
    expect(files.filter((f) => HEAVY.some((re) => re.test(f)))).toEqual([]);
  }, 30_000);

  it('builds a model for a GGUF file without loading the local model, which loads on first use', async () => {
    const files = await loadedBy(`
      const { createChatModel } = require(${JSON.stringify(path.join(root, 'lib/llm'))});
      const model = createChatModel({ local: { file: '/models/tiny.gguf', gpu: 'off', threads: 1 } });
      if (model.model !== 'tiny') throw new Error('named ' + model.model);
      seen.add(${JSON.stringify(path.join(root, '(first use)'))});
      await model.local();
    `);
    const firstUse = files.indexOf('(first use)');
    expect(firstUse).toBeGreaterThan(0);
    expect(files.slice(0, firstUse).filter((f) => LOCAL_MODEL.test(f))).toEqual([]);
    expect(files.slice(firstUse)).toContain('lib/llm/local/local-model.ts');
    expect(files.slice(firstUse)).toContain('lib/llm/local/worker-host.ts');
    // node-llama-cpp itself loads only in the worker thread, when a model is loaded.
    expect(files.filter((f) => f.includes('node-llama-cpp'))).toEqual([]);
  }, 30_000);
});
