import { loadConfig } from '../lib/config';

// Where tools keep their files. Read on every call so a changed DATA_DIR (tests, CLI flags) takes effect.
export function dataDir(): string {
  return loadConfig().dataDir;
}
