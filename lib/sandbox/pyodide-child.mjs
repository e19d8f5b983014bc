// The sandboxed Python process: one Pyodide interpreter, driven over the IPC channel by lib/sandbox/interpreter.ts.
// Plain ESM JavaScript because it is started with `node` directly (no TypeScript loader in production).
// The parent starts it under Node's permission model (fs limited to the work dir, no child processes, no workers),
// usually inside a network namespace; this file adds the in-process layers: no `require`, `process`, `fetch` or
// sockets reachable from the JS bridge, the `js`/`pyodide_js` modules blocked, a cap on the wasm heap, a disk quota
// on the work directory (counted as the code writes) and no way to change the work directory's own mode.
import { constants as fsConstants, fstatSync, lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const [pyodideDir, workDir, packagesDir = ''] = process.argv.slice(2);
const heapLimitBytes = Number(process.env.SANDBOX_HEAP_BYTES) || 512 * 1024 * 1024;
const outputLimit = Number(process.env.SANDBOX_OUTPUT_CHARS) || 20_000;
const diskLimitBytes = Number(process.env.SANDBOX_DISK_BYTES) || 1024 * 1024 * 1024;

// The heap cap: emscripten grows the wasm memory through Memory.prototype.grow and treats a throw as "out of
// memory", which Python reports as MemoryError; the interpreter survives it.
const realGrow = WebAssembly.Memory.prototype.grow;
WebAssembly.Memory.prototype.grow = function grow(pages) {
  if (this.buffer.byteLength + pages * 65536 > heapLimitBytes) throw new RangeError('sandbox memory limit');
  return realGrow.call(this, pages);
};

// NODEFS reads the open() flags through process.binding, which the permission model refuses; node:fs has them.
process.binding = (name) => {
  if (name === 'constants') return { fs: fsConstants };
  throw new Error(`process.binding('${name}') is not available in the sandbox`);
};

// What the runner keeps of `process` before the globals go.
const proc = process;
const send = proc.send.bind(proc);
const onMessage = (fn) => proc.on('message', fn);
const exit = proc.exit.bind(proc);
proc.on('disconnect', () => exit(0));

const PRELUDE = String.raw`
import ast, json, linecache, os, posix, sys, traceback

os.chdir('/workspace')
# Emscripten names the program it runs (this script, in the server's checkout) in os.environ['_'] and
# sys.executable: the code is told nothing of where the server is.
os.environ.pop('_', None)
sys.executable = ''
if __PACKAGES_DIR and __PACKAGES_DIR not in sys.path:
    sys.path.append(__PACKAGES_DIR)

_BLOCKED = ('js', 'pyodide_js', 'pyodide.ffi', 'pyodide.code', 'pyodide.http', 'pyodide.webloop', 'pyodide.console',
            '_pyodide', '_pyodide_core', 'pyodide_http', 'micropip')

def _blocked(name):
    return any(name == b or name.startswith(b + '.') for b in _BLOCKED)

class _BlockBridge:
    def find_spec(self, name, path=None, target=None):
        if _blocked(name):
            raise ImportError(f"module '{name}' is not available in the sandbox (no access to the JavaScript host)")
        return None

sys.meta_path.insert(0, _BlockBridge())
for _name in list(sys.modules):
    if _blocked(_name):
        del sys.modules[_name]

# Processes cannot exist under WebAssembly; say so instead of emscripten's bare OSError.
def _no_process(*args, **kwargs):
    raise PermissionError('starting processes is not allowed in the sandbox')
for _fn in ('system', 'popen', 'fork', 'forkpty', 'execv', 'execve', 'execl', 'execle', 'execlp', 'execvp', 'execvpe',
            'spawnv', 'spawnve', 'spawnl', 'spawnle', 'posix_spawn', 'posix_spawnp', 'kill', 'killpg'):
    for _mod in (os, posix):
        if hasattr(_mod, _fn):
            setattr(_mod, _fn, _no_process)

_CELL = '<code>'
_ns = {'__name__': '__main__', '__builtins__': __builtins__}

def _run(code):
    result = None
    try:
        linecache.cache[_CELL] = (len(code), None, code.splitlines(True), _CELL)
        tree = ast.parse(code, _CELL)
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        exec(compile(tree, _CELL, 'exec'), _ns)
        if last is not None:
            value = eval(compile(ast.Expression(last.value), _CELL, 'eval'), _ns)
            if value is not None:
                _ns['_'] = value
                result = repr(value)
        return json.dumps({'result': result})
    except BaseException as e:
        tb = e.__traceback__
        # Drop this function's own frame: the user sees only their code.
        if tb is not None and tb.tb_frame.f_code is _run.__code__:
            tb = tb.tb_next
        text = ''.join(traceback.format_exception(type(e), e, tb))
        return json.dumps({'result': result, 'error': text, 'errorName': type(e).__name__})
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
`;

function capped() {
  let text = '';
  let cut = 0;
  return {
    write(s) {
      const room = outputLimit - text.length;
      if (room >= s.length) text += s;
      else {
        if (room > 0) text += s.slice(0, room);
        cut += s.length - Math.max(room, 0);
      }
    },
    take() {
      const out = { text, cut };
      text = '';
      cut = 0;
      return out;
    },
  };
}

const stdout = capped();
const stderr = capped();
const stdoutDecoder = new TextDecoder();
const stderrDecoder = new TextDecoder();

const { loadPyodide } = await import(pathToFileURL(`${pyodideDir}/pyodide.mjs`).href);
// `jsglobals` is what `import js` would see: nothing.
const pyodide = await loadPyodide({ indexURL: `${pyodideDir}/`, jsglobals: Object.create(null) });
pyodide.setStdout({
  write: (buf) => (stdout.write(stdoutDecoder.decode(buf, { stream: true })), buf.length),
  isatty: false,
});
pyodide.setStderr({
  write: (buf) => (stderr.write(stderrDecoder.decode(buf, { stream: true })), buf.length),
  isatty: false,
});
pyodide.setStdin({ error: true });

// The disk quota: what the work directory holds (file sizes, plus a block per entry so that millions of empty files
// count too) is measured before each run, then every write, truncate, create and delete through NODEFS adjusts it.
// A write that would pass the quota fails with ENOSPC ("No space left on device") and nothing of it is written.
const ENTRY_BYTES = 4096;
const { FS } = pyodide;
const NODEFS = FS.filesystems.NODEFS;
const ERRNO = { EPERM: 63, ENOSPC: 51 };
const disk = { used: 0, full: false };

function usageOf(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    total += ENTRY_BYTES;
    if (entry.isDirectory()) total += usageOf(p);
    else if (entry.isFile()) total += lstatSync(p).size;
  }
  return total;
}

