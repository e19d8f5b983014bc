# The kernel of code_interpreter's CPython backend: one warm Python process per conversation, started inside the
# bubblewrap sandbox by lib/sandbox/python-interpreter.ts and driven over two pipes (fd 3 in, fd 4 out).
#
# Frames, both ways: a JSON header on one line, then `bytes` raw bytes when the header says so.
#   in:  {"t": "put", "name", "bytes"} + content   a file for /workspace (the conversation's staged files)
#        {"t": "run", "id", "code", "cpu"}          run code in the persistent namespace
#   out: {"t": "ready"}                             once the limits are set
#        {"t": "file", "name", "bytes"} + content   a file the call wrote or changed (the host keeps a copy)
#        {"t": "gone", "name"}                      a file the call deleted
#        {"t": "refused", "name"}                   a staged file that could not be kept (no space)
#        {"t": "result", "id", "stdout", "stderr", "result", "error"?, "errorName"?, "diskFull"?}
#
# The code runs in this very process, so nothing here is a security boundary: the sandbox around the process is
# (README, "Threat model"). The host treats every frame as untrusted. What this file adds is behaviour: limits set
# before any user code, output captured and capped, figures saved, processes left behind killed after each call.
import ast
import codecs
import importlib.machinery
import importlib.util
import io
import json
import linecache
import os
import resource
import select
import signal
import sys
import threading
import time
import traceback
import types

LIMITS = json.loads(sys.argv[1])
WORKSPACE = '/workspace'
CELL = '<code>'
OUTPUT_CHARS = LIMITS['outputChars']
MAX_ENTRIES = 2000
MAX_DEPTH = 6
CHUNK = 1 << 16


def set_limits():
    mb = 1024 * 1024
    for name, value in (
        ('RLIMIT_AS', LIMITS['addressSpaceMb'] * mb),
        ('RLIMIT_FSIZE', LIMITS['diskMb'] * mb),
        ('RLIMIT_NPROC', LIMITS['processes']),
        ('RLIMIT_NOFILE', LIMITS['openFiles']),
        ('RLIMIT_CORE', 0),
    ):
        resource.setrlimit(getattr(resource, name), (value, value))


set_limits()
os.chdir(WORKSPACE)
os.umask(0o022)

KERNEL_PID = os.getpid()
commands = os.fdopen(3, 'rb', buffering=CHUNK)
replies = os.fdopen(4, 'wb', buffering=CHUNK)
# Only the kernel speaks the protocol: programs the code starts do not inherit the pipes, and a process the code
# forks gets /dev/null in their place (it returns into this file's code otherwise, and would answer too).
for _fd in (3, 4):
    os.set_inheritable(_fd, False)


def _forked_child():
    null = os.open('/dev/null', os.O_RDWR)
    for fd in (3, 4):
        os.dup2(null, fd, inheritable=False)
    os.close(null)


os.register_at_fork(after_in_child=_forked_child)


def send(header, payload=None):
    replies.write(json.dumps(header).encode() + b'\n')
    if payload is not None:
        replies.write(payload)
    replies.flush()


# ---- output capture ---------------------------------------------------------------------------------------------

class Capture:
    """Text written during a call, kept up to OUTPUT_CHARS; the rest only counted."""

    def __init__(self):
        self.lock = threading.Lock()
        self.parts, self.size, self.cut = [], 0, 0

    def add(self, text):
        with self.lock:
            room = OUTPUT_CHARS - self.size
            if len(text) <= room:
                self.parts.append(text)
                self.size += len(text)
            else:
                if room > 0:
                    self.parts.append(text[:room])
                    self.size += room
                self.cut += len(text) - max(room, 0)

    def take(self):
        with self.lock:
            out = {'text': ''.join(self.parts), 'cut': self.cut}
            self.parts, self.size, self.cut = [], 0, 0
            return out


