// npm start: build when the build is missing or older than the sources, then serve on PORT (default 3000).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const buildId = path.join(root, '.next', 'BUILD_ID');

function newest(dir) {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}
const sources = ['app', 'components', 'lib', 'tools'].map((d) => path.join(root, d)).filter(existsSync);
const stale =
  !existsSync(buildId) ||
  Math.max(...sources.map(newest), statSync(path.join(root, 'package.json')).mtimeMs) > statSync(buildId).mtimeMs;
const next = path.join(root, 'node_modules', '.bin', 'next');
if (stale) {
  console.log('Building the app (first start or sources changed)…');
  execFileSync(next, ['build'], { cwd: root, stdio: 'inherit' });
}
const port = process.env.PORT ?? '3000';
const child = spawn(next, ['start', '-p', port, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 0));
