// The limits every parser honours, from the environment by default (lib/config/index.ts).
import { loadConfig, type DocumentLimits } from '../config';

export type { DocumentLimits } from '../config';

export function documentLimits(overrides: Partial<DocumentLimits> = {}): DocumentLimits {
  return { ...loadConfig().documents, ...overrides };
}

export { formatBytes } from '../protocol/bytes';
