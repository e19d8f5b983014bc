// The agent core as an npm package, as a new project gets it: `npm run build:core`, `npm pack`, the tarball installed
// into a fresh project outside this checkout (its dependencies from npm's cache or the registry, never from here),
// then plain `node` runs an FnCallAgent with a custom tool against the scripted model server, a missing optional
// peer fails with a message naming it, `serve` and the `agent-studio` bin are there, and `tsc` (strict, `module`/`moduleResolution` nodenext, libraries checked)
// type-checks a consumer file. The TypeScript and JavaScript examples of the READMEs and of docs/*.md, copied as they
// are (only the model server's address swapped for the scripted one), type-check there and run, with `tsx`, or as a
// plugin is loaded; what each one's marker says (test/support/doc-examples.ts).
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { docExamples } from '../support/doc-examples';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');
const fixtures = path.join(root, 'test/fixtures/core-package');
const pins = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  devDependencies: Record<string, string>;
};

let server: ModelServer;
let project: string;

/** What a script of the project printed last (one JSON line). */
async function node(script: string): Promise<unknown> {
  const { stdout } = await run(process.execPath, [script], {
    cwd: project,
    // Nothing of this checkout's environment but the basics (no NODE_OPTIONS, no loader).
    env: { NODE_ENV: 'production', PATH: process.env.PATH, HOME: process.env.HOME, MODEL_URL: server.url },
    timeout: 60_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

beforeAll(async () => {
  server = await createModelServer({
    scenario: {
      rules: [
        {
          when: { lastUserIncludes: 'Paris' },
          reply: [{ toolCalls: [{ name: 'get_weather', arguments: '{"city": "Paris"}' }] }, { content: 'Sunny.' }],
        },
        {
          when: { lastUserIncludes: 'Rome' },
          reply: [{ toolCalls: [{ name: 'get_weather', arguments: '{"city": "Rome"}' }] }, { content: 'Warm.' }],
        },
      ],
    },
  });
  project = mkdtempSync(path.join(tmpdir(), 'core-consumer-'));
  await run('npm', ['run', '--silent', 'build:core'], { cwd: root, timeout: 300_000 });
  const { stdout } = await run('npm', ['pack', '--silent', '--pack-destination', project], {
    cwd: path.join(root, 'packages/core'),
  });
  const tarball = path.join(project, stdout.trim().split('\n').at(-1)!);
  writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  // --prefer-offline: what `npm ci` of this checkout put in npm's cache is used as it is; the rest comes from the
  // registry. No path of this checkout is given but the tarball's.
  await run(
    'npm',
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      tarball,
      `typescript@${pins.devDependencies.typescript}`,
      `@types/node@${pins.devDependencies['@types/node']}`,
      `tsx@${pins.devDependencies.tsx}`,
    ],
    { cwd: project, timeout: 300_000 },
  );
  for (const file of ['run.mjs', 'missing-peer.mjs', 'consumer.ts', 'tsconfig.json'])
    copyFileSync(path.join(fixtures, file), path.join(project, file));
}, 600_000);

afterAll(async () => {
  await server?.close();
  if (project) rmSync(project, { recursive: true, force: true });
}, 60_000);

describe('@agent-studio/core from its tarball, in a fresh project', () => {
  it('installs the package under its name and version, without the optional peers', () => {
    const installed = JSON.parse(
      readFileSync(path.join(project, 'node_modules/@agent-studio/core/package.json'), 'utf8'),
    ) as { name: string; version: string; peerDependencies: Record<string, string> };
    expect(installed.name).toBe('@agent-studio/core');
    expect(installed.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(Object.keys(installed.peerDependencies)).toEqual(
      expect.arrayContaining(['pyodide', 'pdfjs-dist', '@modelcontextprotocol/sdk', 'node-llama-cpp']),
    );
    const lock = readFileSync(path.join(project, 'package-lock.json'), 'utf8');
    expect(lock).not.toContain('node_modules/pyodide"');
    expect(lock).not.toContain('node_modules/@modelcontextprotocol/sdk"');
  });

  it('runs an FnCallAgent with a custom tool in plain node against the model server', async () => {
    const out = (await node('run.mjs')) as {
      calls: string[];
      text: string;
      messages: { role: string; content: string; name?: string }[];
      registered: boolean;
    };
    expect(out.calls).toEqual(['Paris', 'Rome']);
    expect(out.text).toBe('Sunny.');
    expect(out.registered).toBe(true);
    expect(out.messages.map((m) => m.role)).toEqual(['assistant', 'function', 'assistant']);
    expect(out.messages[1]).toMatchObject({ name: 'get_weather', content: 'Rome: 21°C, sunny' });
    expect(out.messages[2]).toMatchObject({ content: 'Warm.', name: 'weather-bot' });
    // Every model request came from the installed package, with the custom tool offered.
    const last = server.requests.at(-1)!.body as { tools?: { function: { name: string } }[] };
    expect(last.tools?.map((t) => t.function.name)).toEqual(['get_weather', 'calculator']);
  }, 60_000);

  it('names the optional package to install when a feature needs one that is missing', async () => {
    expect(await node('missing-peer.mjs')).toEqual({
      name: 'MissingPackageError',
      message: expect.stringContaining('npm install @modelcontextprotocol/sdk'),
    });
  }, 60_000);

  it('ships serve() and the agent-studio bin, which say where the app must be when it is not given', async () => {
    const env = { NODE_ENV: 'production' as const, PATH: process.env.PATH, HOME: process.env.HOME };
    writeFileSync(path.join(project, 'my-agent.mjs'), "export const agent = { name: 'Mine' };\n");
    const bin = path.join(project, 'node_modules/.bin/agent-studio');
    const usage = await run(bin, [], { cwd: project, env }).catch((e: { code: number; stderr: string }) => e);
    expect(usage).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('usage: agent-studio serve <my-agent.mjs>'),
    });
    const noApp = await run(bin, ['serve', 'my-agent.mjs'], { cwd: project, env }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(noApp).toMatchObject({ code: 1, stderr: expect.stringContaining('Set AGENT_STUDIO_APP') });
    writeFileSync(
      path.join(project, 'serve-check.mjs'),
      "import { serve } from '@agent-studio/core/serve';\n" +
        "const e = await serve('./nowhere.mjs').catch((e) => e);\n" +
        'console.log(JSON.stringify({ type: typeof serve, message: e.message }));\n',
    );
    expect(await node('serve-check.mjs')).toEqual({
      type: 'function',
      message: expect.stringMatching(/^serve: .*nowhere\.mjs does not exist\.$/),
    });
  }, 60_000);

  it('type-checks a strict nodenext consumer against the declarations', async () => {
    const tsc = path.join(project, 'node_modules/typescript/bin/tsc');
    const result = await run(process.execPath, [tsc, '-p', '.'], { cwd: project, timeout: 180_000 }).catch(
      (e: { stdout: string }) => ({ stdout: e.stdout, failed: true }),
    );
    expect(result.stdout).toBe('');
    expect('failed' in result).toBe(false);
  }, 180_000);
});

// The address the docs' examples talk to; the test points it at the scripted model server.
const DOCUMENTED_SERVER = 'http://localhost:8000/v1';
const EXAMPLES = docExamples(root);
const checked = (lang: 'ts' | 'mjs') => EXAMPLES.filter((e) => e.file.endsWith(`.${lang}`)).map((e) => e.file);

describe('the docs’ TypeScript and JavaScript examples, as a reader copies them into a fresh project', () => {
  let docsServer: ModelServer;
  beforeAll(async () => {
    // Either call format the examples use: native tool calls when tools are offered, Nous-style text otherwise;
    // the answer only once the tool's result is back.
    docsServer = await createModelServer({
      scenario: {
        rules: [
          { when: { anyIncludes: 'Paris: 21°C, sunny' }, reply: { content: 'Sunny in Paris.' } },
          {
            when: { lastUserIncludes: 'Paris', hasTools: true },
            reply: { toolCalls: [{ name: 'get_weather', arguments: '{"city": "Paris"}' }] },
          },
          {
            when: { lastUserIncludes: 'Paris', hasTools: false },
            reply: { content: '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>' },
          },
        ],
      },
    });
    for (const { file, code } of EXAMPLES)
      writeFileSync(path.join(project, file), code.replaceAll(DOCUMENTED_SERVER, docsServer.url));
    copyFileSync(path.join(fixtures, 'run-plugin.mjs'), path.join(project, 'run-plugin.mjs'));
    writeFileSync(
      path.join(project, 'tsconfig.docs.json'),
      JSON.stringify({ extends: './tsconfig.json', files: checked('ts') }),
    );
    // JavaScript is checked too (imports, names, calls), without asking it for the annotations it cannot have.
    writeFileSync(
      path.join(project, 'tsconfig.docs-js.json'),
      JSON.stringify({
        extends: './tsconfig.json',
        compilerOptions: { allowJs: true, checkJs: true, noImplicitAny: false },
        files: checked('mjs'),
      }),
    );
  });
  afterAll(async () => {
    await docsServer?.close();
  });

  it('finds the examples of the READMEs and of the developer docs; those that talk to a model server use the documented address', () => {
    expect(new Set(EXAMPLES.map((e) => e.doc))).toEqual(
      new Set(['README.md', 'packages/core/README.md', 'docs/core.md', 'docs/models.md', 'docs/qwen-agent.md']),
    );
    for (const { code, mode } of EXAMPLES)
      if (mode !== 'check' && /baseURL|model_server/.test(code)) expect(code).toContain(DOCUMENTED_SERVER);
  });

  it.each(['tsconfig.docs.json', 'tsconfig.docs-js.json'])(
    'type-check (strict, nodenext) against the installed declarations: %s',
    async (tsconfig) => {
      const tsc = path.join(project, 'node_modules/typescript/bin/tsc');
      const result = await run(process.execPath, [tsc, '-p', tsconfig], {
        cwd: project,
        timeout: 180_000,
      }).catch((e: { stdout: string }) => ({ stdout: e.stdout, failed: true }));
      expect(result.stdout).toBe('');
      expect('failed' in result).toBe(false);
    },
    180_000,
  );

  it.each(EXAMPLES.filter((e) => e.mode !== 'check'))(
    '$doc:$line ($mode) runs cleanly and prints what it says',
    async ({ file, mode, prints }) => {
      const [command, args] =
        mode === 'plugin'
          ? [process.execPath, ['run-plugin.mjs', file]]
          : [path.join(project, 'node_modules/.bin/tsx'), [file]];
      const result = await run(command, args, {
        cwd: project,
        env: { NODE_ENV: 'production', PATH: process.env.PATH, HOME: process.env.HOME, MODEL_URL: docsServer.url },
        timeout: 60_000,
      }).catch((e: { stdout: string; stderr: string }) => ({ stdout: e.stdout, stderr: e.stderr, failed: true }));
      expect(result.stderr).toBe('');
      expect('failed' in result).toBe(false);
      if (prints !== undefined) expect(result.stdout).toContain(prints);
    },
    60_000,
  );
});
