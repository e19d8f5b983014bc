// The layers of the code and which way imports may go (README "Layout"; bottom first):
//   protocol (lib/protocol) -> model layer (lib/llm, lib/config; lib/documents, lib/sandbox, lib/net, lib/blob beside it)
//   -> tools/ -> agent runtime (lib/agent, lib/mcp, lib/core: the core's one entry) -> services (lib/chat, lib/store, lib/uploads, lib/inspect,
//   lib/replay, lib/compare, lib/http, lib/telemetry, lib/server, lib/i18n, lib/models, lib/openai-api) -> app/ (with proxy.ts,
//   instrumentation.ts) -> components/.
// A module may import from its own layer and the layers below it, never from above. `npm test` runs this
// (scripts/test-all.sh, `npm run check:layers`); test/integration/layers.test.ts proves that it fails on a planted
// cycle and on a planted forbidden import.

const PROTOCOL = '^lib/protocol/';
const MODEL = '^lib/(llm|config|documents|sandbox|net|blob)/';
const TOOLS = '^tools/';
const RUNTIME = '^lib/(agent|mcp|core)/';
const SERVICES =
  '^lib/(chat|store|uploads|inspect|replay|compare|http|auth|telemetry|server|i18n|models|openai-api|plugins)/';
const APP = '^(app/|proxy[.]ts$|instrumentation[.]ts$)';
const COMPONENTS = '^components/';
const OURS = [PROTOCOL, MODEL, TOOLS, RUNTIME, SERVICES, APP, COMPONENTS, '^scripts/', '^test/', '^bench/', '^e2e/'];

// Test files are left out: they are leaves that nothing imports (so they make no cycle of the product's modules),
// and one may drive the code through the layers above it or use test infrastructure. test/support, e2e/support,
// scripts/ and bench/ are checked like the rest: none of them may be imported by product code.
const TEST = '[.](test|spec)[.]tsx?$';

/** A layer may not import from any of the layers named after it. */
function upward(name, from, above) {
  return {
    name,
    severity: 'error',
    comment: `${from} imports only from its own layer and the layers below it.`,
    from: { path: from },
    to: { path: above },
  };
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No two modules may import each other, directly or through others.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-cycle',
      severity: 'error',
      comment: 'No two folders of the core (lib/<part>, tools) or of app/ may import each other.',
      scope: 'folder',
      from: { path: '^(lib|tools|app)(/|$)' },
      to: { path: '^(lib|tools|app)(/|$)', circular: true },
    },
    {
      name: 'protocol-imports-nothing-of-ours',
      severity: 'error',
      comment: 'lib/protocol is the bottom layer: the event union, the shared enums, the fixture format.',
      from: { path: PROTOCOL },
      to: { path: OURS, pathNot: PROTOCOL },
    },
    upward('model-layer-stays-below-tools', MODEL, [TOOLS, RUNTIME, SERVICES, APP, COMPONENTS]),
    upward('tools-stay-below-the-agent-runtime', TOOLS, [RUNTIME, SERVICES, APP, COMPONENTS]),
    upward('agent-runtime-stays-below-services', RUNTIME, [SERVICES, APP, COMPONENTS]),
    upward('services-stay-below-app', SERVICES, [APP, COMPONENTS]),
    {
      name: 'core-is-framework-free',
      severity: 'error',
      comment: 'lib/ and tools/ run from a plain Node script: no next, react, zustand, app or components.',
      from: { path: '^(lib|tools)/' },
      to: {
        path: [
          '(^|/)node_modules/(next|react|react-dom|zustand)/',
          '^(next|react|react-dom|zustand)(/|$)',
          APP,
          COMPONENTS,
        ],
      },
    },
    {
      name: 'product-code-not-on-test-infrastructure',
      severity: 'error',
      comment:
        'Test infrastructure (scripts/, test/, e2e/, bench/) and examples/ import product code, not the other way round.',
      from: { path: '^(lib|tools|app|components)/' },
      to: { path: ['^scripts/', '^test/', '^e2e/', '^bench/', '^examples/'] },
    },
    {
      name: 'examples-use-the-core-entry',
      severity: 'error',
      comment:
        "examples/ reads like a user's code: of ours it imports only @agent-studio/core (lib/core/index.ts) and its own files.",
      from: { path: '^examples/' },
      to: { path: OURS, pathNot: '^lib/core/index[.]ts$' },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      comment: 'An import that cannot be resolved is a typo or a missing dependency.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^(node_modules|[.]next|data|reports|test-results|playwright-report)/', TEST] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.cjs', '.d.ts'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
