// Several instances on one PostgreSQL database (test/instances): two `next start` processes of the build sharing a
// DATABASE_URL and a DATA_DIR. Run after `next build` with TEST_DATABASE_URL set (scripts/test-all.sh does both).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/instances/**/*.test.ts'],
    testTimeout: 90_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
