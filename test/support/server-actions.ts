// The server actions of a build, read from its manifest (.next/server/server-reference-manifest.json under `root`):
// an action's id, which a page sends as the Next-Action header, and the page that uses it.
import { readFileSync } from 'node:fs';
import path from 'node:path';

type Manifest = { node: Record<string, { exportedName?: string; workers: Record<string, unknown> }> };

function manifest(root: string): Manifest {
  return JSON.parse(readFileSync(path.join(root, '.next/server/server-reference-manifest.json'), 'utf8')) as Manifest;
}

function entry(root: string, name: string): [string, Manifest['node'][string]] {
  const found = Object.entries(manifest(root).node).find(([, v]) => v.exportedName === name);
  if (!found) throw new Error(`no server action named ${name} in the build`);
  return found;
}

/** The id of a server action in the build, by its exported name. */
export function buildActionId(root: string, name: string): string {
  return entry(root, name)[0];
}

/** A page of the build that uses the server action (where a browser calls it from): '/', '/account', '/runs'… */
export function buildActionPage(root: string, name: string): string {
  const worker = Object.keys(entry(root, name)[1].workers)[0]!;
  return worker.replace(/^app/, '').replace(/\/page$/, '') || '/';
}
