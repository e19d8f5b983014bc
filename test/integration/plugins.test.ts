// Plugins as the app loads them (lib/plugins), in a plain Node process, from a folder outside this checkout: tools
// and agents of good modules (an .mjs, a .ts with type annotations, an agent export file), a broken module named
// with its error while the others load, `@agent-studio/core` resolved to the process's own core (one registry),
// and a changed file loaded again.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';

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
  failures: { file: string; error: string }[];
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
    // Files load in name order: again.mjs has the name first.
    expect(report.failures).toEqual([
      { file: 'bad-agent.mjs', error: 'agents[0]: name: An agent needs a name.' },
      { file: 'empty.mjs', error: 'it exports no tools and no agents' },
      { file: 'weather.mjs', error: expect.stringContaining("Tool 'plugin_weather' is already registered") },
    ]);
    expect(Object.keys(report.tools)).toEqual(['plugin_weather']);
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
