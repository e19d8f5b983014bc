import path from 'node:path';
import { describe, it, expect, vi } from 'vitest';
import { BaseTool, type ToolContext, type ToolOutput } from './base-tool';
import { ToolArgumentsError, ToolServiceError } from './errors';
import { runTool, unknownToolResult } from './run-tool';

const ctx: ToolContext = { files: [], lang: 'en', messages: [] };

class Fake extends BaseTool {
  name = 'fake';
  description = 'A test tool.';
  parameters = {
    type: 'object',
    properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] } },
    required: ['city'],
  };
  received: string[] = [];
  constructor(private readonly behave: (params: string, ctx: ToolContext) => Promise<ToolOutput>) {
    super();
  }
  async call(params: string, c: ToolContext): Promise<ToolOutput> {
    this.received.push(params);
    return this.behave(params, c);
  }
}

const returning = (value: ToolOutput) => new Fake(async () => value);

class QuotaError extends ToolServiceError {
  override name = 'QuotaError';
}

describe('runTool: success', () => {
  it('returns a string result as is and hands call() the raw argument string', async () => {
    const tool = returning('sunny');
    const raw = "```json\n{'city': 'Paris',}\n```";
    expect(await runTool(tool, raw, ctx)).toEqual({ ok: true, content: 'sunny' });
    expect(tool.received).toEqual([raw]);
  });

  it('keeps a list of ContentItems as multimodal content', async () => {
    const items = [{ text: 'a chart' }, { image: 'https://x/y.png' }];
    expect(await runTool(returning(items), '{"city":"x"}', ctx)).toEqual({ ok: true, content: items });
  });

  it('JSON-encodes an array that is not all ContentItems, and an empty array', async () => {
    const mixed = [{ text: 'a' }, { image: 'b', text: 'c' }];
    expect((await runTool(returning(mixed), '{"city":"x"}', ctx)).content).toBe(JSON.stringify(mixed, null, 4));
    expect((await runTool(returning([]), '{"city":"x"}', ctx)).content).toBe('[]');
  });

  it('JSON-encodes objects with 4-space indent and keeps Chinese as is', async () => {
    const result = await runTool(returning({ city: '北京', temp: 21 }), '{"city":"北京"}', ctx);
    expect(result).toEqual({ ok: true, content: '{\n    "city": "北京",\n    "temp": 21\n}' });
  });

  it('JSON-encodes numbers, booleans and null', async () => {
    expect((await runTool(returning(42), '{"city":"x"}', ctx)).content).toBe('42');
    expect((await runTool(returning(false), '{"city":"x"}', ctx)).content).toBe('false');
    expect((await runTool(returning(null), '{"city":"x"}', ctx)).content).toBe('null');
  });
});

