// The limits every parser honours: the configuration's (UPLOAD_MAX_BYTES, UNZIP_MAX_BYTES), handed in by whoever parses;
// the defaults where nobody did (lib/config/index.ts).
import { defaultConfig, type DocumentLimits } from '../config';

export type { DocumentLimits } from '../config';

/** The default limits, with `overrides`. */
export function documentLimits(overrides: Partial<DocumentLimits> = {}): DocumentLimits {
  return { ...defaultConfig().documents, ...overrides };
}

export { formatBytes } from '../protocol/bytes';
