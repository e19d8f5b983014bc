import { describe, expect, it } from 'vitest';
import { MATPLOTLIB_BACKEND, pythonPrefixMounts, sandboxCommand, SANDBOX_UID_WHEN_ROOT, WORKSPACE } from './bwrap';

const spec = { python: '/usr/bin/python3', diskMb: 64, tmpMb: 16 };

/** The value following each occurrence of `flag`. */
function after(args: string[], flag: string, count = 1): string[][] {
  return args.flatMap((a, i) => (a === flag ? [args.slice(i + 1, i + 1 + count)] : []));
}

describe('the CPython sandbox command', () => {
  const { command, args, uid, gid } = sandboxCommand(spec, ['-I', '-c', 'print(1)']);
  const bwrap = args.slice(args.indexOf('bwrap') + 1);

  it('makes a network namespace outside bwrap (so loopback stays down) and every other namespace inside', () => {
    expect(command).toBe('unshare');
    expect(args.slice(0, args.indexOf('bwrap'))).toEqual(['--user', '--map-root-user', '--net', '--']);
    expect(bwrap).not.toContain('--unshare-net');
    expect(bwrap).not.toContain('--share-net');
    for (const flag of ['--unshare-user', '--disable-userns', '--unshare-pid', '--unshare-ipc', '--unshare-uts'])
      expect(bwrap).toContain(flag);
    expect(bwrap).toContain('--die-with-parent');
    expect(bwrap).toContain('--new-session');
    expect(after(bwrap, '--cap-drop')).toEqual([['ALL']]);
    expect(bwrap).toContain('--clearenv');
  });

  it('mounts the system read-only, never / itself, and nothing writable but two size-limited tmpfs', () => {
    const binds = [...after(bwrap, '--bind', 2), ...after(bwrap, '--dev-bind', 2)];
    expect(binds).toEqual([]);
    const roSources = [...after(bwrap, '--ro-bind', 2), ...after(bwrap, '--ro-bind-try', 2)].map(([src]) => src);
    expect(roSources).toContain('/usr');
    expect(roSources).not.toContain('/');
    for (const src of roSources) expect(src).toMatch(/^\/(usr|bin|sbin|lib\w*|etc\/[\w.]+)$/);
    expect(after(bwrap, '--tmpfs')).toEqual([['/tmp'], [WORKSPACE]]);
    expect(after(bwrap, '--size')).toEqual([[String(16 * 1024 * 1024)], [String(64 * 1024 * 1024)]]);
    // The size applies to the tmpfs named right after it.
    expect(bwrap[bwrap.indexOf(WORKSPACE) - 2]).toBe(String(64 * 1024 * 1024));
    expect(after(bwrap, '--remount-ro')).toEqual([['/']]);
    expect(after(bwrap, '--chdir')).toEqual([[WORKSPACE]]);
  });

  it('gives Python a clean environment: headless matplotlib with its cache in /tmp, one BLAS thread', () => {
    const env = Object.fromEntries(after(bwrap, '--setenv', 2));
    expect(env).toMatchObject({ MPLBACKEND: MATPLOTLIB_BACKEND, MPLCONFIGDIR: '/tmp/matplotlib', HOME: '/tmp' });
    expect(env.OPENBLAS_NUM_THREADS).toBe('1');
    expect(Object.keys(env).some((k) => /KEY|TOKEN|SECRET|OPENAI/.test(k))).toBe(false);
    expect(bwrap.slice(bwrap.lastIndexOf('--'))).toEqual(['--', '/usr/bin/python3', '-I', '-c', 'print(1)']);
  });

  it('runs as an unprivileged user when the server is root', () => {
    if (process.getuid?.() === 0) expect([uid, gid]).toEqual([SANDBOX_UID_WHEN_ROOT, SANDBOX_UID_WHEN_ROOT]);
    else expect([uid, gid]).toEqual([undefined, undefined]);
  });

  it('mounts the prefix of an interpreter outside /usr (a venv, conda), and nothing for one in /usr', () => {
    expect(pythonPrefixMounts('/usr/bin/python3')).toEqual([]);
    expect(pythonPrefixMounts('/opt/conda/bin/python')).toEqual(['--ro-bind', '/opt/conda', '/opt/conda']);
  });
});
