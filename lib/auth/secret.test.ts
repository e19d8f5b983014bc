import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { installSecret, SECRET_FILE } from './secret';

describe('the secret that signs sessions', () => {
  it('is made once per install (32 random bytes, readable by the server’s user only) and read back after', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'secret-'));
    const made = installSecret(dir);
    expect(Buffer.from(made, 'base64url')).toHaveLength(32);
    expect(statSync(path.join(dir, SECRET_FILE)).mode & 0o777).toBe(0o600);
    expect(installSecret(dir)).toBe(made);
    expect(installSecret(mkdtempSync(path.join(tmpdir(), 'secret-')))).not.toBe(made);
  });

  it('AUTH_SECRET wins and writes nothing; a stored secret too short is refused with what to do', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'secret-'));
    expect(installSecret(dir, 'g'.repeat(40))).toBe('g'.repeat(40));
    expect(() => readFileSync(path.join(dir, SECRET_FILE))).toThrow();
    writeFileSync(path.join(dir, SECRET_FILE), 'short\n');
    expect(() => installSecret(dir)).toThrow(/shorter than 32 characters; delete it/);
  });
});
