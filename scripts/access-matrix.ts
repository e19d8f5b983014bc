// npm run access-matrix: writes the access matrix (lib/server/access-matrix.ts, from the declared access rules) into
// docs/security.md between its markers. `--check` writes nothing and fails when the page differs (what
// test/access-matrix.test.ts asserts in CI).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { withMatrix } from '../lib/server/access-matrix';

const page = path.resolve(__dirname, '..', 'docs', 'security.md');
const before = readFileSync(page, 'utf8');
const after = withMatrix(before);
if (process.argv.includes('--check')) {
  if (after !== before) {
    console.error('docs/security.md’s access matrix is out of date: run `npm run access-matrix`.');
    process.exit(1);
  }
  console.log('docs/security.md’s access matrix is up to date.');
} else if (after !== before) {
  writeFileSync(page, after);
  console.log('docs/security.md: access matrix written.');
} else console.log('docs/security.md: access matrix already up to date.');
