// The zero-latency scripted model for bench/loop-overhead.ts, in its own process so that its work does not share
// the event loop being measured. Three sequential calls of `noop`, then a final answer.
import { createModelServer } from '../scripts/model-server/server';

void createModelServer({
  port: 0,
  scenario: (req) => {
    const results = (req.body.messages as { role: string }[]).filter((m) => m.role === 'tool').length;
    if (results < 3)
      return {
        toolCalls: [{ id: `call_${results}`, name: 'noop', arguments: `{"step": ${results + 1}}` }],
        usage: { prompt_tokens: 50, completion_tokens: 10 },
      };
    return {
      content: 'All three steps are done; the answer is ready.',
      usage: { prompt_tokens: 80, completion_tokens: 12 },
    };
  },
}).then((server) => {
  process.stdout.write(`${server.url}\n`);
  process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
});
