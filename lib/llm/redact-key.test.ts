import { describe, expect, it } from 'vitest';
import { KEY_REDACTED, redactKey } from './redact-key';

const KEY = 'sk-proj-Q7vX2mLp9RtK4wZs8NcJ3hYb6FdG1aEu';

describe('redactKey', () => {
  it('hides the key, any 8 of its characters in a row, and a mask showing its ends', () => {
    expect(redactKey(`Incorrect API key provided: ${KEY}.`, KEY)).toBe(`Incorrect API key provided: ${KEY_REDACTED}.`);
    expect(redactKey(`bad key ${KEY.slice(10, 22)} here`, KEY)).toBe(`bad key ${KEY_REDACTED} here`);
    expect(redactKey(`key ${KEY.slice(0, 8)}${'*'.repeat(28)}${KEY.slice(-4)}.`, KEY)).toBe(`key ${KEY_REDACTED}.`);
    expect(redactKey(`key sk-pro...aEu or sk-pro…aEu`, KEY)).toBe(`key ${KEY_REDACTED} or ${KEY_REDACTED}`);
  });

  it('leaves the rest of the message as it was', () => {
    const said = 'Rate limit reached... Try again in 20s; see https://platform.openai.com/docs/guides/rate-limits.';
    expect(redactKey(said, KEY)).toBe(said);
    // 7 characters of the key, or another key's mask, are not the key.
    expect(redactKey(`code ${KEY.slice(3, 10)} and sk-xyz...abc`, KEY)).toBe(
      `code ${KEY.slice(3, 10)} and sk-xyz...abc`,
    );
    // A short key is hidden only where it stands alone: the `k` of a test server's key stays in "broken".
    expect(redactKey('bad key: k. broken', 'k')).toBe(`bad key: ${KEY_REDACTED}. broken`);
    expect(redactKey("token 'a.b+c' refused", 'a.b+c')).toBe(`token '${KEY_REDACTED}' refused`);
    expect(redactKey('no key', undefined)).toBe('no key');
  });
});
