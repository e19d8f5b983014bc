// At server start (instrumentation.ts), whoever started the server (npm start decides the same before building): a
// configuration that cannot work stops it; serving beyond this machine without ACCESS_TOKEN turns accounts on (a
// plain `next start -H 0.0.0.0` included), and says so; and then creating the first account needs the setup code the
// server prints (lib/auth/setup-code.ts), with AUTH=required too.
import { loadConfig } from '../config';
import { serverSetupCode, setupCodeNotice } from '../config/setup-code';
import { exposureDecision, exposureReasons } from '../config/exposure.mjs';
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

/** What this server does as started: a `problem` stops it; `accounts` (with the `notice` when its address turned
 *  them on), and `setupCode` when accounts are on and it is reachable beyond this machine. Only `next start` is
 *  judged (dev binds as told). */
export function startupDecision(
  argv: readonly string[] = process.argv,
  env: Record<string, string | undefined> = process.env,
): { problem?: string; accounts: boolean; notice?: string; setupCode?: true } {
  if (!argv.slice(1, 3).some((a) => a === 'start')) return { accounts: false };
  const where = {
    listenHost: listenHostFromArgv(argv),
    publicUrl: env.PUBLIC_URL?.trim() || undefined,
    allowedHosts: (env.ALLOWED_HOSTS ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean),
  };
  const decision = exposureDecision({ ...where, accessToken: env.ACCESS_TOKEN?.trim() || undefined, auth: env.AUTH });
  if (decision.problem) return { problem: decision.problem, accounts: false };
  try {
    loadConfig({ ...env, ...(decision.accounts ? { AUTH: 'required' } : {}) });
  } catch (e) {
    return { problem: e instanceof Error ? e.message : String(e), accounts: false };
  }
  const setupCode = decision.accounts && exposureReasons(where).length > 0;
  return { accounts: decision.accounts, notice: decision.notice ?? undefined, ...(setupCode ? { setupCode } : {}) };
}

/** What instrumentation.ts runs when the server starts: stop if it must not serve, turn accounts on when its
 *  address needs them (the configuration is read from the environment, so that is where it is said), then stamp
 *  every request with the address it came from. */
export function startServerChecks(): void {
  const { problem, accounts, notice, setupCode } = startupDecision();
  if (problem) {
    console.error(`\n${problem}\n`);
    process.exit(1);
  }
  if (accounts && process.env.AUTH !== 'required') {
    console.log(`\n${notice}\n`);
    process.env.AUTH = 'required';
  }
  if (setupCode) console.log(`\n${setupCodeNotice(serverSetupCode().install())}\n`);
  installPeerStamp();
}
