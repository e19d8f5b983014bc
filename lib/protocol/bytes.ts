// Sizes in the messages people read, in binary units everywhere (a 16 GiB limit reads "16 GB", never "17.18 GB"):
// the documents' limits, uploads, the local models' downloads and disk space.

/** "50 MB", "1.5 KB", "300 bytes". */
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
