// The sandbox of code_interpreter's CPython backend: the command line that starts Python under bubblewrap (what is
// mounted, which namespaces, which user), and whether this host can run it at all.
//
// `unshare --user --map-root-user --net` makes the network namespace, whose loopback stays down (bwrap's own
// --unshare-net would bring `lo` up); bwrap inside it makes the user, PID, IPC, UTS and mount namespaces, mounts the
// system read-only and gives Python two size-limited tmpfs (/workspace, /tmp) as its only writable places. Nothing of
// DATA_DIR is mounted: the host copies files in and out through the kernel's pipes (python-interpreter.ts).
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, lstatSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { processWide } from '../config/process-wide';

/** Who the sandbox runs as when the server is root: not root, so RLIMIT_NPROC holds and no file of root's opens. */
export const SANDBOX_UID_WHEN_ROOT = 65534;
/** The uid and gid Python sees inside. */
const INNER_ID = 1000;
export const WORKSPACE = '/workspace';
export const MATPLOTLIB_BACKEND = 'module://agent_studio_backend';

export interface SandboxCommandSpec {
  /** The Python interpreter (a host path, mounted so that it is the same path inside). */
  python: string;
  /** Size of /workspace (the work directory's copy) and of the private /tmp, in MB. */
  diskMb: number;
  tmpMb: number;
}

export interface SandboxCommand {
  command: string;
  args: string[];
  /** Set when the server runs as root: the sandbox is started as this user instead. */
  uid?: number;
  gid?: number;
}

const SYSTEM_DIRS = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
/** Of /etc, only what Python, numpy's BLAS (via alternatives), matplotlib and time zones read. */
const ETC_ENTRIES = ['alternatives', 'ld.so.cache', 'localtime', 'matplotlibrc', 'fonts'];

/** /bin, /lib… as on the host: a symlink into /usr (merged /usr) stays a symlink, a real directory is bound. */
function systemDirMounts(): string[] {
  const out: string[] = [];
  for (const dir of SYSTEM_DIRS) {
    let info;
    try {
      info = lstatSync(dir);
    } catch {
      continue;
    }
    if (info.isSymbolicLink()) out.push('--symlink', readlinkSync(dir), dir);
    else if (info.isDirectory()) out.push('--ro-bind', dir, dir);
  }
  return out;
}

function etcMounts(): string[] {
  let pythonEtc: string[] = [];
  try {
    pythonEtc = readdirSync('/etc').filter((n) => /^python3(\.\d+)?$/.test(n)); // Debian's sitecustomize.py
  } catch {
    // no /etc to read: nothing to mount
  }
  return [...ETC_ENTRIES, ...pythonEtc].flatMap((n) => ['--ro-bind-try', `/etc/${n}`, `/etc/${n}`]);
}

/** An interpreter outside /usr (a venv, conda): its prefix (the directory above bin/) is mounted read-only. */
export function pythonPrefixMounts(python: string): string[] {
  const dirs = new Set<string>();
  for (const p of [python, existsSync(python) ? realpathSync(python) : python]) {
    const abs = path.resolve(p);
    if (abs.startsWith('/usr/')) continue;
    dirs.add(path.dirname(path.dirname(abs)));
  }
  return [...dirs].flatMap((d) => ['--ro-bind', d, d]);
}

export function sandboxEnv(): Record<string, string> {
  return {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: '/tmp',
    TMPDIR: '/tmp',
    USER: 'sandbox',
    LANG: 'C.UTF-8',
    MPLBACKEND: MATPLOTLIB_BACKEND,
    MPLCONFIGDIR: '/tmp/matplotlib',
    // One BLAS thread: the host has few cores and every thread counts against the process limit.
    OPENBLAS_NUM_THREADS: '1',
    OMP_NUM_THREADS: '1',
    MKL_NUM_THREADS: '1',
  };
}

