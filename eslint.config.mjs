import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

const ZOD = { name: 'zod', message: "Import { z } from lib/protocol/zod.ts (zod configured for the page's CSP)." };

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [
      '.next/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'reports/**',
      'next-env.d.ts',
      'data/**',
    ],
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'warn',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // lib/protocol/zod.ts configures zod once (jitless: the page's CSP forbids eval); every schema imports z from there.
    files: ['app/**', 'components/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [ZOD] }] },
  },
  {
    files: ['lib/**', 'tools/**'],
    ignores: ['lib/protocol/zod.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [ZOD],
          patterns: [
            { regex: '^(next|react|react-dom|zustand)(/.*)?$', message: 'lib/ and tools/ stay framework-free.' },
          ],
        },
      ],
    },
  },
];

export default config;
