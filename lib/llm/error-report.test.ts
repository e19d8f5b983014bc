import path from 'node:path';
import OpenAI from 'openai';
import { describe, expect, it, vi } from 'vitest';
import { BlockedAddressError } from '../net/address-policy';
import { shortMessage, withoutPaths } from './error-report';
import { ModelServiceError, runErrorInfo } from './errors';
import { toModelError } from './openai-model';

describe('withoutPaths', () => {
  it("cuts every absolute path of the server's to its last part, wherever it stands", () => {
    const root = process.cwd();
    const text =
      `ENOENT: no such file or directory, open '${path.join(root, 'data', 'uploads', 'report.pdf')}'\n` +
      `    at Object.run (${path.join(root, '.next', 'server', 'chunks', '812.js')}:10:5)\n` +
      `    at file://${path.join(root, 'node_modules', 'pkg', 'index.mjs')}:3:1\n` +
      'C:\\Users\\me\\app\\node_modules\\x\\y.js failed';
    const out = withoutPaths(text);
    for (const leak of [root, '.next', 'node_modules', 'Users\\me']) expect(out).not.toContain(leak);
    expect(out).toContain("open '…/report.pdf'");
    expect(out).toContain('(…/812.js:10:5)');
    expect(out).toContain('…/y.js failed');
  });

  it('leaves URLs, relative paths, time zones and one-part paths alone', () => {
    for (const text of [
      'GET https://api.example.com/v1/models answered 404',
      "Unknown time zone 'Mars/Olympus_Mons'",
      'see docs/security.md',
      'the root / is not a file',
    ])
      expect(withoutPaths(text)).toBe(text);
  });

  it('shortMessage is one line, at most 500 characters', () => {
    expect(shortMessage('a\n  b\n\nc')).toBe('a b c');
    expect(shortMessage('x'.repeat(600))).toHaveLength(501);
  });
});

describe('runErrorInfo', () => {
  it("says the model layer's and the tools' own errors as they are", () => {
    expect(runErrorInfo(new ModelServiceError('Model server error 401: bad key', { status: 401 }))).toEqual({
      name: 'ModelServiceError',
      message: 'Model server error 401: bad key',
      status: 401,
    });
    const fatal = Object.assign(new Error('The document could not be parsed.'), { name: 'ToolServiceError' });
    expect(runErrorInfo(fatal).message).toBe('The document could not be parsed.');
  });

  it('gives an unexpected failure an error id, its stack to the log only', () => {
    const logged: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((line: string) => void logged.push(line));
    try {
      const info = runErrorInfo(new TypeError(`Cannot read properties of undefined in ${process.cwd()}/lib/x.ts`));
      const id = /\(error id ([0-9a-f]{8})\)$/.exec(info.message)?.[1];
      expect(info).toEqual({
        name: 'TypeError',
        message: `Cannot read properties of undefined in …/x.ts (error id ${id})`,
      });
      expect(logged[0]).toMatch(new RegExp(`^\\[error ${id}\\] a run failed: TypeError: .*\\n\\s+at `));
    } finally {
      spy.mockRestore();
    }
  });
});

describe('toModelError', () => {
  const headers = new Headers();

  it("never repeats a body that is not an OpenAI-style error; keeps a provider's error.message, short", () => {
    // What the SDK makes of a 502 whose body is an HTML page: the page is its message.
    const html = OpenAI.APIError.generate(502, undefined, '<html>internal canary page</html>', headers);
    expect(html.message).toContain('internal canary page');
    expect(toModelError(html).message).toBe('Model server error 502: the server gave no error message.');

    const json = OpenAI.APIError.generate(
      400,
      { error: { message: `This model's maximum context length is 8192 tokens.\n${'x'.repeat(400)}` } },
      undefined,
      headers,
    );
    const said = toModelError(json).message;
    expect(said).toMatch(/^Model server error 400: This model's maximum context length is 8192 tokens\. x+…$/);
    expect(said.length).toBeLessThan(340);
  });

  it('says a refusal of the address policy as it is, never retried', () => {
    const refusal = new BlockedAddressError('Refused to fetch localhost: loopback address. …');
    const wrapped = new OpenAI.APIConnectionError({ cause: new TypeError('fetch failed', { cause: refusal }) });
    const error = toModelError(wrapped);
    expect(error).toMatchObject({ message: refusal.message, code: 'address-refused', retryable: false });
  });
});
