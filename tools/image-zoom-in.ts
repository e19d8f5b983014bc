// `image_zoom_in`: Qwen-Agent's zoom tool for Qwen3-VL (ImageZoomInToolQwen3VL). A vision model that wants a closer
// look names an image of the conversation by its index and a box in Qwen3-VL's coordinates (0 to 1000 on each axis,
// whatever the image's size); the box is cut out, grown to at least 32 pixels a side around its centre, enlarged as
// Qwen-VL's smart resize says (sides a multiple of 32, at least 256 × 32 × 32 pixels), and given back as an image.
import { loadOptional } from '../lib/config/optional-package';
import { checkImage } from '../lib/documents/image';
import { BaseTool, type ToolContext } from './base-tool';
import { imagesInMessages, readConversationImage } from './conversation-images';
import { keepProducedImage } from './produced-images';
import { registerTool } from './registry';
import { settingsOf } from './settings';

/** Qwen3-VL's box coordinates run from 0 to this on each axis. */
export const BOX_SCALE = 1000;
const FACTOR = 32;
const MIN_SIDE = 32;
const MIN_PIXELS = 256 * FACTOR * FACTOR;
const MAX_PIXELS = 12_845_056;

/** Qwen-VL's smart resize: sides rounded to a multiple of `factor`, scaled up or down into the pixel bounds. */
export function smartResize(width: number, height: number): { width: number; height: number } {
  const round = (x: number) => Math.round(x / FACTOR) * FACTOR;
  let w = Math.max(FACTOR, round(width));
  let h = Math.max(FACTOR, round(height));
  if (w * h > MAX_PIXELS) {
    const beta = Math.sqrt((width * height) / MAX_PIXELS);
    w = Math.floor(width / beta / FACTOR) * FACTOR;
    h = Math.floor(height / beta / FACTOR) * FACTOR;
  } else if (w * h < MIN_PIXELS) {
    const beta = Math.sqrt(MIN_PIXELS / (width * height));
    w = Math.ceil((width * beta) / FACTOR) * FACTOR;
    h = Math.ceil((height * beta) / FACTOR) * FACTOR;
  }
  return { width: w, height: h };
}

export interface PixelBox {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The box in pixels, inside the image, grown around its centre when a side is under 32 pixels (when the grown
 *  box still fits the image with more than 32 a side; else as it was). */
export function pixelBox(box: readonly number[], width: number, height: number): PixelBox {
  const [x1, y1, x2, y2] = box.map(Number) as [number, number, number, number];
  const left = Math.max(0, (x1 / BOX_SCALE) * width);
  const top = Math.max(0, (y1 / BOX_SCALE) * height);
  const right = Math.min(width, (x2 / BOX_SCALE) * width);
  const bottom = Math.min(height, (y2 / BOX_SCALE) * height);
  if (!(right > left && bottom > top))
    throw new Error(
      `The box [${box.join(', ')}] is empty inside the image: give [x1, y1, x2, y2] with x1 < x2 and y1 < y2, from 0 to ${BOX_SCALE}.`,
    );
  const w = right - left;
  const h = bottom - top;
  if (w >= MIN_SIDE && h >= MIN_SIDE) return { left, top, right, bottom };
  const ratio = MIN_SIDE / Math.min(w, h);
  const cx = (left + right) / 2;
  const cy = (top + bottom) / 2;
  const halfW = Math.ceil(w * ratio * 0.5);
  const halfH = Math.ceil(h * ratio * 0.5);
  const grown = {
    left: Math.max(0, Math.floor(cx - halfW)),
    top: Math.max(0, Math.floor(cy - halfH)),
    right: Math.min(width, Math.ceil(cx + halfW)),
    bottom: Math.min(height, Math.ceil(cy + halfH)),
  };
  if (grown.right - grown.left > MIN_SIDE && grown.bottom - grown.top > MIN_SIDE) return grown;
  return { left, top, right, bottom };
}

export class ImageZoomInToolQwen3VL extends BaseTool {
  name = 'image_zoom_in';
  description =
    'Zooms in on a region of an image of the conversation: crops the box given in Qwen-VL coordinates (0 to 1000 on each axis) and returns it enlarged.';
  parameters = {
    type: 'object',
    properties: {
      bbox_2d: {
        type: 'array',
        items: { type: 'number' },
        minItems: 4,
        maxItems: 4,
        description:
          "The region to zoom in on, [x1, y1, x2, y2]: (x1, y1) its top-left corner and (x2, y2) its bottom-right corner, each from 0 to 1000 of the image's width and height.",
      },
      label: { type: 'string', description: 'What is in the region (the object to look at).' },
      img_idx: {
        type: 'integer',
        minimum: 0,
        description: 'Which image of the conversation, counting from 0 in the order they appeared.',
      },
    },
    required: ['bbox_2d', 'label', 'img_idx'],
  };

  async call(params: string, ctx: ToolContext) {
    const {
      bbox_2d: box,
      label,
      img_idx: index,
    } = this.parseArgs<{
      bbox_2d: number[];
      label: string;
      img_idx: number;
    }>(params);
    const images = imagesInMessages(ctx.messages);
    if (!images.length) throw new Error('The conversation has no image to zoom in on.');
    const ref = images[index];
    if (ref === undefined)
      throw new Error(
        `There is no image ${index}: the conversation has ${images.length} image${images.length > 1 ? 's' : ''}, numbered 0 to ${images.length - 1}.`,
      );
    let bytes: Uint8Array;
    try {
      bytes = await readConversationImage(ref, ctx);
    } catch (e) {
      throw new Error(`Image ${index} cannot be read: ${e instanceof Error ? e.message : String(e)}`);
    }
    const limits = settingsOf(ctx).images;
    // Checked before it is decoded: a small file that opens to a huge image is refused, not decoded.
    const { width, height } = await checkImage(bytes, `Image ${index}`, limits);
    const region = pixelBox(box, width, height);
    const left = Math.floor(region.left);
    const top = Math.floor(region.top);
    const cropWidth = Math.max(1, Math.min(width, Math.ceil(region.right)) - left);
    const cropHeight = Math.max(1, Math.min(height, Math.ceil(region.bottom)) - top);
    const size = smartResize(region.right - region.left, region.bottom - region.top);
    // libvips through sharp, an optional package of the core: loaded on the first zoom.
    const sharp = (await loadOptional('sharp', 'Zooming into an image', () => import('sharp'))).default;
    const zoomed = await sharp(bytes, { limitInputPixels: limits.maxPixels })
      .extract({ left, top, width: cropWidth, height: cropHeight })
      .resize(size.width, size.height, { fit: 'fill', kernel: 'cubic' })
      .png()
      .toBuffer();
    const url = await keepProducedImage(zoomed, ctx, 'The zoomed image');
    const at = [left, top, left + cropWidth, top + cropHeight].join(', ');
    return [
      {
        text: `${label || 'region'}: pixels [${at}] of image ${index} (${width} × ${height}), enlarged to ${size.width} × ${size.height}.`,
      },
      { image: url },
    ];
  }
}

registerTool('image_zoom_in')(ImageZoomInToolQwen3VL);
