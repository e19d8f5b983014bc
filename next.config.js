/** @type {import('next').NextConfig} */
module.exports = {
  // Heavy or native server-side packages stay out of the bundle (STACK.md). More join as their features land.
  // pdfjs-dist bundled fails with "Setting up fake worker failed: Cannot find module .../pdf.worker.mjs"; pyodide
  // loads its wasm and stdlib from its own folder; linkedom has an optional require('canvas') the bundler must not
  // chase; the MCP SDK spawns stdio servers; the OpenTelemetry SDK loads only when tracing is on, from node_modules,
  // sharing one copy of @opentelemetry/api with it.
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
  ],
};
