// code_interpreter on the CPython backend: real /usr/bin/python3 in real bubblewrap sandboxes. Behaviour (state,
// files in and out, figures, the sympy seed example), then the escapes of the threat model: each must fail to
// escape, and the tool must keep working afterwards. Skipped (and counted as skipped) on a host without the backend:
// `apt-get install -y bubblewrap python3-numpy python3-pandas python3-matplotlib python3-openpyxl`.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FnCallAgent } from '../../lib/agent';
import { fileRef } from '../../lib/documents/file-ref';
import { createChatModel } from '../../lib/llm';
import { saveUpload } from '../../lib/documents/storage';
import { probePython, SANDBOX_UID_WHEN_ROOT } from '../../lib/sandbox/bwrap';
import { RESTARTED, TIMEOUT_MESSAGE } from '../../lib/sandbox/format';
import { descendantsOf } from '../../lib/sandbox/process-tree';
import { DB_FILE_NAME, openStore } from '../../lib/store';
import type { ChatStore } from '../../lib/store/types';
import { createTool, runTool, toolSettings, type ToolRunResult, type ToolSettings } from '../../tools';
import '../../tools'; // registers the builtin tools
import { codeWorkDir as workDirIn } from '../../tools/code-interpreter';
import { loadConfig } from '../../lib/config';
import { createModelServer } from '../../scripts/model-server/server';
import { makeWorkbook } from '../support/document-fixtures';
import { ownerScope } from '../../lib/store/owner';

const OWNER = ownerScope('owner-a');

const PYTHON = '/usr/bin/python3';
const available = probePython(PYTHON).ok;
const SLOW = 120_000;
const DISK_MB = 64;
const dataDir = mkdtempSync(path.join(tmpdir(), 'code-python-'));
const saved = { ...process.env };
/** The app's database, where the server keeps it (under DATA_DIR). */
let store: ChatStore | undefined;
/** What the tools get from the configuration (this file's environment), as a composition root makes it. */
let settings: ToolSettings;
const codeWorkDir = (conversationId: string) => workDirIn(dataDir, conversationId);

beforeAll(() => {
  Object.assign(process.env, {
    DATA_DIR: dataDir,
    CODE_INTERPRETER_BACKEND: 'python',
    CODE_INTERPRETER_PYTHON: PYTHON,
    CODE_INTERPRETER_TIMEOUT_MS: '8000',
    CODE_INTERPRETER_MEMORY_MB: '256',
    CODE_INTERPRETER_OUTPUT_CHARS: '1000',
    CODE_INTERPRETER_DISK_MB: String(DISK_MB),
  });
  settings = toolSettings(loadConfig());
});
afterAll(async () => {
  settings.sandbox.shutdown();
  await store?.close();
  process.env = saved;
});

