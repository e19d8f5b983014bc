/** @type {import('next').NextConfig} */
module.exports = {
  // Heavy or native server-side packages stay out of the bundle (STACK.md). More join as their features land.
  // pdfjs-dist bundled fails with "Setting up fake worker failed: Cannot find module .../pdf.worker.mjs"; pyodide
  // loads its wasm and stdlib from its own folder; linkedom has an optional require('canvas') the bundler must not
  // chase; the MCP SDK spawns stdio servers; the OpenTelemetry SDK (loaded only when tracing is on) comes from
  // node_modules as it is, with the one copy of @opentelemetry/api it shares with any other tracer in the process.
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
  ],
};
