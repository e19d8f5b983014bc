// The security suite (test/security): integration tests against the built app under `next start` on loopback
// ports. Run after `next build` (scripts/test-all.sh does); one file at a time, as each starts its own server.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/security/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 90_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
