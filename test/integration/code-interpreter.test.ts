// code_interpreter with real Pyodide in real sandboxed child processes: Qwen-Agent's output shape, persistence,
// files in and out, and the sandbox's escapes (each must fail cleanly and leave this process and the tool usable).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileRef } from '../../lib/documents/file-ref';
import { saveUpload } from '../../lib/documents/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentEventSchema, FnCallAgent, foldEvents, type AgentEvent } from '../../lib/agent';
import { STOPPED_WHILE_RUNNING } from '../../lib/agent/tool-call';
import { createModelServer } from '../../scripts/model-server/server';
import { collectEvents, ofType } from '../support/run';
import { artifactResponse } from '../../lib/sandbox/artifact-response';
import { InterpreterPool } from '../../lib/sandbox/pool';
import { FINISHED_MESSAGE, RESTARTED, TIMEOUT_MESSAGE } from '../../lib/sandbox/format';
import { createTool, runTool, toolSettings, type ToolRunResult, type ToolSettings } from '../../tools';
import '../../tools'; // registers the builtin tools
import { codeWorkDir, codeWorkPrefix } from '../../tools/code-interpreter';
import { blobStore } from '../../lib/blob';
import { createChatModel } from '../../lib/llm';
import { loadConfig } from '../../lib/config';

const SLOW = 180_000; // interpreter start-up is seconds, more on a loaded machine
const dataDir = mkdtempSync(path.join(tmpdir(), 'code-interpreter-'));
const saved = { ...process.env };
/** What the tools get from the configuration (this file's environment), as a composition root makes it. */
let settings: ToolSettings;

beforeAll(() => {
  Object.assign(process.env, {
    DATA_DIR: dataDir,
    CODE_INTERPRETER_BACKEND: 'pyodide', // the CPython backend has its own file (code-interpreter-python.test.ts)
    CODE_INTERPRETER_TIMEOUT_MS: '8000',
    CODE_INTERPRETER_MEMORY_MB: '256',
    CODE_INTERPRETER_OUTPUT_CHARS: '1000',
  });
  settings = toolSettings(loadConfig());
});
afterAll(() => {
  settings.sandbox.shutdown();
  process.env = saved;
});

const tool = () => createTool('code_interpreter');

async function call(conversationId: string, args: string | Record<string, unknown>, files: string[] = []) {
  const raw = typeof args === 'string' ? args : JSON.stringify(args);
  return runTool(tool(), raw, { files, conversationId, lang: 'en', messages: [], settings });
}

/** What the model got, whether the code ran well or failed (a failed run's text is its result too). */
function text(r: ToolRunResult): string {
  expect(typeof r.content).toBe('string');
  return r.content as string;
}

/** How the call failed, as its tool-result says (undefined: it did not). */
function failure(r: ToolRunResult) {
  return r.ok ? undefined : r.error;
}

