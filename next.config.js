/** @type {import('next').NextConfig} */
module.exports = {
  // Heavy or native server-side packages stay out of the bundle (STACK.md). More join as their features land.
  // pdfjs-dist bundled fails with "Setting up fake worker failed: Cannot find module .../pdf.worker.mjs"; pyodide
  // loads its wasm and stdlib from its own folder; linkedom has an optional require('canvas') the bundler must not
  // chase; the MCP SDK spawns stdio servers; node-llama-cpp bundled fails the build on its optional per-platform
  // binaries ("Can't resolve '@node-llama-cpp/mac-arm64-metal'").
  serverExternalPackages: [
    'pdfjs-dist',
    'pyodide',
    'linkedom',
    '@mozilla/readability',
    '@modelcontextprotocol/sdk',
    'node-llama-cpp',
  ],
};
