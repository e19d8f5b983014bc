// Connections' API keys at rest: AES-256-GCM, each key with its own random nonce, so the database holds only
// ciphertext. The 32-byte key is derived from SECRET_KEY when it is set (HKDF-SHA256, so the same SECRET_KEY may sign
// other things without the two uses meeting), else made once on first start in DATA_DIR/secret.key (readable by the
// server's user only) and read back on every start. Losing the key file, or changing SECRET_KEY, makes the stored
// keys unreadable: the page then says which connections need their key again.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const SECRET_KEY_FILE = 'secret.key';
const VERSION = 'v1';
const INFO = 'agent-studio model connection keys';

export class SecretBoxError extends Error {
  override name = 'SecretBoxError';
}

export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new SecretBoxError('A secret box takes a 32-byte key.');
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, iv.toString('base64url'), tag.toString('base64url'), body.toString('base64url')].join(':');
  }

  /** The plain text, or a SecretBoxError when it was sealed with another key (or is damaged). */
  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split(':');
    if (version !== VERSION || !iv || !tag || body === undefined)
      throw new SecretBoxError('The stored key is not in a form this app can read.');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    } catch (e) {
      throw new SecretBoxError(
        'The stored API key cannot be decrypted: it was saved with another SECRET_KEY or key file. Enter the key again.',
        { cause: e },
      );
    }
  }
}

/** The box for this install: from SECRET_KEY when given, else from DATA_DIR/secret.key (made when missing). */
export function installSecretBox(dataDir: string, secretKey?: string): SecretBox {
  if (secretKey) return new SecretBox(Buffer.from(hkdfSync('sha256', secretKey, '', INFO, 32)));
  const file = path.join(dataDir, SECRET_KEY_FILE);
  const read = (): Buffer | undefined => {
    try {
      const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url');
      if (key.length !== 32)
        throw new SecretBoxError(
          `${file} does not hold a 32-byte key; restore it, or delete it and enter the connections' keys again.`,
        );
      return key;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
  };
  const existing = read();
  if (existing) return new SecretBox(existing);
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  try {
    // 'wx': of two processes starting at once, one writes the file and the other reads it.
    writeFileSync(file, `${key.toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
    return new SecretBox(key);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return new SecretBox(read()!);
    throw e;
  }
}