/** The command that runs `python <pythonArgs>` in the sandbox. */
export function sandboxCommand(spec: SandboxCommandSpec, pythonArgs: string[]): SandboxCommand {
  const mb = 1024 * 1024;
  const args = [
    '--user',
    '--map-root-user',
    '--net',
    '--',
    'bwrap',
    '--unshare-user',
    '--disable-userns',
    '--uid',
    String(INNER_ID),
    '--gid',
    String(INNER_ID),
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    '--cap-drop',
    'ALL',
    '--die-with-parent',
    '--new-session',
    '--hostname',
    'sandbox',
    '--ro-bind',
    '/usr',
    '/usr',
    ...systemDirMounts(),
    ...etcMounts(),
    ...pythonPrefixMounts(spec.python),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--size',
    String(spec.tmpMb * mb),
    '--tmpfs',
    '/tmp',
    '--size',
    String(spec.diskMb * mb),
    '--tmpfs',
    WORKSPACE,
    '--remount-ro',
    '/',
    '--chdir',
    WORKSPACE,
    '--clearenv',
    ...Object.entries(sandboxEnv()).flatMap(([k, v]) => ['--setenv', k, v]),
    '--',
    spec.python,
    ...pythonArgs,
  ];
  const root = process.getuid?.() === 0;
  return {
    command: 'unshare',
    args,
    ...(root ? { uid: SANDBOX_UID_WHEN_ROOT, gid: SANDBOX_UID_WHEN_ROOT } : {}),
  };
}

/** The directory of the server's PATH that holds an executable `name`, if any. */
function dirOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue;
    try {
      accessSync(path.join(dir, name), constants.X_OK);
      return dir;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * The environment the sandbox's launcher (unshare, bwrap) gets: a PATH of the directories that hold them, nothing
 * else. bwrap is process 1 inside the sandbox and the code reads its environment (/proc/1/environ): the server's
 * whole PATH there told the model where the server's checkout and its tools are.
 */
export function launcherEnv(): NodeJS.ProcessEnv {
  const dirs = new Set(['unshare', 'bwrap'].map(dirOnPath).filter((d): d is string => d !== undefined));
  return { PATH: dirs.size ? [...dirs].join(path.delimiter) : '/usr/bin:/bin' } as unknown as NodeJS.ProcessEnv;
}

export const REQUIRED_MODULES = ['numpy', 'pandas', 'matplotlib'] as const;

export type ProbeResult = { ok: true } | { ok: false; reason: string };

const PROBES = 'python-probes';

function runProbe(python: string): ProbeResult {
  if (!path.isAbsolute(python)) return { ok: false, reason: `the interpreter path ${python} is not absolute` };
  if (!existsSync(python)) return { ok: false, reason: `${python} does not exist` };
  const check = `import importlib.util as u; print(','.join(m for m in ${JSON.stringify(REQUIRED_MODULES)} if u.find_spec(m) is None))`;
  const cmd = sandboxCommand({ python, diskMb: 8, tmpMb: 8 }, ['-I', '-c', check]);
  const r = spawnSync(cmd.command, cmd.args, {
    cwd: '/',
    env: launcherEnv(),
    uid: cmd.uid,
    gid: cmd.gid,
    encoding: 'utf8',
    timeout: 20_000,
  });
  if (r.error) {
    const code = (r.error as NodeJS.ErrnoException).code;
    return {
      ok: false,
      reason:
        code === 'ENOENT' ? 'unshare (util-linux) is not installed' : `the sandbox did not start: ${r.error.message}`,
    };
  }
  if (r.status !== 0) {
    const why = (r.stderr || '').trim().split('\n').pop() || `exit status ${r.status ?? r.signal}`;
    if (/execute bwrap/.test(r.stderr ?? '')) return { ok: false, reason: 'bubblewrap (bwrap) is not installed' };
    return { ok: false, reason: `bubblewrap cannot start the sandbox here: ${why}` };
  }
  const missing = r.stdout.trim();
  if (missing) return { ok: false, reason: `${python} cannot import ${missing.split(',').join(', ')}` };
  return { ok: true };
}

/**
 * Can the CPython backend run here: `python` imports numpy, pandas and matplotlib inside a real sandbox (so bwrap,
 * user namespaces and the mounts all work)? Checked once per interpreter path and process (about 20 ms).
 */
export function probePython(python: string): ProbeResult {
  const cache = processWide(PROBES, () => new Map<string, ProbeResult>());
  let result = cache.get(python);
  if (!result) {
    result = runProbe(python);
    cache.set(python, result);
  }
  return result;
}
