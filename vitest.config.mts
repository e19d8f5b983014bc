import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The app's files (route handlers, imported by test/request-coverage.test.ts) use the `@/` alias of tsconfig.
  resolve: {
    alias: {
      '@agent-studio/core': fileURLToPath(new URL('./lib/core/index.ts', import.meta.url)),
      '@': fileURLToPath(new URL('.', import.meta.url)),
    },
  },
  test: {
    include: [
      'lib/**/*.test.ts',
      'tools/**/*.test.ts',
      'scripts/**/*.test.ts',
      'test/**/*.test.ts',
      'components/**/*.test.{ts,tsx}',
    ],
    // The security suite runs against the build, after it: vitest.security.config.mts.
    exclude: ['test/security/**', 'test/instances/**', '**/node_modules/**'],
    testTimeout: 20_000,
    pool: 'forks',
    // Vitest's default is one worker less than the cores: one on CI's two, where most files wait on HTTP, sandboxes
    // and disks rather than the CPU. Two at once ran the suite clean under a load average of 13.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
