// Images a user attaches to a message (PNG, JPEG, WebP, GIF): what they are is decided by their bytes (the magic
// number, then libvips reading the header), and they are decoded once, shrunk, before they are accepted, so that a
// truncated or corrupt file is refused at upload rather than by the model server. The pixel count is checked from
// the header before anything is decoded: a small file that claims 100,000 × 100,000 pixels (a decompression bomb)
// is refused without allocating them.
import { loadOptional } from '../config/optional-package';
import { formatBytes } from './limits';
import { DocumentError } from './types';
import { IMAGE_TYPE_NAMES, orList } from './accepted-types';
import { IMAGE_LABELS, imageMime, sniffImage, type ImageKind } from './image-kind';

export interface ImageLimits {
  /** Largest image file accepted (IMAGE_MAX_BYTES). */
  maxBytes: number;
  /** Most pixels (width × height) an image may have (IMAGE_MAX_PIXELS). */
  maxPixels: number;
}

export interface ImageInfo {
  kind: ImageKind;
  width: number;
  height: number;
}

function corrupt(name: string, kind: ImageKind, detail: string): DocumentError {
  return new DocumentError(
    `${name} is a damaged or incomplete ${IMAGE_LABELS[kind]} image (${detail}); save or export it again and upload it again.`,
    'corrupt',
  );
}

/**
 * Checks an image upload: its format by content, its size, its pixel count (before decoding), and that it decodes
 * to the end. Resolves with what it is; rejects with a DocumentError whose message says what to do.
 */
/** libvips through sharp, loaded on the first image. */
function loadSharp() {
  return loadOptional('sharp', 'Checking images', () => import('sharp')).then((m) => m.default);
}

export async function checkImage(bytes: Uint8Array, name: string, limits: ImageLimits): Promise<ImageInfo> {
  const kind = sniffImage(bytes);
  if (!kind) throw new DocumentError(`${name} is not a ${orList(IMAGE_TYPE_NAMES)} image.`, 'unsupported');
  if (bytes.byteLength > limits.maxBytes) {
    throw new DocumentError(
      `${name} is larger than the ${formatBytes(limits.maxBytes)} limit per image; make it smaller and upload it again.`,
      'too-large',
    );
  }
  const sharp = await loadSharp();
  let width: number;
  let height: number;
  try {
    // The header only: nothing is decoded here, so libvips' own pixel limit stays off and ours says why.
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    if (meta.format !== kind) throw new Error(`its header reads as ${meta.format}`);
    width = meta.width ?? 0;
    height = meta.pageHeight ?? meta.height ?? 0;
  } catch (e) {
    throw corrupt(name, kind, reason(e));
  }
  if (!width || !height) throw corrupt(name, kind, 'it has no width or height');
  if (width * height > limits.maxPixels) {
    throw new DocumentError(
      `${name} is ${width} × ${height} pixels (${megapixels(width * height)} megapixels); images may have at most ` +
        `${megapixels(limits.maxPixels)} megapixels. A small file that opens to this many pixels can exhaust the ` +
        'memory of whoever decodes it; scale the image down and upload it again.',
      'too-many-pixels',
    );
  }
  try {
    // Decoding every byte (shrunk on load where the format allows) finds a file cut short or damaged inside.
    await sharp(bytes, { failOn: 'truncated', limitInputPixels: limits.maxPixels })
      .resize(64, 64, { fit: 'inside' })
      .raw()
      .toBuffer();
  } catch (e) {
    throw corrupt(name, kind, reason(e));
  }
  return { kind, width, height };
}

function megapixels(pixels: number): string {
  const mp = pixels / 1_000_000;
  return mp >= 10 ? String(Math.round(mp)) : mp.toFixed(1).replace(/\.0$/, '');
}

/** libvips' words, first line only, without its loader prefixes ("vipspng: ", "VipsJpeg: "). */
function reason(e: unknown): string {
  const text = (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';
  return (
    text
      .replace(/^Input (buffer|file) (has corrupt header|contains unsupported image format):?\s*/i, '')
      .replace(/^\w+(load_buffer|load)?:\s*/i, '')
      .replace(/^vips\w*:\s*/i, '')
      .trim() || 'it could not be decoded'
  );
}

/** The longest side, in pixels, of an image a tool produced as it is sent to the model (larger ones are shrunk). */
export const MODEL_IMAGE_MAX_SIDE = 2048;

/**
 * An image a tool produced, as it is sent to a model: checked as an upload is (format by content, size, pixels,
 * decodes to the end), then shrunk to fit MODEL_IMAGE_MAX_SIDE when larger (a JPEG stays a JPEG; anything else
 * becomes a PNG). Rejects with a DocumentError saying why it cannot be sent.
 */
export async function imageForModel(
  bytes: Uint8Array,
  name: string,
  limits: ImageLimits,
  maxSide = MODEL_IMAGE_MAX_SIDE,
): Promise<{ mime: string; bytes: Uint8Array }> {
  const { kind, width, height } = await checkImage(bytes, name, limits);
  if (Math.max(width, height) <= maxSide) return { mime: imageMime(kind), bytes };
  const sharp = await loadSharp();
  const shrunk = sharp(bytes, { limitInputPixels: limits.maxPixels }).resize(maxSide, maxSide, { fit: 'inside' });
  if (kind === 'jpeg') return { mime: 'image/jpeg', bytes: await shrunk.jpeg({ quality: 85 }).toBuffer() };
  return { mime: 'image/png', bytes: await shrunk.png().toBuffer() };
}
