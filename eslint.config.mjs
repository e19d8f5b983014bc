import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

export default [
  ...nextVitals,
  ...nextTs,
  {
    ignores: ['.next/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'next-env.d.ts', 'data/**'],
  },
  {
    files: ['lib/**', 'tools/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['next', 'next/*', 'react', 'react-dom', 'react/*', 'zustand', 'zustand/*'], message: 'lib/ and tools/ stay framework-free.' }] },
      ],
    },
  },
];
