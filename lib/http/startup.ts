// At server start (instrumentation.ts): refuse to serve beyond this machine without ACCESS_TOKEN, whoever started
// the server (npm start checks the same before building; a plain `next start -H 0.0.0.0` is stopped here).
import { loadConfig } from '../config';
import { exposureProblem } from '../config/exposure.mjs';
import { installPeerStamp } from './peer';

/** The address `next start` was told to listen on (-H / --hostname), or undefined for every interface. */
export function listenHostFromArgv(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-H' || arg === '--hostname') return argv[i + 1];
    const inline = /^(?:-H|--hostname)=(.*)$/.exec(arg);
    if (inline) return inline[1];
  }
  return undefined;
}

/** The reason this server must not run as started, or undefined. Only `next start` is judged (dev binds as told). */
export function startupProblem(
  argv: readonly string[] = process.argv,
  env: Record<string, string | undefined> = process.env,
): string | undefined {
  if (!argv.slice(1, 3).some((a) => a === 'start')) return undefined;
  let http;
  try {
    http = loadConfig(env).http;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  const problem = exposureProblem({
    listenHost: listenHostFromArgv(argv),
    accessToken: http.accessToken,
    publicUrl: http.publicOrigin,
    allowedHosts: http.allowedHosts,
  });
  return problem ?? undefined;
}

/** What instrumentation.ts runs when the server starts: stop if it must not serve, else stamp every request. */
export function startServerChecks(): void {
  const problem = startupProblem();
  if (problem) {
    console.error(`\n${problem}\n`);
    process.exit(1);
  }
  installPeerStamp();
}
