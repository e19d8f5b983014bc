// The process's blob stores, chosen by the configuration: the S3 bucket when S3_BUCKET is set, else DATA_DIR. One
// client per setting, made by the composition root (lib/server/context.ts) when it builds the services; the code that
// keeps files finds it by DATA_DIR (dataStore). The S3 SDK loads only when a bucket is used.
import path from 'node:path';
import type { AppConfig } from '../config';
import { processWide } from '../config/process-wide';
import { LocalBlobStore } from './local';
import { S3BlobStore } from './s3';
import type { BlobStore } from './types';

export { LocalBlobStore } from './local';
export { BlobError, checkKey, type BlobBody, type BlobInfo, type BlobStore } from './types';

// Process-wide (a module reload in Next dev keeps them, with the services that use them): by setting, and by DATA_DIR.
const registry = () =>
  processWide('blob-stores', () => ({
    bySetting: new Map<string, BlobStore>(),
    byDataDir: new Map<string, BlobStore>(),
  }));

/** The blob store of `config` (made once per setting); from now on the files of its DATA_DIR are kept there. */
export function blobStore(config: Pick<AppConfig, 'dataDir' | 's3'>): BlobStore {
  const { bySetting, byDataDir } = registry();
  const s3 = config.s3;
  const id = s3 ? JSON.stringify(s3) : `local:${config.dataDir}`;
  let store = bySetting.get(id);
  if (!store) {
    store = s3 ? new S3BlobStore(s3) : new LocalBlobStore(config.dataDir);
    bySetting.set(id, store);
  }
  byDataDir.set(path.resolve(config.dataDir), store);
  return store;
}

/** Where uploads, parses and work files of `dataDir` are kept: the store made for it (blobStore), else `dataDir`
 *  itself. */
export function dataStore(dataDir: string): BlobStore {
  return registry().byDataDir.get(path.resolve(dataDir)) ?? blobStore({ dataDir });
}
