// LOCAL_MODEL_* as lib/config reads them, and as LocalChatModel gets them.
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';
import { loadOptionsFrom } from './worker-protocol';

describe('local model settings', () => {
  it('defaults: DATA_DIR/models, GPU when found, 8192 tokens, the cores but one', () => {
    const { localModels } = loadConfig({ DATA_DIR: '/srv/agent' });
    expect(localModels).toEqual({
      dir: path.join('/srv/agent', 'models'),
      gpu: 'auto',
      contextSize: 8192,
      threads: Math.max(1, availableParallelism() - 1),
      uploadMaxBytes: 16 * 1024 ** 3,
    });
    expect(loadOptionsFrom(localModels)).toEqual({ gpu: 'auto', contextSize: 8192, threads: localModels.threads });
  });

  it('reads LOCAL_MODEL_GPU, LOCAL_MODEL_CONTEXT_SIZE and LOCAL_MODEL_THREADS, and refuses bad values', () => {
    const env = { LOCAL_MODEL_GPU: 'OFF', LOCAL_MODEL_CONTEXT_SIZE: '4096', LOCAL_MODEL_THREADS: '3' };
    const { localModels } = loadConfig(env);
    expect(localModels).toMatchObject({ gpu: 'off', contextSize: 4096, threads: 3 });
    expect(loadOptionsFrom(localModels).gpu).toBe(false);
    expect(() => loadConfig({ LOCAL_MODEL_GPU: 'cuda' })).toThrow(ConfigError);
    expect(() => loadConfig({ LOCAL_MODEL_CONTEXT_SIZE: '100' })).toThrow(
      /LOCAL_MODEL_CONTEXT_SIZE must be an integer >= 256/,
    );
    expect(() => loadConfig({ LOCAL_MODEL_THREADS: '0' })).toThrow(/LOCAL_MODEL_THREADS/);
    expect(loadConfig({ LOCAL_MODEL_UPLOAD_MAX_BYTES: '1000' }).localModels.uploadMaxBytes).toBe(1000);
    expect(() => loadConfig({ LOCAL_MODEL_UPLOAD_MAX_BYTES: '16GB' })).toThrow(/LOCAL_MODEL_UPLOAD_MAX_BYTES/);
  });
});