describe('code_interpreter: behaviour', () => {
  const conv = 'conv-main';

  it(
    'keeps variables between calls, shows stdout and the last expression, and says when nothing was printed',
    async () => {
      const first = await call(conv, { code: 'x = 20\nimport math' });
      expect(first.ok).toBe(true);
      expect(text(first)).toBe(FINISHED_MESSAGE);
      const out = text(await call(conv, { code: 'print(x + 1)\nmath.sqrt(x * 5)' }));
      expect(out).toBe('stdout:\n\n```\n21\n```\n\nexecute_result:\n\n```\n10.0\n```');
    },
    SLOW,
  );

  it(
    'accepts a fenced code block or bare code, as upstream does',
    async () => {
      expect(text(await call(conv, '```py\nprint("fenced", x)\n```'))).toContain('fenced 20');
      expect(text(await call(conv, 'x * 3'))).toContain('execute_result:\n\n```\n60\n```');
    },
    SLOW,
  );

  it(
    'reports an error with its traceback, and stderr separately; the call failed, its text is the result as it is',
    async () => {
      const r = await call(conv, {
        code: 'import sys\nprint("warn", file=sys.stderr)\ndef f():\n    return 1 / 0\nf()',
      });
      const out = text(r);
      expect(out).toContain('stderr:\n\n```\nwarn\n```');
      expect(out).toMatch(/error:\n\n```\nTraceback \(most recent call last\):/);
      expect(out).toContain('line 4, in f');
      expect(out).toContain('ZeroDivisionError: division by zero');
      expect(failure(r)).toEqual({
        kind: 'failed',
        type: 'ZeroDivisionError',
        message: 'ZeroDivisionError: division by zero',
      });

      const syntax = await call(conv, { code: 'def f(:\n  pass' });
      expect(text(syntax)).toMatch(/^error:\n\n```\n[\s\S]*SyntaxError/);
      expect(failure(syntax)).toMatchObject({ kind: 'failed', type: 'SyntaxError' });
    },
    SLOW,
  );

  it(
    'cuts long output and says how much was cut',
    async () => {
      const out = text(await call(conv, { code: 'print("y" * 5000)' }));
      expect(out).toContain('y'.repeat(1000));
      expect(out).not.toContain('y'.repeat(1001));
      expect(out).toContain('output cut: 4001 more characters not shown');
    },
    SLOW,
  );

  it(
    'a reset starts a fresh interpreter',
    async () => {
      const out = text(await call(conv, { code: 'x', reset: true }));
      expect(out).toContain("NameError: name 'x' is not defined");
    },
    SLOW,
  );

  it(
    "has the conversation's files in its working directory, and lists and serves the files it writes",
    async () => {
      // An upload, stored the way the app stores one; the message carries its reference.
      const saved = await saveUpload(
        (async function* () {
          yield Buffer.from('n\n3\n4\n5\n');
        })(),
        { dataDir, maxBytes: 1024, name: 'numbers.csv' },
      );
      const src = fileRef(saved.hash, 'numbers.csv');
      const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
      const code = [
        'import base64, csv',
        "rows = [int(r['n']) for r in csv.DictReader(open('numbers.csv'))]",
        "open('total.txt', 'w').write(str(sum(rows)))",
        `open('dot.png', 'wb').write(base64.b64decode('${png}'))`,
        'sum(rows)',
      ].join('\n');
      const r = await call('conv-files', { code }, [src]);
      const out = text(r);
      expect(out).toContain('execute_result:\n\n```\n12\n```');
      // An image as upstream gives its figures: Markdown with an address the answer can show it by.
      expect(out).toContain('\n\n![dot.png](/api/artifacts/conv-files/dot.png)\n\nfiles:\n\n- dot.png (');
      expect(out).not.toContain('](/api/artifacts/conv-files/total.txt)');
      expect(out).toContain('- total.txt (2 bytes)');
      expect(r.ok && r.files).toEqual([
        { name: 'dot.png', url: '/api/artifacts/conv-files/dot.png', mime: 'image/png', bytes: expect.any(Number) },
        { name: 'total.txt', url: '/api/artifacts/conv-files/total.txt', mime: 'text/plain; charset=utf-8', bytes: 2 },
      ]);
      // The staged input is not listed as written; running again without changes lists nothing.
      expect(out).not.toContain('numbers.csv');
      expect(text(await call('conv-files', { code: 'len(rows)' }, [src]))).not.toContain('files:');

      const [store, root] = [blobStore({ dataDir }), codeWorkPrefix('conv-files')];
      const res = await artifactResponse(store, root, ['total.txt']);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('12');
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(res.headers.get('content-disposition')).toContain('attachment; filename="total.txt"');
      const img = await artifactResponse(store, root, ['dot.png']);
      expect(img.headers.get('content-disposition')).toContain('inline');
      expect(img.headers.get('content-type')).toBe('image/png');
      for (const bad of [['..', 'conv-main'], ['..', '..', 'upload', 'numbers.csv'], ['a/../../x'], ['/etc/passwd']])
        expect((await artifactResponse(store, root, bad)).status).toBe(404);
    },
    SLOW,
  );
});

