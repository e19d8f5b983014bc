/** @type {import('next').NextConfig} */
module.exports = {
  // Heavy or native server-side packages stay out of the bundle, each for the reason below. More join as their
  // features land.
  // pdfjs-dist bundled fails with "Setting up fake worker failed: Cannot find module .../pdf.worker.mjs"; pyodide
  // loads its wasm and stdlib from its own folder; linkedom has an optional require('canvas') the bundler must not
  // chase; the MCP SDK spawns stdio servers.
  serverExternalPackages: ['pdfjs-dist', 'pyodide', 'linkedom', '@mozilla/readability', '@modelcontextprotocol/sdk'],
};
