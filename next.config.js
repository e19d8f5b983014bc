// next-intl's plugin points its server functions at the request configuration (the page's locale and catalog).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS config file
const createNextIntlPlugin = require('next-intl/plugin');

const withNextIntl = createNextIntlPlugin('./app/i18n/request.ts');

// The body limit and the headers every answer carries come from lib/http/settings.json (lib/http reads it too).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS config file
const { messageBodyBytes, securityHeaders } = require('./lib/http/settings.json');

/** @type {import('next').NextConfig} */
const config = {
  // Heavy or native server-side packages stay out of the bundle, each for the reason below. More join as their
  // features land.
  // pdfjs-dist bundled fails with "Setting up fake worker failed: Cannot find module .../pdf.worker.mjs"; pyodide
  // loads its wasm and stdlib from its own folder; linkedom has an optional require('canvas') the bundler must not
  // chase; the MCP SDK spawns stdio servers; node-llama-cpp bundled fails the build on its optional per-platform
  // binaries ("Can't resolve '@node-llama-cpp/mac-arm64-metal'"); the OpenTelemetry SDK (loaded only when tracing
  // is on) comes from node_modules as it is, with the one copy of @opentelemetry/api it shares with any other tracer.
  serverExternalPackages: [
    'pdfjs-dist',
    'pyodide',
    'linkedom',
    '@mozilla/readability',
    '@modelcontextprotocol/sdk',
    '@opentelemetry/api',
    '@opentelemetry/sdk-node',
    '@opentelemetry/sdk-trace',
    '@opentelemetry/exporter-trace-otlp-http',
    '@opentelemetry/exporter-trace-otlp-proto',
    'node-llama-cpp',
  ],
  experimental: {
    // forbidden() / unauthorized(): a refused server action answers 403 / 401 (app/actions/guard.ts).
    authInterrupts: true,
    // Server actions: Next counts the body's bytes while reading and stops at this limit.
    serverActions: { bodySizeLimit: messageBodyBytes },
    // What Next buffers of a body for proxy.ts; proxy.ts refuses larger declared bodies, so nothing is cut short.
    proxyClientMaxBodySize: messageBodyBytes,
  },
  poweredByHeader: false,
  // No gzip from the app: compressing a streamed answer sends each chunk through zlib's thread and a flush, which
  // held the first token back by a few ms (bench:first-token, first chunk to screen 7-10 ms without, 10-19 with), for
  // a feed that gzip shrinks by 0-20%. A reverse proxy in front may compress pages and scripts.
  compress: false,
  async headers() {
    return [
      { source: '/:path*', headers: Object.entries(securityHeaders).map(([key, value]) => ({ key, value })) },
      // Answers of route handlers are data, never a page: nothing in them may run or be framed.
      {
        source: '/api/:path*',
        headers: [{ key: 'Content-Security-Policy', value: "default-src 'none'; frame-ancestors 'none'; sandbox" }],
      },
    ];
  },
};

module.exports = withNextIntl(config);
