// Packages the core loads only when a feature needs them (pdf.js for PDFs, mammoth for Word, Pyodide for
// code_interpreter, the MCP SDK, node-llama-cpp…): the npm package declares them as optional peer dependencies, so a
// project may leave them out. Loading one that is not installed fails with a message naming the package to install,
// instead of a module-resolution error from deep inside the core.

/** A feature's optional package is not installed. */
export class MissingPackageError extends Error {
  override name = 'MissingPackageError';
  constructor(
    /** The npm package to install. */
    readonly packageName: string,
    /** What needs it, as a sentence's subject ("Reading PDF files"). */
    readonly purpose: string,
    options?: ErrorOptions,
  ) {
    super(
      `${purpose} needs the package ${packageName}, which is not installed here: npm install ${packageName}`,
      options,
    );
  }
}

/** Is `e` Node's "cannot find" error for `packageName` (a package import, a subpath of it, or a require)? */
export function isMissingPackage(e: unknown, packageName: string): boolean {
  const err = e as { code?: unknown; message?: unknown } | null;
  if (!err || (err.code !== 'ERR_MODULE_NOT_FOUND' && err.code !== 'MODULE_NOT_FOUND')) return false;
  const message = String(err.message);
  return [`'${packageName}'`, `'${packageName}/`, `"${packageName}"`, `"${packageName}/`].some((s) =>
    message.includes(s),
  );
}

/** Runs `load` (an import of `packageName` or of a module that imports it); a missing package becomes a
 *  MissingPackageError saying what needs it. */
export async function loadOptional<T>(packageName: string, purpose: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (e) {
    if (isMissingPackage(e, packageName)) throw new MissingPackageError(packageName, purpose, { cause: e });
    throw e;
  }
}

/** The same for a synchronous resolution (`require.resolve`). */
export function resolveOptional<T>(packageName: string, purpose: string, resolve: () => T): T {
  try {
    return resolve();
  } catch (e) {
    if (isMissingPackage(e, packageName)) throw new MissingPackageError(packageName, purpose, { cause: e });
    throw e;
  }
}
