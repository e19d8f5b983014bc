import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'lib/**/*.test.ts',
      'tools/**/*.test.ts',
      'scripts/**/*.test.ts',
      'test/**/*.test.ts',
      'components/**/*.test.{ts,tsx}',
    ],
    // The security suite runs against the build, after it: vitest.security.config.mts.
    exclude: ['test/security/**', '**/node_modules/**'],
    testTimeout: 20_000,
    pool: 'forks',
  },
});
