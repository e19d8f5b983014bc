// Image parts are built from upload references only when a request leaves: the messages, the llm-start event and
// the run log keep `files/<sha256>/<name>` (a few bytes), and only the HTTP body sent to the model server carries
// the image itself, as a data URL. A reference is read from DATA_DIR/files and nowhere else; a URL the model server
// can fetch itself (http, https, data) is passed on as it is.
import { readFile } from 'node:fs/promises';
import { parseFileRef, storedFilePath } from '../documents/file-ref';
import { imageMime, sniffImage } from '../documents/image-kind';
import type { WireMessage, WirePart } from './oai-wire';

/** A data URL (or a URL the server fetches) for an image item's value; undefined when there is no such image. */
export type ImageResolver = (ref: string) => Promise<string | undefined>;

/** Images uploaded under `dataDir`, by their reference. */
export function uploadedImages(dataDir: string): ImageResolver {
  return async (ref) => {
    if (/^(https?:|data:image\/)/i.test(ref)) return ref;
    const parsed = parseFileRef(ref);
    if (!parsed) return undefined;
    const bytes = await readFile(storedFilePath(dataDir, parsed.hash)).catch(() => undefined);
    const kind = bytes && sniffImage(bytes);
    if (!bytes || !kind) return undefined;
    return `data:${imageMime(kind)};base64,${bytes.toString('base64')}`;
  };
}

/** Without a DATA_DIR (a model used from code): URLs pass, references are not readable. */
export const urlImagesOnly: ImageResolver = async (ref) => (/^(https?:|data:image\/)/i.test(ref) ? ref : undefined);

/** The wire messages with each image part's URL resolved; the same array when there is no image part. An image that
 *  cannot be read becomes a text part saying so, so the model is not sent a reference it cannot open. */
export async function inlineImages(messages: WireMessage[], resolve: ImageResolver): Promise<WireMessage[]> {
  if (!messages.some((m) => m.role === 'user' && Array.isArray(m.content) && m.content.some(isImagePart)))
    return messages;
  return Promise.all(
    messages.map(async (m) => {
      if (m.role !== 'user' || !Array.isArray(m.content)) return m;
      const content = await Promise.all(
        m.content.map(async (part): Promise<WirePart> => {
          if (!isImagePart(part)) return part;
          const url = await resolve(part.image_url.url);
          if (url) return { type: 'image_url', image_url: { url } };
          return { type: 'text', text: `(The image ${nameOf(part.image_url.url)} is no longer available.)` };
        }),
      );
      return { ...m, content };
    }),
  );
}

function isImagePart(part: WirePart): part is Extract<WirePart, { type: 'image_url' }> {
  return part.type === 'image_url';
}

function nameOf(ref: string): string {
  return parseFileRef(ref)?.name ?? (ref.length > 80 ? `${ref.slice(0, 77)}…` : ref);
}
