// Plugins as the app loads them (lib/plugins), in a plain Node process, from a folder outside this checkout: tools
// and agents of good modules (an .mjs, a .ts with type annotations, an agent export file), a broken module named
// with its error while the others load, `@agent-studio/core` resolved to the process's own core (one registry),
// and a changed file loaded again.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createTranslator } from 'next-intl';
import { afterEach, describe, expect, it } from 'vitest';
import type { PluginFailure } from '../../lib/chat/page';
import en from '../../lib/i18n/messages/en.json';
import zhCN from '../../lib/i18n/messages/zh-CN.json';

const root = path.resolve(__dirname, '../..');
const fixtures = path.join(root, 'test/fixtures/plugins');
const TOOL_ARGS = {
  plugin_weather: { city: 'Oslo' },
  plugin_add: { a: 2, b: 3 },
  plugin_shout: { text: 'hi' },
};

interface Report {
  agents: { id: string; name: string; plugin: string; tools: string[]; systemMessage: string; suggestions: string[] }[];
  tools: Record<string, { inRegistry: boolean; answer?: string }>;
  failures: PluginFailure[];
  served?: string;
}

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

/** A plugins folder outside the checkout holding the fixture files named. */
function pluginsDir(...files: string[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'plugins-'));
  dirs.push(dir);
  for (const f of files) cpSync(path.join(fixtures, f), path.join(dir, f));
  return dir;
}

/** Starts the probe; `next()` resolves with each report it prints, `stderr` holds what it logged. */
function probe(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/plugins-probe.ts', ...args], {
    cwd: root,
    env: { ...process.env, TOOL_ARGS: JSON.stringify(TOOL_ARGS) },
  });
  const out = { stderr: '' };
  child.stderr.on('data', (d) => (out.stderr += d));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    out,
    async next(): Promise<Report> {
      const line = await lines.next();
      if (line.done) throw new Error(`the probe ended: ${out.stderr}`);
      return JSON.parse(line.value) as Report;
    },
    stop: () => child.kill(),
  };
}