describe('code_interpreter in the agent loop', () => {
  it(
    'the tool-result event carries the written files, and the model gets the console text',
    async () => {
      const server = await createModelServer();
      try {
        server.setScenario({
          replies: [
            {
              toolCalls: [
                {
                  name: 'code_interpreter',
                  arguments: JSON.stringify({ code: "open('report.md', 'w').write('# hi')" }),
                },
              ],
            },
            { content: 'Written.' },
          ],
        });
        const agent = new FnCallAgent({
          llm: createChatModel({ model: 'scripted', baseURL: server.url, apiKey: 'k' }),
          functionList: ['code_interpreter'],
          toolSettings: settings,
          name: 'assistant',
        });
        const events = await collectEvents(
          agent.runEvents([{ role: 'user', content: 'write a report' }], { conversationId: 'conv-agent' }),
        );
        for (const e of events) AgentEventSchema.parse(e);
        const [result] = ofType(events, 'tool-result');
        expect(result?.ok).toBe(true);
        expect(result?.content).toBe('execute_result:\n\n```\n4\n```\n\nfiles:\n\n- report.md (4 bytes)');
        expect(result?.files).toEqual([
          {
            name: 'report.md',
            url: '/api/artifacts/conv-agent/report.md',
            mime: 'text/markdown; charset=utf-8',
            bytes: 4,
          },
        ]);
        const second = server.requests.filter((r) => r.path === '/v1/chat/completions')[1];
        expect(JSON.stringify(second?.body.messages)).toContain('report.md (4 bytes)');
      } finally {
        await server.close();
      }
    },
    SLOW,
  );
});

describe('code_interpreter stopped while its code runs', () => {
  it(
    "says so in the call's result, for the page and the next turn's model: the interpreter and its variables are gone",
    async () => {
      const conversationId = 'conv-stopped';
      const server = await createModelServer();
      try {
        // A warm interpreter that holds a variable: the loop runs as soon as its call starts.
        expect(text(await call(conversationId, { code: 'kept = 1\nkept' }))).toContain('1');
        const loop = 'import time\nwhile True:\n    time.sleep(0.05)';
        server.setScenario({
          replies: [{ toolCalls: [{ name: 'code_interpreter', arguments: JSON.stringify({ code: loop }) }] }],
        });
        const agent = new FnCallAgent({
          llm: createChatModel({ model: 'scripted', baseURL: server.url, apiKey: 'k' }),
          functionList: ['code_interpreter'],
          toolSettings: settings,
          name: 'assistant',
        });
        const stop = new AbortController();
        const events: AgentEvent[] = [];
        for await (const e of agent.runEvents([{ role: 'user', content: 'loop' }], {
          conversationId,
          signal: stop.signal,
        })) {
          events.push(e);
          if (e.type === 'tool-call') setTimeout(() => stop.abort(), 1000);
        }
        for (const e of events) AgentEventSchema.parse(e);
        const told = `${STOPPED_WHILE_RUNNING} ${RESTARTED}`;
        expect(ofType(events, 'tool-result')).toMatchObject([
          { ok: false, content: told, error: { kind: 'stopped', type: 'Stopped', message: told } },
        ]);
        expect(events.at(-1)).toMatchObject({ type: 'run-end', reason: 'aborted' });
        // The run's messages (the next turn's history) end with it: the model is told.
        expect(foldEvents(events).at(-1)).toMatchObject({ role: 'function', content: told });
        // And it is so.
        expect(text(await call(conversationId, { code: 'kept' }))).toContain("NameError: name 'kept' is not defined");
      } finally {
        await server.close();
      }
    },
    SLOW,
  );
});

