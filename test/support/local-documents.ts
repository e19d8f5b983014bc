// A scripted model server for the file's tests and a fresh temporary folder for each test, with tools reading files
// from it as the CLI passes them (the app only reads uploads); the document index starts empty in each test.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { clearIndexCache } from '../../lib/documents/search';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { allowLocalFileStaging } from '../../tools';

export interface LocalDocuments {
  /** The model server (made before the file's tests, reset before each). */
  server: ModelServer;
  /** This test's own folder (removed after it). */
  dir: string;
}

/** Registers the hooks; a file's own beforeEach runs after them, so it may write its documents into `dir`. */
export function localDocumentsForEachTest(prefix: string): LocalDocuments {
  const env = {} as LocalDocuments;
  beforeAll(async () => {
    allowLocalFileStaging(true);
    env.server = await createModelServer();
  });
  afterAll(() => {
    allowLocalFileStaging(false);
    return env.server.close();
  });
  beforeEach(async () => {
    env.server.reset();
    clearIndexCache();
    env.dir = await mkdtemp(path.join(os.tmpdir(), prefix));
    return () => rm(env.dir, { recursive: true, force: true });
  });
  return env;
}
