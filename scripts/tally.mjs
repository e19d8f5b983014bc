// Sums the JSON reports of vitest and playwright into one plain closing line: "N passed, N failed, N skipped".
import { existsSync, readFileSync } from 'node:fs';

let passed = 0,
  failed = 0,
  skipped = 0;
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    console.log(`(no report at ${file})`);
    continue;
  }
  const r = JSON.parse(readFileSync(file, 'utf8'));
  if ('numPassedTests' in r) {
    // vitest
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + (r.numTodoTests ?? 0);
    if (r.numFailedTestSuites && !r.numFailedTests) failed += r.numFailedTestSuites; // a file that failed to load
  } else if (r.stats) {
    // playwright
    passed += r.stats.expected;
    failed += r.stats.unexpected + (r.stats.flaky ?? 0);
    skipped += r.stats.skipped;
    failed += (r.errors ?? []).length;
  }
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
