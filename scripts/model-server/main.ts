/**
 * CLI: tsx scripts/model-server/main.ts [--port 0] [--host 127.0.0.1] [--scenario file.json] [--model name[,name2...]]
 *      [--api-key key] [--control]
 * --control serves PUT /_control/scenario, POST /_control/reset and GET /_control/requests for tests in another process.
 * The first stdout line is `listening <url>` so a parent process can read the chosen port.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createModelServer } from './server';
import type { Scenario } from '../../lib/protocol/fixture';

function loadScenario(path: string): Scenario {
  const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Error(`scenario file ${path} must hold a JSON object with replies / rules / fallback`);
  }
  return parsed as Scenario;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      host: { type: 'string', default: '127.0.0.1' },
      scenario: { type: 'string' },
      model: { type: 'string' },
      control: { type: 'boolean', default: false },
      'api-key': { type: 'string' },
    },
    strict: true,
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid --port: ${values.port}`);

  const server = await createModelServer({
    port,
    host: values.host,
    model: values.model?.split(',')[0],
    moreModels: values.model?.split(',').slice(1),
    apiKey: values['api-key'],
    control: values.control,
    scenario: values.scenario ? loadScenario(values.scenario) : { fallback: 'echo' },
  });
  process.stdout.write(`listening ${server.url}\n`);

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`model-server: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