class FdReader:
    """What processes and C code write to fd 1 or 2 (a pipe read by a thread), into the same capture."""

    def __init__(self, fd, capture):
        read_end, write_end = os.pipe()
        os.dup2(write_end, fd)
        os.close(write_end)
        os.set_blocking(read_end, False)
        self.fd, self.capture, self.lock = read_end, capture, threading.Lock()
        self.decoder = codecs.getincrementaldecoder('utf-8')('replace')
        threading.Thread(target=self.loop, daemon=True).start()

    def read_available(self):
        with self.lock:
            while True:
                try:
                    data = os.read(self.fd, CHUNK)
                except BlockingIOError:
                    return
                if not data:
                    return
                self.capture.add(self.decoder.decode(data))

    def loop(self):
        while True:
            select.select([self.fd], [], [])
            self.read_available()


class Stream(io.TextIOBase):
    """sys.stdout / sys.stderr: text straight into the capture; fileno() is the captured fd."""

    def __init__(self, capture, fd):
        self.capture, self.fd = capture, fd
        self.buffer = types.SimpleNamespace(write=self.write_bytes, flush=lambda: None)

    def write(self, text):
        self.capture.add(str(text))
        return len(text)

    def write_bytes(self, data):
        self.capture.add(bytes(data).decode('utf-8', 'replace'))
        return len(data)

    @property
    def encoding(self):
        return 'utf-8'

    def writable(self):
        return True

    def isatty(self):
        return False

    def fileno(self):
        return self.fd


diagnostics = os.fdopen(os.dup(2), 'w')  # the host's stderr pipe, for the kernel's own failures
stdout, stderr = Capture(), Capture()
fd_readers = [FdReader(1, stdout), FdReader(2, stderr)]
streams = (Stream(stdout, 1), Stream(stderr, 2))
sys.stdout, sys.stderr = streams
sys.stdin = io.StringIO('')


# ---- the workspace ----------------------------------------------------------------------------------------------

def safe_name(name):
    parts = name.split('/')
    if not name or name.startswith('/') or '\0' in name or len(parts) > MAX_DEPTH + 1:
        return None
    if any(p in ('', '.', '..') for p in parts):
        return None
    return name


def snapshot():
    """Relative path -> (size, mtime_ns, inode) of every regular file under /workspace (symlinks not followed)."""
    out = {}

    def walk(abs_dir, rel, depth):
        if depth > MAX_DEPTH or len(out) >= MAX_ENTRIES:
            return
        try:
            entries = list(os.scandir(abs_dir))
        except OSError:
            return
        for entry in entries:
            if len(out) >= MAX_ENTRIES:
                return
            child = f'{rel}/{entry.name}' if rel else entry.name
            try:
                if entry.is_dir(follow_symlinks=False):
                    walk(entry.path, child, depth + 1)
                elif entry.is_file(follow_symlinks=False):
                    st = entry.stat(follow_symlinks=False)
                    out[child] = (st.st_size, st.st_mtime_ns, st.st_ino)
            except OSError:
                pass

    walk(WORKSPACE, '', 0)
    return out


def receive_file(name, size, notes):
    """A staged file from the host: read all of it from the pipe, keep it if it fits."""
    target = safe_name(name)
    out = None
    try:
        if target is None:
            raise ValueError('not a plain relative name')
        parent = os.path.dirname(target)
        if parent:
            os.makedirs(parent, exist_ok=True)
        if os.path.islink(target):
            os.unlink(target)
        out = open(target, 'wb')
    except (OSError, ValueError) as e:
        notes.append((name, str(e)))
    left = size
    while left > 0:
        data = commands.read(min(CHUNK, left))
        if not data:
            raise EOFError('the host closed the pipe in the middle of a file')
        left -= len(data)
        if out is not None:
            try:
                out.write(data)
            except OSError as e:
                notes.append((name, e.strerror or str(e)))
                out.close()
                out = None
                try:
                    os.unlink(target)  # no half file
                except OSError:
                    pass
    if out is not None:
        try:
            out.close()
        except OSError as e:
            notes.append((name, e.strerror or str(e)))


