// next-intl's plugin points its server functions at the request configuration (the page's locale and catalog).
import createNextIntlPlugin from 'next-intl/plugin';

const withNextIntl = createNextIntlPlugin('./app/i18n/request.ts');

/** @type {import('next').NextConfig} */
const config = {
  // Heavy or native server-side packages stay out of the bundle (STACK.md). More join as their features land.
  // pdfjs-dist bundled fails with "Setting up fake worker failed: Cannot find module .../pdf.worker.mjs"; pyodide
  // loads its wasm and stdlib from its own folder; linkedom has an optional require('canvas') the bundler must not
  // chase; the MCP SDK spawns stdio servers.
  serverExternalPackages: ['pdfjs-dist', 'pyodide', 'linkedom', '@mozilla/readability', '@modelcontextprotocol/sdk'],
};

export default withNextIntl(config);
