// The image formats a message may carry, told by their first bytes (no decoder: the model layer uses this to type
// the data URLs it builds, and must not load libvips for it).
export const IMAGE_KINDS = ['png', 'jpeg', 'webp', 'gif'] as const;
export type ImageKind = (typeof IMAGE_KINDS)[number];

const MIME: Record<ImageKind, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
};

/** How each format is named to a person (upload messages, the list of accepted types). */
export const IMAGE_LABELS: Record<ImageKind, string> = { png: 'PNG', jpeg: 'JPEG', webp: 'WebP', gif: 'GIF' };

export function isImageKind(kind: string | undefined): kind is ImageKind {
  return (IMAGE_KINDS as readonly string[]).includes(kind ?? '');
}

export function imageMime(kind: ImageKind): string {
  return MIME[kind];
}

/** Which image format the bytes start with, or undefined when they are no image we accept. */
export function sniffImage(bytes: Uint8Array): ImageKind | undefined {
  const at = (i: number, ...magic: number[]) => magic.every((b, j) => bytes[i + j] === b);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (at(0, 0xff, 0xd8, 0xff)) return 'jpeg';
  if (at(0, 0x47, 0x49, 0x46, 0x38) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return 'gif';
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'webp';
  return undefined;
}
