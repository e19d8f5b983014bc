// Image parts are built from references only when a request leaves: the messages, the llm-start event and the run
// log keep the reference (an upload's `files/<sha256>/<name>`: a few bytes), and only the HTTP body sent to the
// model server carries the image itself, as a data URL. Who reads a reference is the caller's (the app reads
// uploads from DATA_DIR/files: lib/documents/image-source.ts); a URL the model server can fetch itself (http,
// https, data) is passed on as it is.
import { attachmentName } from './attachment-name';
import type { WireMessage, WirePart } from './oai-wire';

/** A data URL (or a URL the server fetches) for an image item's value; undefined when there is no such image. */
export type ImageResolver = (ref: string) => Promise<string | undefined>;

/** The default (a model used from code): URLs pass, references are not readable. */
export const urlImagesOnly: ImageResolver = async (ref) => (/^(https?:|data:image\/)/i.test(ref) ? ref : undefined);

/** The wire messages with each image part's URL resolved; the same array when there is no image part. An image that
 *  cannot be read becomes a text part saying so, so the model is not sent a reference it cannot open. */
export async function inlineImages(messages: WireMessage[], resolve: ImageResolver): Promise<WireMessage[]> {
  if (!hasImages(messages)) return messages;
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

/** Whether any user message has an image part (without one, a request can leave at once). */
export function hasImages(messages: readonly WireMessage[]): boolean {
  return messages.some((m) => m.role === 'user' && Array.isArray(m.content) && m.content.some(isImagePart));
}

function isImagePart(part: WirePart): part is Extract<WirePart, { type: 'image_url' }> {
  return part.type === 'image_url';
}

function nameOf(ref: string): string {
  if (/^data:/i.test(ref)) return ref.slice(0, ref.indexOf(',') + 1 || 40);
  const name = attachmentName(ref);
  return name.length > 80 ? `${name.slice(0, 77)}…` : name;
}
