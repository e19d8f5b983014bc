// Finding: code_interpreter had no disk quota (2 GiB written in 5 s) and `os.chmod(".", 0o777)` changed the real
// work directory's mode. Through the real server and the scripted model: the write stops at the quota with a clear
// error the model is given back, and the directory's mode does not change.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startApp, type App } from './support/app';

const QUOTA_MB = 16;
let app: App;
beforeAll(async () => {
  app = await startApp({ env: { CODE_INTERPRETER_DISK_MB: String(QUOTA_MB) } });
});
afterAll(() => app?.stop());

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
function toolResults(): string[] {
  const last = app.model.requests[app.model.requests.length - 1]!;
  return (last.body.messages as { role: string; content: string }[])
    .filter((m) => m.role === 'tool')
    .map((m) => m.content);
}

describe('code_interpreter through the server', () => {
  it(`a 2 GB write stops at the ${QUOTA_MB} MB quota, the model is told why, and chmod of the work dir is refused`, async () => {
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
    const [write, chmod] = toolResults();
    expect(write).toMatch(/OSError: \[Errno \d+\] No space left on device/);
    expect(write).toContain(`its files may take at most ${QUOTA_MB} MB (CODE_INTERPRETER_DISK_MB)`);
    expect(bytesUnder(workDir)).toBeLessThanOrEqual(QUOTA_MB * 1024 * 1024);
    expect(chmod).toMatch(/refused \[Errno \d+\] Operation not permitted/);
    expect(statSync(workDir).mode & 0o777).not.toBe(0o777);
  }, 180_000);
});