const inWorkspace = (node) => node?.mount?.mountpoint === '/workspace';
function charge(bytes) {
  if (bytes <= 0) return;
  if (disk.used + bytes > diskLimitBytes) {
    disk.full = true;
    throw new FS.ErrnoError(ERRNO.ENOSPC);
  }
  disk.used += bytes;
}
const credit = (bytes) => (disk.used = Math.max(0, disk.used - bytes));
const sizeAt = (p) => {
  try {
    return lstatSync(p).size;
  } catch {
    return 0;
  }
};

const nodeOps = { ...NODEFS.node_ops };
const streamOps = { ...NODEFS.stream_ops };

// chmod of the work directory itself would change the host directory's mode: refused. Inside it, modes keep their
// permission bits only (no setuid, setgid or sticky bits on files the server's user owns).
function guardAttr(node, attr, currentSize) {
  if (!inWorkspace(node)) return attr;
  let next = attr;
  if (attr.mode !== undefined && attr.mode !== null) {
    if (node === node.mount.root) throw new FS.ErrnoError(ERRNO.EPERM);
    next = { ...next, mode: attr.mode & ~0o7000 };
  }
  if (attr.size !== undefined) {
    const size = currentSize();
    if (attr.size > size) charge(attr.size - size);
    else credit(size - attr.size);
  }
  return next;
}
NODEFS.node_ops.setattr = (node, attr) =>
  nodeOps.setattr(
    node,
    guardAttr(node, attr, () => sizeAt(NODEFS.realPath(node))),
  );
