// npm start: build when the build is missing or older than the sources, then serve on HOST:PORT (default
// 127.0.0.1:3000, this machine only, one user with no sign-in). Serving beyond it (another HOST, PUBLIC_URL,
// ALLOWED_HOSTS) needs a lock: ACCESS_TOKEN (one user), or else accounts, which this turns on (AUTH=required) and says
// so. A configuration that cannot work (a short token, a token with AUTH=required) is refused before building.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { exposureDecision } from '../lib/config/exposure.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const host = process.env.HOST?.trim() || '127.0.0.1';
const { problem, accounts, notice } = exposureDecision({
  listenHost: host,
  accessToken: process.env.ACCESS_TOKEN?.trim() || undefined,
  auth: process.env.AUTH,
  publicUrl: process.env.PUBLIC_URL?.trim() || undefined,
  allowedHosts: (process.env.ALLOWED_HOSTS ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean),
});
if (problem) {
  console.error(`\n${problem}\n`);
  process.exit(1);
}
if (notice) console.log(`\n${notice}\n`);
// The server decides the same from its own address; saying it here keeps both in step.
if (accounts) process.env.AUTH = 'required';
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
// `npm start -- --no-build` serves the build as it is (the security suite starts it this way).
const noBuild = process.argv.includes('--no-build');
const stale =
  !noBuild &&
  (!existsSync(buildId) ||
    Math.max(...sources.map(newest), statSync(path.join(root, 'package.json')).mtimeMs) > statSync(buildId).mtimeMs);
const next = path.join(root, 'node_modules', '.bin', 'next');
if (stale) {
  console.log('Building the app (first start or sources changed)…');
  execFileSync(next, ['build'], { cwd: root, stdio: 'inherit' });
}
const port = process.env.PORT ?? '3000';
const args = ['start', '-p', port, '-H', host, ...process.argv.slice(2).filter((a) => a !== '--no-build')];
const child = spawn(next, args, { cwd: root, stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 0));