async function call(conversationId: string, args: Record<string, unknown>, files: string[] = [], timeoutMs?: number) {
  const tool = createTool(timeoutMs ? { name: 'code_interpreter', timeout_ms: timeoutMs } : 'code_interpreter');
  return runTool(tool, JSON.stringify(args), {
    files,
    conversationId,
    lang: 'en',
    messages: [],
    settings,
  });
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

async function upload(name: string, bytes: Buffer): Promise<string> {
  const s = await saveUpload(
    (async function* () {
      yield bytes;
    })(),
    { dataDir, maxBytes: 100 * 1024 * 1024, name },
  );
  return fileRef(s.hash, name);
}

/** The sandbox's processes, seen from the host: its init and the kernel, and nothing else once a call is over. */
async function sandboxProcesses(conversationId: string): Promise<number[]> {
  const interpreter = await settings.sandbox.currentPool?.interpreterOf(codeWorkDir(conversationId));
  expect(interpreter?.pid).toBeDefined();
  return descendantsOf(interpreter!.pid!);
}

describe.skipIf(!available)('code_interpreter on CPython: behaviour', () => {
  // First in the file: nothing in this process has asked which backend runs yet.
  it('the first model request of a run already says that numpy, pandas and matplotlib are there', async () => {
    const server = await createModelServer();
    try {
      server.setScenario({ replies: [{ content: 'Nothing to run.' }] });
      const agent = new FnCallAgent({
        llm: createChatModel({ model: 'scripted', baseURL: server.url, apiKey: 'k' }),
        functionList: ['code_interpreter'],
        toolSettings: settings,
      });
      await agent.runNonStream([{ role: 'user', content: 'hello' }]);
      const [first] = server.requests.filter((r) => r.path === '/v1/chat/completions');
      expect(JSON.stringify(first?.body.tools)).toContain('numpy, pandas (read_csv, read_excel) and matplotlib');
    } finally {
      await server.close();
    }
  });

  it('is the backend chosen, and its description says numpy, pandas and matplotlib are there', async () => {
    expect(await settings.sandbox.backend()).toMatchObject({ backend: 'python', requested: 'python' });
    const tool = createTool('code_interpreter');
    await tool.prepare?.(settings);
    expect(tool.description).toContain('numpy, pandas (read_csv, read_excel) and matplotlib');
  });

  it(
    'keeps variables between calls, in the output shape of the Pyodide backend; reset forgets them, files stay',
    async () => {
      const conv = 'py-state';
      expect(text(await call(conv, { code: 'x = 20\nopen("kept.txt", "w").write("yes")' }))).toContain(
        'execute_result:',
      );
      const out = text(await call(conv, { code: 'import math\nprint(x + 1)\nmath.sqrt(x * 5)' }));
      expect(out).toBe('stdout:\n\n```\n21\n```\n\nexecute_result:\n\n```\n10.0\n```');
      const err = text(await call(conv, { code: 'def f():\n    return 1 / 0\nf()' }));
      expect(err).toMatch(/error:\n\n```\nTraceback \(most recent call last\):\n {2}File "<code>", line 3/);
      expect(err).toContain('ZeroDivisionError: division by zero');
      expect(err).not.toContain('kernel');
      const fresh = text(await call(conv, { code: 'print(open("kept.txt").read())\nx', reset: true }));
      expect(fresh).toContain('stdout:\n\n```\nyes\n```');
      expect(fresh).toContain("NameError: name 'x' is not defined");
    },
    SLOW,
  );

  it(
    'captures what programs it starts print, and cuts long output saying how much',
    async () => {
      const out = text(await call('py-out', { code: 'import subprocess\nsubprocess.run(["echo", "from echo"])' }));
      expect(out).toContain('from echo');
      const long = text(await call('py-out', { code: 'print("y" * 5000)' }));
      expect(long).toContain('y'.repeat(1000));
      expect(long).not.toContain('y'.repeat(1001));
      expect(long).toContain('output cut: 4001 more characters not shown');
    },
    SLOW,
  );

  it(
    "runs the seed's example with sympy: the sum of the first 100 primes is 24133",
    async () => {
      const out = text(await call('py-sympy', { code: 'import sympy\nsum(sympy.primerange(2, 542))' }));
      expect(out).toBe('execute_result:\n\n```\n24133\n```');
    },
    SLOW,
  );

  it(
    "reads the conversation's CSV with pandas, totals it, and plt.show() puts the chart on the tool result",
    async () => {
      const csv = await upload('sales.csv', Buffer.from('month,revenue\nJan,1200\nFeb,950\nMar,1430\n'));
      const code = [
        'import pandas as pd',
        'import matplotlib.pyplot as plt',
        "df = pd.read_csv('sales.csv')",
        "total = int(df['revenue'].sum())",
        'print(df)',
        "df.plot(x='month', y='revenue', kind='bar')",
        'plt.show()',
        'total',
      ].join('\n');
      const r = await call('py-csv', { code }, [csv]);
      const out = text(r);
      expect(out).toContain('execute_result:\n\n```\n3580\n```');
      // The table stays text; the figure is a file the model is told about and the card shows.
      expect(out).toMatch(/stdout:\n\n```\n {2}month {2}revenue\n0 {3}Jan {5}1200/);
      expect(out).toMatch(/files:\n\n- figure-1\.png \(\d+ bytes\)/);
      // As upstream gives its figures: Markdown with the address an answer can show the chart by.
      expect(out).toContain('![figure-1.png](/api/artifacts/py-csv/figure-1.png)');
      expect(r.ok).toBe(true);
      expect(r.ok && r.files).toEqual([
        {
          name: 'figure-1.png',
          url: '/api/artifacts/py-csv/figure-1.png',
          mime: 'image/png',
          bytes: expect.any(Number),
        },
      ]);
      const png = readFileSync(path.join(codeWorkDir('py-csv'), 'figure-1.png'));
      expect(png.subarray(0, 8).toString('latin1')).toBe('\x89PNG\r\n\x1a\n');
    },
    SLOW,
  );

  it(
    'reads an XLSX with pandas.read_excel (openpyxl)',
    async () => {
      const xlsx = await upload(
        'sales.xlsx',
        makeWorkbook(
          {
            Sales: [
              ['month', 'revenue'],
              ['Jan', 1200],
              ['Feb', 950],
            ],
          },
          'xlsx',
        ),
      );
      const out = text(
        await call('py-xlsx', { code: "import pandas as pd\nint(pd.read_excel('sales.xlsx')['revenue'].sum())" }, [
          xlsx,
        ]),
      );
      expect(out).toBe('execute_result:\n\n```\n2150\n```');
    },
    SLOW,
  );

  it(
    'figures: one left open is saved at the end of the call; one the code saved itself is not saved twice',
    async () => {
      const conv = 'py-figures';
      const open = await call(conv, { code: 'import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\nNone' });
      expect(open.ok && open.files?.map((f) => f.name)).toEqual(['figure-1.png']);
      const own = await call(conv, { code: "plt.plot([3, 2, 1])\nplt.savefig('mine.png')\nplt.show()" });
      expect(own.ok && own.files?.map((f) => f.name)).toEqual(['mine.png']);
      const next = await call(conv, { code: 'plt.figure()\nplt.bar(["a"], [1])\nplt.show()' });
      expect(next.ok && next.files?.map((f) => f.name)).toEqual(['figure-2.png']);
      // A table printed stays text, and no image appears for it.
      const table = await call(conv, { code: "import pandas as pd\npd.DataFrame({'a': [1, 2]})" });
      expect(table.ok && table.files).toBeUndefined();
      expect(text(table)).toContain('execute_result:\n\n```\n   a\n0  1\n1  2\n```');
    },
    SLOW,
  );

  it(
    'a file the code deletes is deleted from the work directory too',
    async () => {
      const conv = 'py-delete';
      await call(conv, { code: "open('tmp.csv', 'w').write('a')" });
      expect(existsSync(path.join(codeWorkDir(conv), 'tmp.csv'))).toBe(true);
      await call(conv, { code: "import os\nos.remove('tmp.csv')" });
      expect(existsSync(path.join(codeWorkDir(conv), 'tmp.csv'))).toBe(false);
    },
    SLOW,
  );
});

describe.skipIf(!available)('code_interpreter on CPython: the sandbox holds', () => {
  const conv = 'py-escape';
  const ok = async () => expect(text(await call(conv, { code: 'print("still", 6 * 7)' }))).toContain('still 42');

  it(
    "cannot read /etc/shadow, the app's database, or another conversation's work directory",
    async () => {
      const secret = `secret-${Date.now()}`;
      store = await openStore(dataDir);
      await store.createConversation(OWNER, { title: secret });
      const db = path.join(dataDir, DB_FILE_NAME);
      const onDisk = [db, `${db}-wal`].some((f) => existsSync(f) && readFileSync(f).includes(secret));
      expect(onDisk).toBe(true);
      await call('py-other', { code: `open('private.txt', 'w').write('${secret}')` });
      const other = path.join(codeWorkDir('py-other'), 'private.txt');
      expect(readFileSync(other, 'utf8')).toBe(secret);

      const targets = [
        '/etc/shadow',
        '/etc/passwd',
        db,
        `${db}-wal`,
        other,
        '../py-other/code_interpreter/private.txt',
        '../../py-other/code_interpreter/private.txt',
        '/proc/1/root/etc/shadow',
        `/proc/1/root${db}`,
      ];
      const code = [
        'import os',
        `for p in ${JSON.stringify(targets)}:`,
        '    try:',
        '        print(p, open(p, "rb").read()[:80])',
        '    except OSError as e:',
        '        print(p, type(e).__name__)',
        'import json',
        'print("ROOT", json.dumps(os.listdir("/")))',
        'print("ETC", json.dumps(os.listdir("/etc")))',
      ].join('\n');
      const out = text(await call(conv, { code }));
      expect(out).not.toContain(secret);
      expect(out).not.toContain('root:');
      expect(out.match(/(FileNotFoundError|PermissionError)/g)?.length).toBe(targets.length);
      // Only the system, read-only, and the sandbox's own places: no DATA_DIR, no home, no /root.
      const listed = (label: string) => JSON.parse(new RegExp(`${label} (\\[.*\\])`).exec(out)![1]!) as string[];
      const system = ['bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32', 'usr', 'etc', 'dev', 'proc'];
      expect(listed('ROOT').sort()).toEqual(expect.arrayContaining(['tmp', 'usr', 'workspace']));
      for (const name of listed('ROOT')) expect([...system, 'tmp', 'workspace']).toContain(name);
      for (const name of listed('ETC'))
        expect(name).toMatch(/^(alternatives|ld\.so\.cache|localtime|matplotlibrc|fonts|python3(\.\d+)?)$/);

      // Nor through a symlink it makes: the host never copies one out, and never follows one.
      const link = await call(conv, { code: `import os\nos.symlink('${other}', 'link.txt')\nos.symlink('/', 'root')` });
      expect(text(link)).not.toContain('files:');
      expect(existsSync(path.join(codeWorkDir(conv), 'link.txt'))).toBe(false);
      await ok();
    },
    SLOW,
  );

  it(
    "reads nothing of the server's environment, its own nor its launcher's (process 1): not even the server's PATH",
    async () => {
      // Finding: bwrap, process 1 inside, had the server's whole PATH, which told the code where the server's
      // checkout and tools are (/proc/1/environ).
      const privateDir = path.join(dataDir, `server-private-bin-${process.pid}`);
      const savedPath = process.env.PATH;
      process.env.PATH = `${privateDir}${path.delimiter}${savedPath ?? ''}`;
      process.env.SANDBOX_CANARY = `canary-${Date.now()}`;
      try {
        const code = [
          'import os',
          "for p in ['/proc/self/environ', '/proc/1/environ', *[f'/proc/{d}/environ' for d in os.listdir('/proc') if d.isdigit()]]:",
          '    try:',
          "        print(p, open(p, 'rb').read())",
          '    except OSError as e:',
          '        print(p, type(e).__name__)',
        ].join('\n');
        const out = text(await call('py-environ', { code }));
        expect(out).toContain('/proc/1/environ b');
        expect(out).not.toContain('server-private-bin');
        expect(out).not.toContain(process.env.SANDBOX_CANARY);
        for (const dir of (savedPath ?? '').split(path.delimiter).filter((d) => !/^\/(usr\/)?(local\/)?s?bin$/.test(d)))
          expect(out, dir).not.toContain(`${dir}:`);
      } finally {
        process.env.PATH = savedPath;
        delete process.env.SANDBOX_CANARY;
      }
    },
    SLOW,
  );

  it(
    'cannot write outside its work directory, nor change the host directory\u2019s mode',
    async () => {
      await ok();
      const workDir = codeWorkDir(conv);
      const mode = statSync(workDir).mode;
      const marker = `escape-${process.pid}-${Date.now()}.txt`;
      const targets = [
        `/tmp/${marker}`,
        `/${marker}`,
        `/usr/${marker}`,
        `/etc/${marker}`,
        `../${marker}`,
        `../../${marker}`,
        path.join(dataDir, marker),
        path.join(workDir, marker),
      ];
      const code = [
        'import os',
        `for p in ${JSON.stringify(targets)}:`,
        '    try:',
        "        open(p, 'w').write('x')",
        '        print(p, "written")',
        '    except OSError as e:',
        '        print(p, type(e).__name__)',
        "os.chmod('.', 0o777)",
        "print(oct(os.stat('.').st_mode))",
      ].join('\n');
      const out = text(await call(conv, { code }));
      // /tmp is the sandbox's private tmpfs: the write lands there, not on the host.
      expect(out).toContain(`/tmp/${marker} written`);
      expect(out).toMatch(/OSError|PermissionError|FileNotFoundError/);
      for (const p of [
        path.join('/tmp', marker),
        path.join('/', marker),
        path.join('/usr', marker),
        path.join('/etc', marker),
        path.join(workDir, '..', marker),
        path.join(workDir, '..', '..', marker),
        path.join(dataDir, marker),
        path.join(workDir, marker),
      ])
        expect(existsSync(p), p).toBe(false);
      expect(statSync(workDir).mode).toBe(mode);
      await ok();
    },
    SLOW,
  );

  it(
    'cannot reach a listener on 127.0.0.1 or an abstract socket of the host, and resolves no name',
    async () => {
      let connections = 0;
      const tcp = net.createServer((s) => {
        connections++;
        s.destroy();
      });
      const abstract = net.createServer((s) => {
        connections++;
        s.destroy();
      });
      const abstractName = `agent-studio-test-${process.pid}`;
      await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
      await new Promise<void>((resolve) => abstract.listen(`\0${abstractName}`, resolve));
      const port = (tcp.address() as net.AddressInfo).port;
      try {
        const code = [
          'import socket, urllib.request',
          'def attempt(name, fn):',
          '    try:',
          '        fn()',
          '        print(name, "CONNECTED")',
          '    except Exception as e:',
          '        print(name, type(e).__name__, e)',
          `attempt('tcp', lambda: socket.create_connection(('127.0.0.1', ${port}), timeout=3))`,
          `attempt('tcp6', lambda: socket.create_connection(('::1', ${port}), timeout=3))`,
          `attempt('http', lambda: urllib.request.urlopen('http://127.0.0.1:${port}/', timeout=3))`,
          'u = socket.socket(socket.AF_UNIX)',
          `attempt('abstract', lambda: u.connect('\\0${abstractName}'))`,
          "attempt('dns', lambda: socket.getaddrinfo('example.com', 80))",
          "attempt('udp', lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'x', ('1.1.1.1', 53)))",
          'print(socket.if_nameindex())',
        ].join('\n');
        const out = text(await call(conv, { code }));
        expect(out).not.toContain('CONNECTED');
        expect(out).toMatch(/tcp OSError \[Errno 101\] Network is unreachable/);
        expect(out).toMatch(/abstract ConnectionRefusedError/);
        expect(out).toMatch(/dns gaierror/);
        expect(out).toMatch(/udp OSError \[Errno 101\]/);
        await new Promise((r) => setTimeout(r, 200));
        expect(connections).toBe(0);
        // The only interface is loopback, and it is down.
        const flags = text(
          await call(conv, {
            code: [
              'import fcntl, socket, struct',
              's = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)',
              "req = struct.pack('256s', b'lo')",
              "print('lo up' if struct.unpack('16sH', fcntl.ioctl(s.fileno(), 0x8913, req)[:18])[1] & 1 else 'lo down')",
            ].join('\n'),
          }),
        );
        expect(flags).toContain('lo down');
      } finally {
        tcp.close();
        abstract.close();
      }
      await ok();
    },
    SLOW,
  );

  it(
    'a fork bomb stops at the process limit, and nothing it started survives the call',
    async () => {
      const code = 'import os\nwhile True:\n    os.fork()';
      const out = text(await call(conv, { code }));
      expect(out).toMatch(/BlockingIOError: \[Errno 11\] Resource temporarily unavailable/);
      await expect.poll(() => sandboxProcesses(conv)).toHaveLength(2);
      await ok();
    },
    SLOW,
  );

  it(
    'a process left running is killed when the call ends (a child, a daemon that double-forked)',
    async () => {
      const code = [
        'import os, subprocess, time',
        "subprocess.Popen(['sh', '-c', 'sleep 1; echo late > late-child.txt'])",
        'if os.fork() == 0:',
        '    os.setsid()',
        '    if os.fork() == 0:',
        '        time.sleep(1)',
        "        open('late-daemon.txt', 'w').write('late')",
        '    os._exit(0)',
        "print('started')",
      ].join('\n');
      expect(text(await call(conv, { code }))).toContain('started');
      await expect.poll(() => sandboxProcesses(conv)).toHaveLength(2);
      await new Promise((r) => setTimeout(r, 1500));
      const after = text(
        await call(conv, {
          code: "import os\nprint([f for f in os.listdir('.') if f.startswith('late')], len([p for p in os.listdir('/proc') if p.isdigit()]))",
        }),
      );
      expect(after).toContain('[] 2');
    },
    SLOW,
  );

  it(
    'between calls nothing runs: the kernel is stopped, with the thread the code left running',
    async () => {
      const code = [
        'import threading, time',
        'ticks = 0',
        'def tick():',
        '    global ticks',
        '    while True:',
        '        ticks += 1',
        '        time.sleep(0.01)',
        'threading.Thread(target=tick, daemon=True).start()',
        'time.sleep(0.1)',
      ].join('\n');
      await call(conv, { code });
      const [, kernel] = await sandboxProcesses(conv);
      const state = () => readFileSync(`/proc/${kernel}/stat`, 'latin1').split(') ')[1]![0];
      await expect.poll(state).toBe('T');
      await new Promise((r) => setTimeout(r, 300));
      expect(state()).toBe('T');
      // It runs again for the next call, thread and all.
      const out = text(await call(conv, { code: 'a = ticks\ntime.sleep(0.1)\nticks > a' }));
      expect(out).toContain('True');
      await ok();
    },
    SLOW,
  );

  it(
    'a 2 GB file stops at the disk limit with a clear error, and the host keeps at most that much',
    async () => {
      const out = text(
        await call(conv, {
          code: "with open('big.bin', 'wb') as f:\n    for _ in range(2048):\n        f.write(b'x' * 1024 * 1024)",
        }),
      );
      expect(out).not.toContain(TIMEOUT_MESSAGE); // it fails at the limit, it does not run on
      expect(out).toMatch(/OSError: \[Errno (28\] No space left on device|27\] File too large)/);
      expect(out).toContain(
        `The working directory is full: its files may take at most ${DISK_MB} MB (CODE_INTERPRETER_DISK_MB)`,
      );
      const hostBytes = readdirSync(codeWorkDir(conv)).reduce(
        (sum, f) => sum + statSync(path.join(codeWorkDir(conv), f)).size,
        0,
      );
      expect(hostBytes).toBeLessThanOrEqual(DISK_MB * 1024 * 1024);
      // A sparse 2 GB file is refused too (the file-size limit), so the host never gets a copy of one.
      const sparse = text(
        await call(conv, { code: "f = open('sparse.bin', 'wb')\nf.seek(2 * 1024 ** 3)\nf.write(b'x')\nf.flush()" }),
      );
      expect(sparse).toMatch(/OSError: \[Errno 27\] File too large/);
      await call(conv, { code: "import os\nos.remove('big.bin')\nos.remove('sparse.bin')" });
      await ok();
    },
    SLOW,
  );

  it(
    'a memory bomb ends with MemoryError and the interpreter stays usable',
    async () => {
      await call(conv, { code: 'survivor = "yes"' });
      const one = text(await call(conv, { code: 'big = bytearray(8 * 1024 ** 3)' }));
      expect(one).toContain('MemoryError');
      const growing = text(await call(conv, { code: 'hog = []\nwhile True:\n    hog.append(bytearray(10 ** 7))' }));
      expect(growing).toContain('MemoryError');
      expect(growing).toContain('out of the memory the sandbox allows');
      expect(text(await call(conv, { code: 'del hog\nsurvivor' }))).toContain("'yes'");
      const numpy = text(await call(conv, { code: 'import numpy as np\nnp.ones((100_000, 100_000))' }));
      expect(numpy).toMatch(/_ArrayMemoryError: Unable to allocate 74\.5 GiB/);
      expect(text(await call(conv, { code: 'survivor' }))).toContain("'yes'");
    },
    SLOW,
  );

  it(
    'an infinite loop times out, and a fresh interpreter takes over',
    async () => {
      await call(conv, { code: 'kept = 1' });
      const loop = "open('before.txt', 'w').write('x')\nwhile True:\n    pass";
      const timedOut = await call(conv, { code: loop }, [], 3_000);
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
      // What it wrote before the limit is kept (the code is interrupted first, then the sandbox is killed).
      expect(readFileSync(path.join(codeWorkDir(conv), 'before.txt'), 'utf8')).toBe('x');
      expect(text(await call(conv, { code: 'kept' }))).toContain("NameError: name 'kept' is not defined");
      // Code that ignores the interrupt is killed all the same.
      const stubborn = text(
        await call(
          conv,
          {
            code: 'import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nkept = 2\nwhile True:\n    pass',
          },
          [],
          3_000,
        ),
      );
      expect(stubborn).toContain(TIMEOUT_MESSAGE);
      expect(text(await call(conv, { code: 'kept' }))).toContain("NameError: name 'kept' is not defined");
    },
    SLOW,
  );

  it(
    'a stop while the code runs kills the interpreter, and the call tells whoever stopped it so',
    async () => {
      await call(conv, { code: 'kept = 3' });
      const stop = new AbortController();
      let note: string | undefined;
      const running = runTool(
        createTool('code_interpreter'),
        JSON.stringify({ code: 'import time\nwhile True:\n    time.sleep(0.05)' }),
        {
          files: [],
          conversationId: conv,
          lang: 'en',
          messages: [],
          settings,
          signal: stop.signal,
          setStopNote: (n) => (note = n),
        },
      );
      // Said once the code is in the interpreter: from then on a stop restarts it.
      await vi.waitFor(() => expect(note).toBe(RESTARTED), { timeout: 20_000 });
      stop.abort();
      await expect(running).rejects.toThrow();
      expect(note).toBe(RESTARTED);
      const after = await call(conv, { code: 'kept' });
      expect(text(after)).toContain("NameError: name 'kept' is not defined");
      expect(failure(after)).toMatchObject({ kind: 'failed', type: 'NameError' });
    },
    SLOW,
  );

  it(
    'cannot kill the server, another process of the host, or its own init; ending itself only restarts it',
    async () => {
      // A host process of the sandbox's own uid: the one a kill would most likely be allowed to reach.
      const uid = process.getuid?.() === 0 ? SANDBOX_UID_WHEN_ROOT : process.getuid?.();
      const sentinel = spawn('sleep', ['60'], { uid, gid: uid, stdio: 'ignore' });
      try {
        const code = [
          'import os, signal',
          `for pid in (${process.pid}, ${sentinel.pid}, ${process.ppid}):`,
          '    try:',
          '        os.kill(pid, signal.SIGKILL)',
          '        print(pid, "killed")',
          '    except OSError as e:',
          '        print(pid, type(e).__name__)',
          'try:',
          '    os.kill(-1, signal.SIGKILL)',
          'except OSError as e:',
          '    print(-1, type(e).__name__)',
          'print("parent", os.getppid())',
        ].join('\n');
        const out = text(await call(conv, { code }));
        expect(out).not.toContain('killed');
        expect(out).toContain('parent 1');
        expect(sentinel.exitCode).toBeNull();
        expect(() => process.kill(sentinel.pid!, 0)).not.toThrow();
        // Its parent is the sandbox's init, which a SIGKILL from inside its namespace does not reach.
        await call(conv, { code: 'alive = True' });
        const parent = text(await call(conv, { code: 'import os, signal\nos.kill(os.getppid(), signal.SIGKILL)' }));
        expect(parent).toBe('Finished execution.');
        expect(text(await call(conv, { code: 'alive' }))).toContain('True');
        // Ending the kernel itself only ends this interpreter: the next call gets a fresh one.
        const exit = text(await call(conv, { code: 'import os\nos._exit(3)' }));
        expect(exit).toContain('The code interpreter stopped unexpectedly: the interpreter exited (code 3)');
        await ok();
      } finally {
        sentinel.kill('SIGKILL');
      }
    },
    SLOW,
  );

  it(
    'a forged frame on the kernel\u2019s pipe writes nothing outside the work directory',
    async () => {
      const marker = `forged-${Date.now()}.txt`;
      const code = [
        'import json, os',
        `h = json.dumps({"t": "file", "name": "../../${marker}", "bytes": 3}).encode()`,
        "os.write(4, h + b'\\nabc')",
        `h = json.dumps({"t": "file", "name": "${marker}", "bytes": 10 ** 12}).encode()`,
        "os.write(4, h + b'\\n')",
      ].join('\n');
      const out = text(await call(conv, { code }));
      expect(out).toMatch(/stopped unexpectedly: it broke the protocol/);
      expect(existsSync(path.join(codeWorkDir(conv), '..', '..', marker))).toBe(false);
      expect(existsSync(path.join(codeWorkDir(conv), marker))).toBe(false);
      await ok();
    },
    SLOW,
  );

  it(
    'a staged file larger than the disk limit is refused with a note, and the call still runs',
    async () => {
      const big = await upload('huge.csv', Buffer.alloc((DISK_MB + 1) * 1024 * 1024, 'a'));
      const out = text(await call('py-huge', { code: 'import os\nprint(os.path.exists("huge.csv"))' }, [big]));
      expect(out).toContain('False');
      expect(out).toMatch(
        /Some files could not be put in the working directory:\nhuge\.csv: (No space left on device|File too large)/,
      );
    },
    SLOW,
  );
});
