/**
 * CLI: tsx scripts/otlp-receiver/main.ts [--port 0]
 * A local OTLP/HTTP trace receiver (see server.ts). The first stdout line is `listening <url>` (the base URL, what
 * OTEL_EXPORTER_OTLP_ENDPOINT takes); GET <url>/_stats answers {requests, spans}.
 */
import { parseArgs } from 'node:util';
import { createOtlpReceiver } from './server';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '0' } }, strict: true });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid --port: ${values.port}`);
  const receiver = await createOtlpReceiver({ port });
  process.stdout.write(`listening ${receiver.url}\n`);
  const stop = () => void receiver.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`otlp-receiver: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
