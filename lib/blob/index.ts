// The process's blob store, chosen by the configuration: the S3 bucket when S3_BUCKET is set, else DATA_DIR. One
// client per setting, made on first use (the S3 SDK loads only then).
import { loadConfig, type AppConfig } from '../config';
import { LocalBlobStore } from './local';
import { S3BlobStore } from './s3';
import type { BlobStore } from './types';

export { LocalBlobStore } from './local';
export { BlobError, checkKey, type BlobBody, type BlobInfo, type BlobStore } from './types';

const stores = new Map<string, BlobStore>();

/** The blob store of `config` (default: the environment's). */
export function blobStore(config: Pick<AppConfig, 'dataDir' | 's3'> = loadConfig()): BlobStore {
  const s3 = config.s3;
  const id = s3 ? JSON.stringify(s3) : `local:${config.dataDir}`;
  let store = stores.get(id);
  if (!store) {
    store = s3 ? new S3BlobStore(s3) : new LocalBlobStore(config.dataDir);
    stores.set(id, store);
  }
  return store;
}

/** Where uploads, parses and work files of `dataDir` are kept: the S3 bucket of the environment's S3_* settings,
 *  else `dataDir` itself. */
export function dataStore(dataDir: string): BlobStore {
  return blobStore({ dataDir, s3: loadConfig().s3 });
}
