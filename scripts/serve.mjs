// npm run serve -- <my-agent.mjs> [--no-build]: Qwen-Agent's `WebUI(agent).run()` for this checkout: builds if
// needed, then serves the app (PORT, DATA_DIR and the model's address from the environment as `npm start` takes them)
// with the module's agents and tools; its first agent is the default of new conversations and every agent of it is a
// model on /v1. A relative path is taken from where npm was run.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../packages/core/serve.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--'));
if (!file) {
  console.error('usage: npm run serve -- <path to my-agent.mjs> [--no-build]');
  process.exit(2);
}
try {
  const served = await serve(path.resolve(process.env.INIT_CWD ?? process.cwd(), file), {
    app: root,
    build: !args.includes('--no-build'),
  });
  console.log(`Serving ${file} at ${served.url}`);
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => void served.close(sig));
  process.exit(await served.exited);
} catch (e) {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
}
