// Qwen-Agent's `WebUI(agent).run()`: starts the Agent Studio app with the agents and tools of one module, its first
// agent the default of new conversations (its name, description and prompt suggestions on the empty conversation),
// and every agent of it a model on /v1. The app is a Next.js application, not part of this package: `app` (or
// AGENT_STUDIO_APP) is its folder, a checkout where `npm ci` ran; `npm run serve -- <file>` there does the same.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Starts the app serving `agentModule` (a path, or a file: URL such as `import.meta.url`). Resolves once the app
 * answers, with its address and a way to stop it. Options: `app` (the app's folder), `port` (else PORT, else 3000),
 * `dataDir` (else DATA_DIR), `env` (more environment: OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL…), `build`
 * (false: serve the app's build as it is), `stdio` (the app's output; default: this process's).
 */
export async function serve(agentModule, options = {}) {
  const file = String(agentModule).startsWith('file:')
    ? fileURLToPath(String(agentModule))
    : path.resolve(String(agentModule));
  if (!existsSync(file)) throw new Error(`serve: ${file} does not exist.`);
  const app = options.app ?? process.env.AGENT_STUDIO_APP;
  if (!app || !existsSync(path.join(app, 'scripts', 'start.mjs')))
    throw new Error(
      'serve: the Agent Studio app was not found. Set AGENT_STUDIO_APP (or the `app` option) to the folder of a ' +
        'checkout of it where `npm ci` ran.',
    );
  const port = String(options.port ?? process.env.PORT ?? 3000);
  const env = {
    ...process.env,
    ...options.env,
    SERVE_AGENT: file,
    PORT: port,
    ...(options.dataDir ? { DATA_DIR: path.resolve(options.dataDir) } : {}),
  };
  const args = [path.join(app, 'scripts', 'start.mjs'), ...(options.build === false ? ['--no-build'] : [])];
  const child = spawn(process.execPath, args, { cwd: app, env, stdio: options.stdio ?? 'inherit' });
  const host = env.HOST?.trim() || '127.0.0.1';
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 0)));
  for (;;) {
    const code = await Promise.race([exited, new Promise((r) => setTimeout(r, 500, undefined))]);
    if (code !== undefined) throw new Error(`serve: the app stopped (exit code ${code}) before it answered.`);
    const up = await fetch(`${url}/api/health`).then(
      (r) => r.status < 500,
      () => false,
    );
    if (up) break;
  }
  return {
    url,
    process: child,
    /** Stops the app; resolves with its exit code. */
    close(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
    /** Resolves when the app stops by itself (or is stopped). */
    exited,
  };
}
