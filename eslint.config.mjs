import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

// User-visible words in the page come from the message catalogs (lib/i18n/messages, README "Languages"). In
// components and pages, JSX text and string children must be translations; so must the attributes people read or
// hear (react/jsx-no-literals cannot single out attributes, so those are no-restricted-syntax selectors). Allowed:
// whitespace and punctuation, which are not words.
const NOT_WORDS = [
  '·',
  '—',
  '–',
  '(',
  ')',
  ':',
  '#',
  '…',
  '/',
  ',',
  '[',
  ']',
  '"',
  '?',
  '+',
  '-',
  '×',
  '☀',
  '☾',
  '%',
  '0',
];
const UI_ATTRIBUTE =
  'JSXAttribute[name.name=/^(aria-label|aria-description|aria-roledescription|aria-valuetext|aria-placeholder|title|placeholder|alt|label)$/]';
const HAS_LETTERS = '/[A-Za-z\\u00C0-\\u024F\\u3400-\\u9FFF]/';
const literalMessage =
  'User-visible text must come from the message catalog (useTranslations); see README "Languages".';
// A condition choosing words, one or two levels deep: {busy ? 'Saving…' : 'Save'}, {a ? 'x' : b ? 'y' : 'z'}.
const CHOICE = ':matches(ConditionalExpression, LogicalExpression)';
const choices = [`> ${CHOICE} >`, `> ${CHOICE} > ${CHOICE} >`];
const CHILD = ':matches(JSXElement, JSXFragment) > JSXExpressionContainer';
const uiLiterals = [
  `${UI_ATTRIBUTE} > Literal[value=${HAS_LETTERS}]`,
  `${UI_ATTRIBUTE} > JSXExpressionContainer > Literal[value=${HAS_LETTERS}]`,
  `${UI_ATTRIBUTE} > JSXExpressionContainer > TemplateLiteral > TemplateElement[value.raw=${HAS_LETTERS}]`,
  ...[UI_ATTRIBUTE + ' > JSXExpressionContainer', CHILD].flatMap((where) =>
    choices.flatMap((choice) => [
      `${where} ${choice} Literal[value=${HAS_LETTERS}]`,
      `${where} ${choice} TemplateLiteral > TemplateElement[value.raw=${HAS_LETTERS}]`,
    ]),
  ),
].map((selector) => ({ selector, message: literalMessage }));

export const pageTextRules = {
  'react/jsx-no-literals': ['error', { noStrings: true, ignoreProps: true, allowedStrings: NOT_WORDS }],
  'no-restricted-syntax': ['error', ...uiLiterals],
};

// Our errors are told apart by name (lib/protocol/errors.ts isErrorNamed), never with instanceof: the server loads a
// module once per bundle (a page's, each route's), so an error thrown by services another bundle built is not an
// instance of the class this bundle imports. The language's own errors are one class per process, and allowed.
const BUILTIN_ERRORS = 'Error|TypeError|RangeError|SyntaxError|EvalError|URIError|ReferenceError|AggregateError';
const instanceofError = {
  selector: `BinaryExpression[operator='instanceof'][right.name=/Error$/]:not([right.name=/^(${BUILTIN_ERRORS})$/])`,
  message:
    "Match an error by its name (isErrorNamed(e, 'XError') from lib/protocol/errors.ts) or its status/code: a class from another bundle is not this one.",
};

// Configuration is passed in (docs/development.md, "Configuration"): the composition root reads the environment once
// (lib/server/app-config.ts for the app; a script's or a bench's main) and hands each service its part. Nothing in
// lib/, tools/ or app/ below it calls loadConfig; lib/http/startup.ts is the server's start check, which only tries
// the configuration before the first request, and tools/settings.ts the root of a plain Node script that makes agents
// without passing settings (examples/). Tests are roots of their own.
const CONFIG_ROOTS = ['lib/config/index.ts', 'lib/server/app-config.ts', 'lib/http/startup.ts', 'tools/settings.ts'];
const configMessage =
  'Take the configuration as a parameter: only the composition root (lib/server/app-config.ts) calls loadConfig; see docs/development.md "Configuration".';
const loadConfigCalls = [
  "CallExpression[callee.name='loadConfig']",
  "CallExpression[callee.property.name='loadConfig']",
  "ImportSpecifier[imported.name='loadConfig']",
  "Property[key.name='loadConfig'][parent.type='ObjectPattern']",
].map((selector) => ({ selector, message: configMessage }));

const ZOD = { name: 'zod', message: "Import { z } from lib/protocol/zod.ts (zod configured for the page's CSP)." };

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [
      '.next/**',
      'node_modules/**',
      'packages/core/dist/**',
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
    files: ['lib/**/*.ts', 'tools/**/*.ts', 'app/**/*.ts', 'proxy.ts', 'instrumentation.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-syntax': ['error', instanceofError, ...loadConfigCalls] },
  },
  {
    files: CONFIG_ROOTS,
    rules: { 'no-restricted-syntax': ['error', instanceofError] },
  },
  {
    files: ['components/**/*.tsx', 'app/**/*.tsx'],
    ignores: ['**/*.test.tsx'],
    rules: {
      ...pageTextRules,
      'no-restricted-syntax': [...pageTextRules['no-restricted-syntax'], instanceofError, ...loadConfigCalls],
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
