// An image a tool made (image_zoom_in's crop, image_gen's picture), as its result names it: checked as an upload is
// and kept by its hash in the run's conversation (lib/documents/tool-images.ts), so that events, the feed and an
// export carry its URL, never its bytes; without a conversation (the CLI, code) there is nowhere to keep it, and the
// result carries it as a data URL. Rejects with a readable error when the bytes are not an image that may be kept.
import { checkImage } from '../lib/documents/image';
import { imageMime } from '../lib/documents/image-kind';
import { keepToolImage } from '../lib/documents/tool-images';
import type { ToolContext } from './base-tool';
import { settingsOf } from './settings';

export async function keepProducedImage(
  bytes: Uint8Array,
  ctx: Pick<ToolContext, 'conversationId' | 'settings'>,
  name = 'The image',
): Promise<string> {
  const { images: limits, dataDir } = settingsOf(ctx);
  if (ctx.conversationId !== undefined) return (await keepToolImage(dataDir, ctx.conversationId, bytes, limits)).url;
  const { kind } = await checkImage(bytes, name, limits);
  return `data:${imageMime(kind)};base64,${Buffer.from(bytes).toString('base64')}`;
}