def send_file(name):
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return
    with os.fdopen(fd, 'rb') as f:
        size = os.fstat(fd).st_size
        replies.write(json.dumps({'t': 'file', 'name': name, 'bytes': size}).encode() + b'\n')
        left = size
        while left > 0:
            data = f.read(min(CHUNK, left)) or b'\0' * min(CHUNK, left)  # shrank meanwhile: pad to the size sent
            replies.write(data[:left])
            left -= len(data[:left])
    replies.flush()


def sync_out(before, after):
    # The host keeps a copy of the workspace, at most diskMb of it (sparse files are not sparse there).
    unchanged = sum(sig[0] for name, sig in after.items() if before.get(name) == sig)
    room = LIMITS['diskMb'] * 1024 * 1024 - unchanged
    left_out = []
    for name, sig in sorted(after.items()):
        if before.get(name) == sig or not safe_name(name):
            continue
        if sig[0] > room:
            left_out.append(name)
            continue
        room -= sig[0]
        send_file(name)
    if left_out:
        stderr.add(
            f"Not kept (the working directory holds at most {LIMITS['diskMb']} MB): {', '.join(left_out)}\n"
        )
    for name in sorted(set(before) - set(after)):
        if safe_name(name):
            send({'t': 'gone', 'name': name})


# ---- figures ----------------------------------------------------------------------------------------------------

figure_count = 0


def next_figure_name():
    global figure_count
    while True:
        figure_count += 1
        name = f'figure-{figure_count}.png'
        if not os.path.lexists(name):
            return name


def save_open_figures():
    """Every open matplotlib figure not already saved to a file becomes figure-N.png; all are closed."""
    plt = sys.modules.get('matplotlib.pyplot')
    if plt is None:
        return
    for num in plt.get_fignums():
        fig = plt.figure(num)
        if not getattr(fig, '_agent_studio_saved', False):
            try:
                fig._agent_studio_saving = True
                fig.savefig(next_figure_name(), dpi=100, bbox_inches='tight')
            except Exception as e:
                stderr.add(f'The figure could not be saved: {type(e).__name__}: {e}\n')
            finally:
                fig._agent_studio_saving = False
    plt.close('all')


BACKEND_SOURCE = '''
from matplotlib.backend_bases import FigureManagerBase as FigureManager
from matplotlib.backends.backend_agg import FigureCanvasAgg as FigureCanvas


def show(*args, **kwargs):
    save_open_figures()
'''


def mark_saved_figures(figure_module):
    """A figure the code saved to a file is on the card already: show() and the end of the call skip it."""
    savefig = figure_module.Figure.savefig

    def marking_savefig(self, fname, *args, **kwargs):
        if not getattr(self, '_agent_studio_saving', False) and isinstance(fname, (str, bytes, os.PathLike)):
            self._agent_studio_saved = True
        return savefig(self, fname, *args, **kwargs)

    figure_module.Figure.savefig = marking_savefig


class MatplotlibHooks:
    """MPLBACKEND=module://agent_studio_backend is Agg (headless) with a show() that saves the figures; and
    matplotlib.figure gets the savefig mark after it loads. Both on import, so matplotlib loads only when asked."""

    def __init__(self):
        self.after_import = {'matplotlib.figure': mark_saved_figures}

    def find_spec(self, name, path=None, target=None):
        if name == 'agent_studio_backend':
            return importlib.util.spec_from_loader(name, self)
        hook = self.after_import.pop(name, None)
        if hook is None:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path, target)
        if spec is not None and spec.loader is not None:
            exec_module = spec.loader.exec_module

            def exec_then_hook(module):
                exec_module(module)
                hook(module)

            spec.loader.exec_module = exec_then_hook
        return spec

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        module.save_open_figures = save_open_figures
        exec(BACKEND_SOURCE, module.__dict__)


sys.meta_path.insert(0, MatplotlibHooks())


# ---- processes left behind --------------------------------------------------------------------------------------

def others():
    me = os.getpid()
    return [int(p) for p in os.listdir('/proc') if p.isdigit() and int(p) not in (1, me)]


def reap_children():
    while True:
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def kill_leftovers():
    """Nothing the call started outlives it (the host checks too, from outside the sandbox)."""
    for _ in range(50):
        if not others():
            break
        try:
            os.kill(-1, signal.SIGKILL)
        except OSError:
            pass
        reap_children()
        time.sleep(0.002)


