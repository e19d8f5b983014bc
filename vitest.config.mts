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
    testTimeout: 20_000,
    pool: 'forks',
  },
});
