// Reads the images messages name by upload reference, for the model layer to send (lib/llm/image-data.ts): only
// references to DATA_DIR/files/<sha256> that `access` allows (the run owner's uploads) are read, and only bytes that
// are an accepted image; any other local path is never opened. URLs the model server can fetch itself (http, https, data:image) pass as they are.
import { readFile } from 'node:fs/promises';
import { parseFileRef } from './file-ref';
import { uploadedFile } from './storage';
import { imageMime, sniffImage } from './image-kind';

/** A data URL for an image item's value, or undefined when it names no readable image. */
export function uploadedImages(
  dataDir: string,
  access: (hash: string) => Promise<boolean>,
): (ref: string) => Promise<string | undefined> {
  return async (ref) => {
    if (/^(https?:|data:image\/)/i.test(ref)) return ref;
    const parsed = parseFileRef(ref);
    if (!parsed || !(await access(parsed.hash))) return undefined;
    const file = await uploadedFile(dataDir, parsed.hash);
    const bytes = file && (await readFile(file).catch(() => undefined));
    const kind = bytes && sniffImage(bytes);
    if (!bytes || !kind) return undefined;
    return `data:${imageMime(kind)};base64,${bytes.toString('base64')}`;
  };
}
