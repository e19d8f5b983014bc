// Finding: code_interpreter had no disk quota (2 GiB written in 5 s) and `os.chmod(".", 0o777)` changed the real
// work directory's mode. Through the real server and the scripted model, on both backends: the write stops at the
// quota with a clear error the model is given back, and the directory's mode does not change. (On CPython the host
// directory is not mounted in the sandbox at all: the code's chmod changes only the sandbox's own /workspace.)
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probePython } from '../../lib/sandbox/bwrap';
import { request, startApp, type App } from './support/app';

const QUOTA_MB = 16;
const BACKENDS = [
  { backend: 'pyodide', available: true, full: /OSError: \[Errno \d+\] No space left on device/ },
  {
    backend: 'python',
    available: probePython('/usr/bin/python3').ok,
    // A write past the tmpfs, or past the file-size limit, whichever the write meets first.
    full: /OSError: \[Errno (28\] No space left on device|27\] File too large)/,
  },
] as const;

const WRITE_2GB = [
  'chunk = b"x" * (1 << 20)',
  'with open("big.bin", "wb") as f:',
  '    for _ in range(2048):',
  '        f.write(chunk)',
].join('\n');
const CHMOD =
  'import os\ntry:\n    os.chmod(".", 0o777)\n    print("changed")\nexcept PermissionError as e:\n    print("refused", e)';

function bytesUnder(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce(
    (n, e) => n + (e.isDirectory() ? bytesUnder(path.join(dir, e.name)) : statSync(path.join(dir, e.name)).size),
    0,
  );
}

/** The tool results the model was sent back, in order (the last request holds the whole history). */
function toolResults(app: App): string[] {
  const last = app.model.requests[app.model.requests.length - 1]!;
  return (last.body.messages as { role: string; content: string }[])
    .filter((m) => m.role === 'tool')
    .map((m) => m.content);
}

describe.each(BACKENDS)('code_interpreter through the server ($backend)', ({ backend, available, full }) => {
  let app: App;
  beforeAll(async () => {
    if (available)
      app = await startApp({ env: { CODE_INTERPRETER_BACKEND: backend, CODE_INTERPRETER_DISK_MB: String(QUOTA_MB) } });
  });
  afterAll(() => app?.stop());

  it.skipIf(!available)(
    `a 2 GB write stops at the ${QUOTA_MB} MB quota, the model is told why, and the host work dir keeps its mode`,
    async () => {
      app.model.setScenario({
        replies: [
          { toolCalls: [{ name: 'code_interpreter', arguments: JSON.stringify({ code: WRITE_2GB }) }] },
          { toolCalls: [{ name: 'code_interpreter', arguments: JSON.stringify({ code: CHMOD }) }] },
          { content: 'Done.' },
        ],
      });
      const res = await request(app.url, '/api/chat', {
        headers: { origin: app.url, 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'fill the disk', tools: ['code_interpreter'] }),
      });
      expect(res.status).toBe(200);
      const conversationId = /"conversationId":"([^"]+)"/.exec(res.text)![1]!;
      const workDir = path.join(app.dataDir, 'work', conversationId, 'code_interpreter');
      const [write, chmod] = toolResults(app);
      expect(write).toMatch(full);
      expect(write).toContain(`its files may take at most ${QUOTA_MB} MB (CODE_INTERPRETER_DISK_MB)`);
      expect(bytesUnder(workDir)).toBeLessThanOrEqual(QUOTA_MB * 1024 * 1024);
      if (backend === 'pyodide') expect(chmod).toMatch(/refused \[Errno \d+\] Operation not permitted/);
      expect(statSync(workDir).mode & 0o777).not.toBe(0o777);
    },
    180_000,
  );
});