# ---- running code -----------------------------------------------------------------------------------------------

main = types.ModuleType('__main__')
main.__dict__['__builtins__'] = __builtins__
kernel_main = sys.modules['__main__']
sys.modules['__main__'] = main  # pickling and multiprocessing look classes up in __main__: the user's namespace
namespace = main.__dict__

def describe_error(exc):
    if isinstance(exc, SyntaxError) and exc.filename == CELL:
        return ''.join(traceback.format_exception_only(type(exc), exc))
    tb = exc.__traceback__
    # Only the user's frames: drop the kernel's own.
    while tb is not None and tb.tb_frame.f_code in (handle_run.__code__, run_code.__code__):
        tb = tb.tb_next
    return ''.join(traceback.format_exception(type(exc), exc, tb))


def disk_full(exc):
    """Did the error come from a write past the disk limit (the host then says what the limit is)?"""
    chain, seen = exc, set()
    while chain is not None and id(chain) not in seen:
        seen.add(id(chain))
        if isinstance(chain, OSError) and chain.errno in (28, 27):  # ENOSPC, EFBIG
            return True
        chain = chain.__cause__ or chain.__context__
    return False


def capped_repr(value):
    text = repr(value)
    if len(text) > OUTPUT_CHARS:
        return text[:OUTPUT_CHARS] + f'\n[… output cut: {len(text) - OUTPUT_CHARS} more characters not shown]'
    return text


def run_code(code):
    linecache.cache[CELL] = (len(code), None, code.splitlines(True), CELL)
    tree = ast.parse(code, CELL)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, CELL, 'exec'), namespace)
    if last is None:
        return None
    value = eval(compile(ast.Expression(last.value), CELL, 'eval'), namespace)
    if value is None:
        return None
    namespace['_'] = value
    return capped_repr(value)


def set_cpu_budget(seconds):
    usage = resource.getrusage(resource.RUSAGE_SELF)
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = int(usage.ru_utime + usage.ru_stime) + int(seconds)
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def handle_run(msg, notes):
    reap_children()  # any the host killed since the last call
    set_cpu_budget(msg.get('cpu', 60))
    sys.stdout, sys.stderr = streams  # the code may have replaced them in an earlier call
    before = snapshot()
    reply = {'result': None}
    try:
        reply['result'] = run_code(msg['code'])
    except BaseException as e:  # SystemExit and KeyboardInterrupt are the code's errors too
        reply['error'] = describe_error(e)
        reply['errorName'] = type(e).__name__
        if disk_full(e):
            reply['diskFull'] = True
        del e
    if os.getpid() != KERNEL_PID:
        os._exit(0)  # a process the code forked, back from the code: it has nothing more to do
    try:
        save_open_figures()
    except Exception as e:
        stderr.add(f'The figures could not be saved: {type(e).__name__}: {e}\n')
    kill_leftovers()
    sys.stdout.flush()
    sys.stderr.flush()
    for reader in fd_readers:
        reader.read_available()
    if notes:
        lines = '\n'.join(f'{name}: {why}' for name, why in notes)
        stderr.add(f'Some files could not be put in the working directory:\n{lines}\n')
        for name, _why in notes:
            send({'t': 'refused', 'name': name})  # the host sends it again next time
        notes.clear()
    sync_out(before, snapshot())
    send({'t': 'result', 'id': msg['id'], 'stdout': stdout.take(), 'stderr': stderr.take(), **reply})


def serve():
    notes = []
    send({'t': 'ready'})
    while True:
        line = commands.readline()
        if not line:
            return
        msg = json.loads(line)
        if msg.get('t') == 'put':
            receive_file(str(msg.get('name', '')), int(msg.get('bytes', 0)), notes)
        elif msg.get('t') == 'run':
            handle_run(msg, notes)


try:
    serve()
except BaseException:
    traceback.print_exc(file=diagnostics)
    diagnostics.flush()
    os._exit(70)
