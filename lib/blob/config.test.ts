// The S3_* settings (lib/config): S3_BUCKET turns the bucket on; a setting without it, half a key pair, or a value
// that cannot be right is refused saying which, and the secret is never part of the message.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';

const s3 = (env: Record<string, string>) => loadConfig(env).s3;

describe('S3 settings', () => {
  it('are off by default: the blob store is DATA_DIR', () => {
    expect(s3({})).toBeUndefined();
  });

  it('need only S3_BUCKET; the rest have defaults', () => {
    expect(s3({ S3_BUCKET: 'b' })).toEqual({
      bucket: 'b',
      endpoint: undefined,
      region: 'us-east-1',
      credentials: undefined,
      forcePathStyle: false,
      prefix: '',
    });
    expect(
      s3({
        S3_BUCKET: 'b',
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        S3_REGION: 'eu-west-1',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_FORCE_PATH_STYLE: 'true',
        S3_PREFIX: '/studio/prod/',
      }),
    ).toEqual({
      bucket: 'b',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-1',
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
      forcePathStyle: true,
      prefix: 'studio/prod/',
    });
  });

  it('refuse what cannot be meant, saying which setting, never the secret', () => {
    const refused = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        return (e as Error).message;
      }
      throw new Error(`accepted ${JSON.stringify(env)}`);
    };
    expect(refused({ S3_ENDPOINT: 'http://x', S3_SECRET_ACCESS_KEY: 'hush-123' })).toBe(
      'S3_ENDPOINT, S3_SECRET_ACCESS_KEY are set but S3_BUCKET is not',
    );
    const halfKey = refused({ S3_BUCKET: 'b', S3_SECRET_ACCESS_KEY: 'hush-123' });
    expect(halfKey).toContain('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together');
    expect(halfKey).not.toContain('hush-123');
    expect(refused({ S3_BUCKET: 'b', S3_ENDPOINT: 'minio:9000' })).toContain('S3_ENDPOINT must be an http(s) URL');
    expect(refused({ S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: 'yes' })).toContain('S3_FORCE_PATH_STYLE must be');
    expect(refused({ S3_BUCKET: 'b', S3_PREFIX: 'a/../b' })).toContain('S3_PREFIX');
  });
});
