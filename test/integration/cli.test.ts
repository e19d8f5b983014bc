// The CLI as a user runs it: npm run agent -- ... against the scripted model server.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseAgentEvent } from '../../lib/agent';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';

let server: ModelServer;
beforeAll(async () => {
  server = await createModelServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

function cli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/agent-cli.ts', ...args], {
      env: {
        ...process.env,
        OPENAI_BASE_URL: server.url,
        OPENAI_API_KEY: 'k',
        OPENAI_MODEL: 'scripted',
        LLM_MAX_RETRIES: '0',
        ...env,
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

describe('npm run agent', () => {
  it('prints the tool call, its result, the answer and why it stopped', async () => {
    server.setScenario({
      replies: [
        { toolCalls: [{ id: 'c1', name: 'calculator', arguments: '{"expression": "6*7"}' }] },
        { content: 'The answer is 42.' },
      ],
    });
    const { code, stdout } = await cli(['--tool', 'calculator', 'What is 6*7?']);
    expect(code).toBe(0);
    expect(stdout).toContain('→ calculator {"expression": "6*7"}');
    expect(stdout).toMatch(/← 42 \(\d+ ms\)/);
    expect(stdout).toContain('The answer is 42.');
    expect(stdout).toMatch(/answered · 2 model call\(s\) · 1 tool call\(s\)/);
  });

  it('--json prints one schema-valid event per line', async () => {
    server.setScenario({ replies: [{ content: 'hello there' }] });
    const { code, stdout } = await cli(['--json', 'hi']);
    expect(code).toBe(0);
    const events = stdout
      .trim()
      .split('\n')
      .map((l) => parseAgentEvent(JSON.parse(l)));
    expect(events[0]!.type).toBe('run-start');
    expect(events.at(-1)).toMatchObject({ type: 'run-end', reason: 'answered' });
  });

  it('--agent react runs the ReAct agent', async () => {
    server.setScenario({
      replies: [
        { content: 'x\nAction: calculator\nAction Input: {"expression": "1+1"}' },
        { content: 'Final Answer: 2' },
      ],
    });
    const { code, stdout } = await cli(['--agent', 'react', '--tool', 'calculator', '1+1?']);
    expect(code).toBe(0);
    expect(stdout).toContain('Observation: 2');
    expect(stdout).toContain('Final Answer: 2');
  });

  it('exits non-zero with the error on stderr when the model fails', async () => {
    server.setScenario({
      fallback: {
        fault: { kind: 'status', status: 500, body: { error: { message: 'model crashed', type: 'server_error' } } },
      },
    });
    const { code, stderr } = await cli(['hi']);
    expect(code).toBe(1);
    expect(stderr).toContain('model crashed');
  });

  it('rejects bad flags, unknown tools and a missing model with a clear message', async () => {
    expect((await cli(['--agent', 'nope', 'hi'])).stderr).toContain('--agent must be fncall or react');
    const unknown = await cli(['--tool', 'nope', 'hi']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown tool "nope"');
    const none = await cli(['hi'], { OPENAI_BASE_URL: '', OPENAI_API_KEY: '' });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no model configured');
    expect((await cli([])).stderr).toContain('no message given');
  });
});