describe('code_interpreter: sandbox escapes fail cleanly', () => {
  const conv = 'conv-escape';
  const ok = async () => expect(text(await call(conv, { code: 'print("still", 6 * 7)' }))).toContain('still 42');

  it(
    'cannot read /etc/passwd',
    async () => {
      const out = text(
        await call(conv, {
          code: "import os\nfor p in ['/etc/passwd', '/proc/self/environ']:\n    try:\n        print(open(p).read()[:50])\n    except OSError as e:\n        print(type(e).__name__)",
        }),
      );
      expect(out).not.toContain('root:');
      expect(out).toContain('FileNotFoundError');
      // Nor through a symlink made in the work directory (which the host would follow).
      const viaLink = text(
        await call(conv, {
          code: "import os\ntry:\n    os.symlink('/etc/passwd', 'pw')\n    print(open('pw').read()[:50])\nexcept OSError as e:\n    print(type(e).__name__)",
        }),
      );
      expect(viaLink).not.toContain('root:');
      expect(viaLink).toMatch(/FileNotFoundError|PermissionError/);
      await ok();
    },
    SLOW,
  );

  it(
    "sees nothing of the server's paths or environment: os.environ, sys.executable, sys.argv",
    async () => {
      // Finding: emscripten set `_` (and sys.executable) to the path of the sandbox's script in the server's checkout.
      process.env.SANDBOX_CANARY = `canary-${Date.now()}`;
      try {
        const out = text(
          await call('conv-environ', { code: 'import os, sys\nprint(dict(os.environ), sys.executable, sys.argv)' }),
        );
        expect(out).toContain("'HOME'");
        expect(out).not.toContain(process.env.SANDBOX_CANARY);
        for (const leak of [path.resolve(__dirname, '../..'), 'node_modules', '.mjs']) expect(out).not.toContain(leak);
      } finally {
        delete process.env.SANDBOX_CANARY;
      }
    },
    SLOW,
  );

  it(
    'cannot write outside its work directory',
    async () => {
      const marker = `escape-${process.pid}-${Date.now()}.txt`;
      const workDir = codeWorkDir(dataDir, conv);
      const code = [
        `for p in ['/tmp/${marker}', '../${marker}', '../../${marker}', '${path.join(dataDir, marker)}']:`,
        '    try:',
        "        open(p, 'w').write('x')",
        '    except OSError as e:',
        '        print(type(e).__name__)',
      ].join('\n');
      text(await call(conv, { code }));
      for (const p of [
        path.join('/tmp', marker),
        path.join(workDir, '..', marker),
        path.join(workDir, '..', '..', marker),
        path.join(dataDir, marker),
      ])
        expect(existsSync(p)).toBe(false);
      await ok();
    },
    SLOW,
  );

  it(
    'cannot start a process',
    async () => {
      const marker = path.join(dataDir, `spawned-${Date.now()}`);
      const attempts = [
        `import os; os.system('touch ${marker}')`,
        `import posix; posix.system('touch ${marker}')`,
        `import subprocess; subprocess.run(['touch', '${marker}'])`,
      ];
      for (const code of attempts) {
        const out = text(await call(conv, { code }));
        expect(out).toMatch(/PermissionError: starting processes is not allowed|does not support processes/);
      }
      expect(existsSync(marker)).toBe(false);
      await ok();
    },
    SLOW,
  );

  it(
    'cannot open a socket to a listening server on this machine',
    async () => {
      let connections = 0;
      const server = net.createServer((s) => {
        connections++;
        s.destroy();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const port = (server.address() as net.AddressInfo).port;
      try {
        const out = text(
          await call(conv, {
            code: `import socket\ns = socket.socket()\ns.settimeout(3)\ns.connect(('127.0.0.1', ${port}))\ns.sendall(b'hello')`,
          }),
        );
        expect(out).toMatch(/OSError|ConnectionRefusedError|TimeoutError/);
        const http = text(
          await call(conv, {
            code: `import urllib.request\nurllib.request.urlopen('http://127.0.0.1:${port}/', timeout=3)`,
          }),
        );
        expect(http).toMatch(/error:/);
        // Without the network namespace too (hosts that refuse `unshare -rn`): the in-process layer alone holds.
        const bare = new InterpreterPool({
          memoryMb: 256,
          jsHeapMb: 256,
          outputChars: 10_000,
          networkNamespace: 'off',
          maxInterpreters: 1,
          idleMs: 60_000,
        });
        try {
          const r = await bare.run('bare', {
            workDir: path.join(dataDir, 'bare-net'),
            timeoutMs: 60_000,
            code: `import socket\ns = socket.socket()\ns.settimeout(3)\ns.connect(('127.0.0.1', ${port}))`,
          });
          expect(r.kind === 'done' && r.error).toMatch(/OSError: \[Errno 23\]/);
        } finally {
          bare.shutdown();
        }
        await new Promise((r) => setTimeout(r, 200));
        expect(connections).toBe(0);
      } finally {
        server.close();
      }
      await ok();
    },
    SLOW,
  );

  it(
    "cannot reach the host's JavaScript runtime through Pyodide's JS bridge",
    async () => {
      const blocked = text(await call(conv, { code: 'import js\njs.process.exit(1)' }));
      expect(blocked).toContain("ImportError: module 'js' is not available in the sandbox");
      const ffi = text(await call(conv, { code: 'import pyodide.ffi' }));
      expect(ffi).toContain('not available in the sandbox');

      // Removing the import guard does not help: the modules are gone from the runtime.
      const unguarded = text(
        await call(conv, {
          code: [
            'import sys',
            "sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != '_BlockBridge']",
            'for name in ["js", "pyodide_js"]:',
            '    try:',
            '        __import__(name).require("child_process")',
            '    except Exception as e:',
            '        print(name, type(e).__name__)',
          ].join('\n'),
        }),
      );
      expect(unguarded).toContain('js ModuleNotFoundError');
      expect(unguarded).toContain('pyodide_js ModuleNotFoundError');

      // Nor do Pyodide's own helpers: no JS code can be run, and no JS object is left on the Python heap to climb
      // from (a JsProxy's constructor.constructor would be Function).
      const helpers = text(
        await call(conv, {
          code: [
            'import sys, gc',
            "sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != '_BlockBridge']",
            'import pyodide.code',
            'try:',
            "    pyodide.code.run_js('process.exit(3)')",
            'except Exception as e:',
            "    print('run_js', type(e).__name__)",
            "proxies = [o for o in gc.get_objects() if type(type(o)).__name__ == '_JsProxyMetaClass']",
            "print('proxies', len(proxies))",
          ].join('\n'),
        }),
      );
      expect(helpers).toContain('run_js ModuleNotFoundError');
      expect(helpers).toContain('proxies 0');
      await ok();
    },
    SLOW,
  );

  it(
    'an infinite loop times out, and a fresh interpreter takes over',
    async () => {
      text(await call(conv, { code: 'kept = 1' }));
      const timedOut = await call(conv, { code: 'while True:\n    pass' });
      const out = text(timedOut);
      expect(out).toContain(TIMEOUT_MESSAGE);
      expect(failure(timedOut)).toEqual({
        kind: 'failed',
        type: 'Timeout',
        message: TIMEOUT_MESSAGE,
        code: 'tool-timeout',
        values: { tool: 'code_interpreter', detail: TIMEOUT_MESSAGE },
      });
      expect(out).toContain('The interpreter was restarted');
      expect(text(await call(conv, { code: 'kept' }))).toContain("NameError: name 'kept' is not defined");
      await ok();
    },
    SLOW,
  );

  it(
    'a memory bomb ends with MemoryError and the interpreter stays usable',
    async () => {
      const one = text(await call(conv, { code: 'big = bytearray(1024 ** 3)' }));
      expect(one).toContain('MemoryError');
      text(await call(conv, { code: 'survivor = "yes"' }));
      const growing = text(await call(conv, { code: 'hog = []\nwhile True:\n    hog.append(bytearray(10 ** 6))' }));
      expect(growing).toContain('MemoryError');
      expect(growing).toContain('out of the memory the sandbox allows');
      expect(text(await call(conv, { code: 'del hog\nsurvivor' }))).toContain("'yes'");
      await ok();
    },
    SLOW,
  );
});

describe('the interpreter pool', () => {
  it(
    'is bounded: a busy interpreter is never evicted, an idle one makes room, and idle ones are reaped',
    async () => {
      const pool = new InterpreterPool({
        memoryMb: 256,
        jsHeapMb: 256,
        outputChars: 10_000,
        networkNamespace: 'auto',
        maxInterpreters: 1,
        idleMs: 60_000,
      });
      const dir = (k: string) => path.join(dataDir, `pool-${k}`);
      try {
        expect((await pool.run('a', { workDir: dir('a'), timeoutMs: 60_000, code: 'x = 1' })).kind).toBe('done');
        const a = await pool.interpreterOf('a');
        const busy = pool.run('a', {
          workDir: dir('a'),
          timeoutMs: 60_000,
          code: 'import time\nt = time.time()\nwhile time.time() < t + 2: pass\nx',
        });
        await new Promise((r) => setTimeout(r, 300));
        await expect(pool.run('b', { workDir: dir('b'), timeoutMs: 60_000, code: '1' })).rejects.toThrow(
          'All 1 Python interpreters are busy',
        );
        expect(await busy).toMatchObject({ kind: 'done', result: '1' });
        expect(a?.alive).toBe(true);

        expect(await pool.run('b', { workDir: dir('b'), timeoutMs: 60_000, code: '2' })).toMatchObject({ result: '2' });
        await new Promise((r) => setTimeout(r, 300));
        expect(a?.alive).toBe(false); // evicted to make room
        const b = await pool.interpreterOf('b');
        expect(pool.size).toBe(1);

        pool.reapIdle(Date.now() + 60_000);
        await new Promise((r) => setTimeout(r, 300));
        expect(b?.alive).toBe(false);
        expect(pool.size).toBe(0);
      } finally {
        pool.shutdown();
      }
    },
    SLOW,
  );
});

describe('extra packages from a mounted directory', () => {
  const pkgDir = mkdtempSync(path.join(tmpdir(), 'pyodide-packages-'));
  mkdirSync(path.join(pkgDir, 'greeting'));
  writeFileSync(path.join(pkgDir, 'greeting', '__init__.py'), 'def hello(name):\n    return f"hello {name}"\n');
  let pool: InterpreterPool;
  beforeAll(() => {
    pool = new InterpreterPool({
      memoryMb: 256,
      jsHeapMb: 256,
      outputChars: 10_000,
      packagesDir: pkgDir,
      networkNamespace: 'auto',
      maxInterpreters: 2,
      idleMs: 60_000,
    });
  });
  afterAll(() => pool.shutdown());
  const workDir = path.join(dataDir, 'pkg-work');

  it(
    'imports a package from the directory, which the code cannot modify',
    async () => {
      const r = await pool.run('pkg', {
        workDir,
        timeoutMs: 30_000,
        code: "import greeting\ntry:\n    open('/packages/greeting/evil.py', 'w').write('x')\nexcept OSError as e:\n    print(type(e).__name__)\ngreeting.hello('pkg')",
      });
      expect(r.kind).toBe('done');
      if (r.kind !== 'done') return;
      expect(r.result).toBe("'hello pkg'");
      expect(r.error).toBeUndefined();
      expect(existsSync(path.join(pkgDir, 'greeting', 'evil.py'))).toBe(false);
      expect(readFileSync(path.join(pkgDir, 'greeting', '__init__.py'), 'utf8')).toContain('def hello');
    },
    SLOW,
  );

  const debian = '/usr/lib/python3/dist-packages';
  it.skipIf(!existsSync(path.join(debian, 'sympy')))(
    "runs Debian's sympy (python3-sympy) from /usr/lib/python3/dist-packages",
    async () => {
      const sympyPool = new InterpreterPool({ ...pool.opts, packagesDir: debian });
      try {
        const r = await sympyPool.run('sympy', {
          workDir,
          timeoutMs: 120_000,
          code: 'import sympy\nx = sympy.symbols("x")\nprint(sympy.integrate(x**2, x))\nsum(sympy.primerange(2, 542))',
        });
        expect(r.kind).toBe('done');
        if (r.kind !== 'done') return;
        expect(r.stdout.text).toContain('x**3/3');
        expect(r.result).toBe('24133');
      } finally {
        sympyPool.shutdown();
      }
    },
    SLOW,
  );
});