describe('the plugins folder', () => {
  it('loads tools and agents of .mjs and .ts modules outside the checkout, and names a broken one', async () => {
    const dir = pluginsDir('weather.mjs', 'typed.ts', 'exported-agent.mjs', 'broken.mjs');
    const p = probe([dir]);
    const report = await p.next();
    p.stop();
    // Tools keep their names and run; they are in this process's registry (the core the plugins imported).
    expect(report.tools).toEqual({
      plugin_weather: { inRegistry: true, answer: 'Oslo: 23°C and clear (plugin weather)' },
      plugin_add: { inRegistry: true, answer: '5' },
      plugin_shout: { inRegistry: true, answer: 'HI' },
    });
    // An agent in Qwen-Agent's field names, and one in the Agents page's export file format.
    expect(report.agents).toEqual([
      expect.objectContaining({
        id: 'plugin:Shouter',
        name: 'Shouter',
        plugin: 'exported-agent.mjs',
        tools: ['plugin_shout'],
        systemMessage: 'Shout.',
      }),
      expect.objectContaining({
        id: 'plugin:Weather Desk',
        plugin: 'weather.mjs',
        tools: ['plugin_weather'],
        systemMessage: 'You tell the weather. Use plugin_weather.',
        suggestions: ['Weather in Lisbon?'],
      }),
    ]);
    // The broken module: named with its error, in the report and in the server's output; its class not registered.
    expect(report.failures).toEqual([{ file: 'broken.mjs', error: 'the weather service key is missing' }]);
    expect(p.out.stderr).toContain('Plugin broken.mjs failed to load: the weather service key is missing');
    expect(report.tools).not.toHaveProperty('plugin_half');
  }, 30_000);

  it('refuses a tool name another plugin registered, a bad agent, and a module with nothing in it', async () => {
    const dir = pluginsDir('weather.mjs');
    writeFileSync(path.join(dir, 'again.mjs'), readFileSync(path.join(fixtures, 'weather.mjs'), 'utf8'));
    writeFileSync(path.join(dir, 'empty.mjs'), 'export const nothing = 1;\n');
    writeFileSync(path.join(dir, 'bad-agent.mjs'), "export const agent = { name: '', tools: [] };\n");
    const p = probe([dir]);
    const report = await p.next();
    p.stop();
    // Files load in name order: again.mjs has the name first. Each refusal of the loader carries its code.
    expect(report.failures).toEqual([
      {
        file: 'bad-agent.mjs',
        error: 'agents[0]: name: An agent needs a name.',
        code: 'agent-name-missing',
        at: 'agents[0]',
      },
      { file: 'empty.mjs', error: 'it exports no tools and no agents', code: 'plugin-empty' },
      {
        file: 'weather.mjs',
        error: expect.stringContaining("Tool 'plugin_weather' is already registered"),
        code: 'tool-name-taken',
        values: { name: 'plugin_weather' },
      },
    ]);
    expect(Object.keys(report.tools)).toEqual(['plugin_weather']);
  }, 30_000);

  it('says each refusal of a module by a code, which the admin’s page says in Chinese', async () => {
    const dir = pluginsDir();
    const files: Record<string, string> = {
      'a-twin.mjs': "export const agent = { name: 'Twin' };",
      'b-twin.mjs': "export const agent = { name: 'Twin' };",
      'boss.mjs': "export const agents = [{ name: 'Boss', kind: 'router', members: ['Nobody'] }];",
      'documents.mjs': "export const agent = { name: 'Reader', documents: [] };",
      'not-object.mjs': "export const agents = ['Ada'];",
      'other-schema.mjs': "export const agent = { schema: 'agent-studio.agent/2', agent: { name: 'X' } };",
      'plain-tools.mjs': 'export const tools = [{ name: "not_a_class" }];',
      'bad-tool.mjs': [
        "import { BaseTool } from '@agent-studio/core';",
        'export class Odd extends BaseTool {',
        "  name = 'plugin_odd';",
        "  description = 'Odd';",
        "  parameters = { type: 'array' };",
        '}',
      ].join('\n'),
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), `${text}\n`);
    const p = probe([dir]);
    const report = await p.next();
    p.stop();
    expect(report.agents.map((a) => a.name)).toEqual(['Twin']);
    const catalog = (locale: 'en' | 'zh-CN') => {
      const messages = (locale === 'en' ? en : zhCN) as typeof en;
      return {
        errors: createTranslator({ locale, messages, namespace: 'errors' }),
        agents: createTranslator({ locale, messages, namespace: 'agents' }),
      };
    };
    const say = { en: catalog('en'), zh: catalog('zh-CN') };
    // As the Agents list says it to the admin (components/agents/agents-panel.tsx).
    const shown = (t: typeof say.en, f: Report['failures'][number]) => {
      const error = f.code ? t.errors(f.code, f.values) : f.error;
      return f.at
        ? t.agents('pluginFailedAt', { file: f.file, at: f.at, error })
        : t.agents('pluginFailed', { file: f.file, error });
    };
    expect(Object.fromEntries(report.failures.map((f) => [f.file, shown(say.zh, f)]))).toEqual({
      'b-twin.mjs': '插件 b-twin.mjs 未能加载：agents[0]：另一个插件已有名为“Twin”的智能体。',
      'bad-tool.mjs':
        '插件 bad-tool.mjs 未能加载：工具“plugin_odd”的声明有误：parameters.type must be \'object\' (got "array")',
      'boss.mjs': '插件 boss.mjs 未能加载：“Boss”的成员“Nobody”不是在它之前加载的插件智能体。',
      'documents.mjs': '插件 documents.mjs 未能加载：agents[0]：来自代码的智能体没有文档。',
      'not-object.mjs': '插件 not-object.mjs 未能加载：agents[0]：智能体是一个带有名称和类型的对象。',
      'other-schema.mjs':
        '插件 other-schema.mjs 未能加载：agents[0]：智能体导出文件的 “schema” 须是 “agent-studio.agent/1”。',
      'plain-tools.mjs': '插件 plain-tools.mjs 未能加载：“tools” 的每一项都须是继承 BaseTool 的类。',
    });
    expect(
      shown(
        say.en,
        report.failures.find((f) => f.file === 'boss.mjs')!,
      ),
    ).toBe('The plugin boss.mjs did not load: “Boss”: its member “Nobody” is not a plugin agent loaded before it.');
    // The server's output keeps its English line.
    expect(p.out.stderr).toContain('Plugin boss.mjs failed to load: Boss: its member "Nobody" is not a plugin agent');
  }, 30_000);

  it('loads a changed file again: its new tool answers, a removed file’s failure goes', async () => {
    const dir = pluginsDir('weather.mjs', 'broken.mjs');
    const p = probe([dir, '--watch']);
    try {
      const first = await p.next();
      expect(first.tools.plugin_weather?.answer).toBe('Oslo: 23°C and clear (plugin weather)');
      expect(first.failures.map((f) => f.file)).toEqual(['broken.mjs']);
      const file = path.join(dir, 'weather.mjs');
      writeFileSync(file, readFileSync(file, 'utf8').replace('23°C and clear', '5°C and snowing'));
      unlinkSync(path.join(dir, 'broken.mjs'));
      let report = await p.next();
      // The watcher may see the two changes apart: read until both are in.
      while (report.failures.length || !report.tools.plugin_weather?.answer?.includes('snowing'))
        report = await p.next();
      expect(report.tools.plugin_weather).toEqual({
        inRegistry: true,
        answer: 'Oslo: 5°C and snowing (plugin weather)',
      });
      expect(report.agents.map((a) => a.name)).toEqual(['Weather Desk']);
    } finally {
      p.stop();
    }
  }, 60_000);

  it('loads the module `npm run serve` names beside the folder: its first agent is the served one', async () => {
    const dir = pluginsDir('exported-agent.mjs');
    const served = path.join(pluginsDir('weather.mjs'), 'weather.mjs');
    const p = probe([dir, served]);
    const report = await p.next();
    p.stop();
    expect(report.served).toBe('Weather Desk');
    expect(report.agents.map((a) => [a.name, a.plugin])).toEqual([
      ['Shouter', 'exported-agent.mjs'],
      ['Weather Desk', 'weather.mjs'],
    ]);
  }, 30_000);
});
