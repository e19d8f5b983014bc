/** @type {import('next').NextConfig} */
module.exports = {
  // Heavy or native server-side packages stay out of the bundle (STACK.md). More join as their features land.
  serverExternalPackages: ['pyodide'],
};
