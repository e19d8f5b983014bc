// The secret that signs session cookies: AUTH_SECRET (or SECRET_KEY) when given, else one made for this install:
// 32 random bytes, written once to DATA_DIR/auth-secret (readable by the server's user only) and read back on every
// start, so sessions survive a restart. Deleting the file signs everyone out.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MIN_AUTH_SECRET_LENGTH } from '../config';

export const SECRET_FILE = 'auth-secret';

export function installSecret(dataDir: string, given?: string): string {
  if (given) return given;
  const file = path.join(dataDir, SECRET_FILE);
  try {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length >= MIN_AUTH_SECRET_LENGTH) return stored;
    throw new Error(
      `${file} holds a secret shorter than ${MIN_AUTH_SECRET_LENGTH} characters; delete it to make a new one.`,
    );
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  try {
    // 'wx': two processes starting at once cannot both write one; the loser reads the winner's.
    writeFileSync(file, `${secret}\n`, { flag: 'wx', mode: 0o600 });
    return secret;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw e;
  }
}
