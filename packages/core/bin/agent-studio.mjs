#!/usr/bin/env node
// `npx @agent-studio/core serve ./my-agent.mjs`: starts the Agent Studio app (AGENT_STUDIO_APP, or --app DIR: the
// folder of a checkout where `npm ci` ran) serving that module's agents and tools (serve.mjs). The app itself is a
// Next.js application and not part of this package.
import { serve } from '../serve.mjs';

const args = process.argv.slice(2);
const appAt = args.indexOf('--app');
const app = appAt >= 0 ? args.splice(appAt, 2)[1] : undefined;
const [command, file] = args;
if (command !== 'serve' || !file) {
  console.error('usage: agent-studio serve <my-agent.mjs> [--app <Agent Studio folder>]');
  process.exit(2);
}
try {
  const served = await serve(file, { ...(app ? { app } : {}) });
  console.log(`Serving ${file} at ${served.url}`);
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => void served.close(sig));
  process.exit(await served.exited);
} catch (e) {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
}
