// An MCP tool's images leave the result as URLs: each base64 image of a conversation's run is checked and kept by
// its hash in the conversation (lib/documents/tool-images.ts), and the result names it by the URL the page loads, so
// the event log, the feed and an exported run carry a few bytes per image, never the image itself. Without a
// conversation (the CLI, code) there is nowhere to keep it, and the result keeps the data URL.
import { keepToolImage } from '../documents/tool-images';
import type { ContentItem } from '../llm/schema';
import type { ToolSettings } from '../../tools';

const DATA_IMAGE = /^data:(image\/[a-z0-9.+-]+);base64,/i;

export async function keepReturnedImages(
  output: string | ContentItem[],
  conversationId: string | undefined,
  settings: Pick<ToolSettings, 'dataDir' | 'images'>,
): Promise<string | ContentItem[]> {
  if (typeof output === 'string' || conversationId === undefined) return output;
  if (!output.some((item) => item.image && DATA_IMAGE.test(item.image))) return output;
  const { dataDir: root, images: limits } = settings;
  return Promise.all(
    output.map(async (item): Promise<ContentItem> => {
      const match = item.image ? DATA_IMAGE.exec(item.image) : null;
      if (!match) return item;
      const bytes = Buffer.from(item.image!.slice(match[0].length), 'base64');
      try {
        return { image: (await keepToolImage(root, conversationId, bytes, limits)).url };
      } catch (e) {
        return { text: `[the ${match[1]} image was not kept: ${e instanceof Error ? e.message : String(e)}]` };
      }
    }),
  );
}