describe('runTool: failures the model sees', () => {
  it('does not call the tool when arguments are not JSON, and says so', async () => {
    const tool = returning('never');
    const result = await runTool(tool, 'city=Paris', ctx);
    expect(tool.received).toEqual([]);
    expect(result).toEqual({
      ok: false,
      content:
        'Invalid arguments for tool `fake`: Parameters must be formatted as a valid JSON!\n' +
        'Arguments received: city=Paris\n' +
        'Please call the tool again with corrected arguments.',
      error: {
        kind: 'invalid-arguments',
        message: 'Parameters must be formatted as a valid JSON!',
        type: 'ToolArgumentsError',
        code: 'tool-arguments-invalid',
        values: { tool: 'fake', detail: 'Parameters must be formatted as a valid JSON!' },
      },
    });
  });

  it('does not call the tool when arguments break the schema, and names the problem', async () => {
    const tool = returning('never');
    const result = await runTool(tool, '{"unit": "k"}', ctx);
    expect(tool.received).toEqual([]);
    expect(result.ok).toBe(false);
    expect(result.content).toContain("missing required property 'city'");
    expect(result.content).toContain("property 'unit' must be one of: c, f");
    expect(result.content).toContain('Arguments received: {"unit": "k"}');
    expect(result.content).toMatch(/call the tool again with corrected arguments\.$/);
  });

  it('treats a ToolArgumentsError thrown by call() as invalid arguments', async () => {
    const tool = new Fake(async () => {
      throw new ToolArgumentsError('city must be a real place');
    });
    const result = await runTool(tool, '{"city":"Atlantis"}', ctx);
    expect(result.ok === false && result.error.kind).toBe('invalid-arguments');
    expect(result.content).toContain('city must be a real place');
  });

  it('turns an exception into a short message with an error id; the stack goes to the server log only', async () => {
    const logged: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((line: string) => void logged.push(line));
    try {
      const tool = new Fake(async () => {
        throw new RangeError(`city not found in ${path.join(process.cwd(), 'node_modules', 'atlas', 'cities.json')}`);
      });
      const result = await runTool(tool, '{"city":"x"}', ctx);
      expect(result.ok).toBe(false);
      const id = /\(error id ([0-9a-f]{8})\)$/.exec(String(result.content))?.[1];
      expect(id).toBeDefined();
      expect(result.content).toBe(
        `An error occurred when calling tool \`fake\`:\nRangeError: city not found in …/cities.json (error id ${id})`,
      );
      // Neither the checkout's path, nor node_modules, nor a stack frame reaches the model or the page.
      for (const leak of [process.cwd(), 'node_modules', 'run-tool.test.ts', ' at ', 'Traceback'])
        expect(String(result.content)).not.toContain(leak);
      expect(result.ok === false && result.error).toEqual({
        kind: 'exception',
        message: `city not found in …/cities.json (error id ${id})`,
        type: 'RangeError',
        code: 'tool-failed',
        values: { tool: 'fake', type: 'RangeError', detail: `city not found in …/cities.json (error id ${id})` },
      });
      // The server's log has it all, under the same id.
      expect(logged).toHaveLength(1);
      expect(logged[0]).toContain(`[error ${id}] tool fake failed: RangeError: city not found`);
      expect(logged[0]).toContain('run-tool.test.ts');
    } finally {
      spy.mockRestore();
    }
  });

  it('reports a thrown non-Error value', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const tool = new Fake(async () => {
        throw 'boom';
      });
      const result = await runTool(tool, '{"city":"x"}', ctx);
      expect(result.content).toMatch(
        /^An error occurred when calling tool `fake`:\nstring: boom \(error id [0-9a-f]{8}\)$/,
      );
    } finally {
      spy.mockRestore();
    }
  });
});

describe('runTool: errors that end the run', () => {
  it('re-throws ToolServiceError and its subclasses', async () => {
    const fatal = new ToolServiceError('service down', { code: '503' });
    await expect(runTool(new Fake(async () => Promise.reject(fatal)), '{"city":"x"}', ctx)).rejects.toBe(fatal);
    const quota = new QuotaError('quota');
    await expect(runTool(new Fake(async () => Promise.reject(quota)), '{"city":"x"}', ctx)).rejects.toBe(quota);
  });

  it('re-throws the abort when the signal is already aborted, without calling the tool', async () => {
    const tool = returning('never');
    const ac = new AbortController();
    ac.abort();
    await expect(runTool(tool, '{"city":"x"}', { ...ctx, signal: ac.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(tool.received).toEqual([]);
  });

  it('re-throws the abort when the signal fires during the call', async () => {
    const ac = new AbortController();
    const tool = new Fake(
      (_p, c) =>
        new Promise((_resolve, reject) => {
          c.signal?.addEventListener('abort', () => reject(c.signal?.reason));
          setTimeout(() => ac.abort(), 5);
        }),
    );
    await expect(runTool(tool, '{"city":"x"}', { ...ctx, signal: ac.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('re-throws the abort even when the tool swallowed it and returned', async () => {
    const ac = new AbortController();
    const tool = new Fake(async () => {
      ac.abort();
      return 'late';
    });
    await expect(runTool(tool, '{"city":"x"}', { ...ctx, signal: ac.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});

describe('unknownToolResult', () => {
  it("uses upstream's exact wording", () => {
    expect(unknownToolResult('web_search')).toBe('Tool web_search does not exist.');
  });
});
