// A file name made safe to stage: one path segment, nothing that hides what it is. Uploads are stored under it,
// staged copies take it (tools/file-access.ts), and attachment names compare by it (attachment-name.ts).
import path from 'node:path';

/** Bidirectional embedding, override and isolate controls: they make "evil\u202Efdp.exe" read as "evilexe.pdf". */
export const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;

const MAX_NAME_LENGTH = 200;

/** A single safe path segment: no separators, no '..', no control, bidi-override or reserved characters, no
 *  leading dots. */
export function safeFileName(raw: string): string {
  let name = raw
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .replace(BIDI_CONTROLS, '')
    .replace(/[/\\:*?"<>|]/g, '_')
    .replace(/\.{2,}/g, '.')
    .replace(/^[.\s]+/, '')
    .trim();
  if (name.length > MAX_NAME_LENGTH) {
    const ext = path.extname(name).slice(0, 20);
    name = name.slice(0, MAX_NAME_LENGTH - ext.length) + ext;
  }
  return name || 'file';
}
