/** @type {import('next').NextConfig} */
module.exports = {
  // Heavy or native server-side packages stay out of the bundle (STACK.md). More join as their features land.
  // linkedom: an optional require('canvas') that the bundler must not chase; the MCP SDK spawns stdio servers.
  serverExternalPackages: ['linkedom', '@mozilla/readability', '@modelcontextprotocol/sdk'],
};
