// The per-file size limit (UPLOAD_MAX_BYTES), checked on the page before a file is sent: a file over it is refused at
// once, in the page's language, instead of after its whole upload. Used wherever files are uploaded.
import * as documentActions from '@/app/actions/documents';
import type { CodedText } from './server-text';

let limit: Promise<number> | undefined;

/** The server's limit in bytes, asked once per page. */
export function uploadLimit(): Promise<number> {
  return (limit ??= documentActions.uploadLimit());
}

/** Why `file` is not sent (`too-large-limit`, the limit in bytes for the page to format), or undefined if it fits. */
export function oversizeRefusal(file: { name: string; size: number }, max: number): CodedText | undefined {
  return file.size > max ? { code: 'too-large-limit', values: { name: file.name, limit: max } } : undefined;
}
