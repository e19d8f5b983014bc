// The images a tool wrote (code_interpreter's charts and saved PNGs, listed as its result's files) become image items
// of its result when the run gives tool images back to the model (generate_cfg.tool_images): the model layer sends
// the latest step's to a model that sees (lib/llm/tool-images.ts). The items name the files by the URL the page
// loads them from, so the event carries a few bytes per image.
import { IMAGE_KINDS, imageMime } from '../documents/image-kind';
import type { ContentItem } from '../llm/schema';
import type { ToolFile } from '../protocol/events';

// The image formats a message may carry (not lib/sandbox's list: the agent core must not load the sandbox).
const IMAGE_MIMES = new Set<string>(IMAGE_KINDS.map(imageMime));

/** At most this many of one call's files go to the model (a call may write many). */
export const MAX_FILE_IMAGES = 8;

export function withFileImages(content: string | ContentItem[], files: readonly ToolFile[] | undefined) {
  const images = (files ?? []).filter((f) => IMAGE_MIMES.has(f.mime)).slice(0, MAX_FILE_IMAGES);
  if (!images.length) return content;
  const items: ContentItem[] = typeof content === 'string' ? [{ text: content }] : [...content];
  return [...items, ...images.map((f) => ({ image: f.url }))];
}
