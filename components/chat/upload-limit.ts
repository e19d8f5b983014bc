// The per-file size limit (UPLOAD_MAX_BYTES), checked on the page before a file is sent: a file over it is refused at
// once, in the page's language, instead of after its whole upload. Used wherever files are uploaded.
import * as documentActions from '@/app/actions/documents';
import type { CodedText } from './server-text';

/** The server's limit in bytes, once it has said it. */
let limit: number | undefined;

/** The server's limit in bytes, asked once per page; undefined while the server does not answer (asked again by the
 *  next upload: a failed ask is not kept). */
export async function uploadLimit(): Promise<number | undefined> {
  try {
    return (limit ??= await documentActions.uploadLimit());
  } catch {
    return undefined;
  }
}

/** Why `file` is not sent, found before sending it: too large (`too-large-limit`, the limit in bytes for the page to
 *  format), or no answer from the server (`max` undefined: `upload-connection`); undefined if it goes. */
export function oversizeRefusal(file: { name: string; size: number }, max: number | undefined): CodedText | undefined {
  if (max === undefined) return { code: 'upload-connection', values: { name: file.name } };
  return file.size > max ? { code: 'too-large-limit', values: { name: file.name, limit: max } } : undefined;
}