NODEFS.stream_ops.setattr = (stream, attr) =>
  streamOps.setattr(
    stream,
    guardAttr(stream.node, attr, () => fstatSync(stream.nfd).size),
  );
NODEFS.stream_ops.write = (stream, buffer, offset, length, position, canOwn) => {
  if (inWorkspace(stream.node)) charge(position + length - fstatSync(stream.nfd).size);
  return streamOps.write(stream, buffer, offset, length, position, canOwn);
};
NODEFS.node_ops.mknod = (parent, name, mode, dev) => {
  if (inWorkspace(parent)) charge(ENTRY_BYTES);
  return nodeOps.mknod(parent, name, mode, dev);
};
NODEFS.node_ops.symlink = (parent, newName, oldPath) => {
  if (inWorkspace(parent)) charge(ENTRY_BYTES);
  return nodeOps.symlink(parent, newName, oldPath);
};
NODEFS.node_ops.unlink = (parent, name) => {
  const freed = inWorkspace(parent) ? ENTRY_BYTES + sizeAt(path.join(NODEFS.realPath(parent), name)) : 0;
  nodeOps.unlink(parent, name);
  credit(freed);
};
NODEFS.node_ops.rmdir = (parent, name) => {
  nodeOps.rmdir(parent, name);
  if (inWorkspace(parent)) credit(ENTRY_BYTES);
};

pyodide.FS.mkdirTree('/workspace');
pyodide.FS.mount(NODEFS, { root: workDir }, '/workspace');
if (packagesDir) {
  pyodide.FS.mkdirTree('/packages');
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: packagesDir }, '/packages');
}
pyodide.globals.set('__PACKAGES_DIR', packagesDir ? '/packages' : '');
pyodide.runPython(PRELUDE);
const run = pyodide.globals.get('_run');
// Nothing left to import that leads back to JavaScript, even if the code removes the import blocker.
for (const name of ['js', 'pyodide_js']) pyodide.unregisterJsModule(name);

// Emscripten's socket emulation opens WebSockets with `ws`, and its system() spawns a shell with child_process:
// both are replaced in the module caches it reads them from (the permission model and the network namespace
// refuse them too; this makes the refusal a clean error instead of a crash of the interpreter).
const hostRequire = createRequire(`${pyodideDir}/pyodide.asm.mjs`);
class NoWebSocket {
  constructor() {
    throw new Error('network access is disabled in the sandbox');
  }
}
NoWebSocket.Server = NoWebSocket;
hostRequire('ws');
hostRequire.cache[hostRequire.resolve('ws')].exports = NoWebSocket;
const childProcess = hostRequire('node:child_process');
for (const name of Object.keys(childProcess)) {
  if (typeof childProcess[name] === 'function')
    childProcess[name] = () => ({ status: 126, signal: null, error: new Error('processes are disabled') });
}

// Everything in the JS global scope that leads out of the process. Emscripten captured what it needs already.
for (const name of [
  'process',
  'require',
  'module',
  'fetch',
  'WebSocket',
  'EventSource',
  'XMLHttpRequest',
  'Request',
  'Response',
  'Headers',
  'Worker',
  'SharedWorker',
  'BroadcastChannel',
  'navigator',
  'Deno',
  'Bun',
]) {
  try {
    delete globalThis[name];
  } catch {
    // a non-configurable global stays; the permission model and the network namespace still apply
  }
}

onMessage((msg) => {
  if (msg?.type !== 'run') return;
  // The host may have added or removed files since the last run (staged uploads): measure again.
  disk.used = usageOf(workDir);
  disk.full = false;
  const reply = JSON.parse(run(msg.code));
  const quota = disk.full ? { diskFull: { limitBytes: diskLimitBytes } } : {};
  send({ type: 'result', id: msg.id, ...reply, ...quota, stdout: stdout.take(), stderr: stderr.take() });
});
send({ type: 'ready' });
