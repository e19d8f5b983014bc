// The limits every parser honours, from the environment by default (lib/config/index.ts).
import { loadConfig, type DocumentLimits } from '../config';

export type { DocumentLimits } from '../config';

export function documentLimits(overrides: Partial<DocumentLimits> = {}): DocumentLimits {
  return { ...loadConfig().documents, ...overrides };
}

/** "50 MB", "1.5 KB": sizes in messages people read. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  const units = ['KB', 'MB', 'GB'];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1).replace(/\.0$/, '')} ${units[unit]}`;
}
