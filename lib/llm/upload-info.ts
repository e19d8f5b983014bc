// How a text-only model learns about attachments (Qwen-Agent's format_as_multimodal_message): system and user
// messages with file items (and image/audio/video items when the model cannot see them) get a prefix such as
// "(Uploaded [file](report.pdf)) "; the items themselves are removed, since models never receive raw files. Each
// file is named whole (attachment-name.ts), so the model can pass the name back to the document tools; a file whose
// name an earlier one of the conversation already has is told numbered ("notes (2).txt"), as it is staged.
import { attachmentName, distinctNames, linkTarget } from './attachment-name';
import type { ContentItem, Lang, Message } from './schema';

const LABELS = {
  en: { open: '(Uploaded ', close: ') ', file: 'file', image: 'image', audio: 'audio', video: 'video' },
  zh: { open: '（上传了 ', close: '）', file: '文件', image: '图片', audio: '音频', video: '视频' },
} as const;

/** The reference as the note's link target: its file name in the conversation, whole. */
function noteTarget(ref: string, names: ReadonlyMap<string, string>): string {
  return linkTarget(names.get(ref) ?? attachmentName(ref));
}

/** Returns messages with attachment notes; content becomes a string unless `keepImages` and images remain.
 *  Function messages become their text, but for those from index `keepToolImagesFrom` on (the latest step's results,
 *  lib/llm/tool-images.ts), which keep their image items. */
export function withUploadInfo(
  messages: readonly Message[],
  opts: { lang: Lang; keepImages: boolean; keepToolImagesFrom?: number },
): Message[] {
  const labels = LABELS[opts.lang];
  const keepFrom = opts.keepToolImagesFrom ?? Infinity;
  const names = distinctNames(collectFileRefs(messages));
  return messages.map((msg, index) => {
    if (typeof msg.content === 'string') return msg;
    if (msg.role !== 'system' && msg.role !== 'user') {
      if (msg.role === 'function' && index >= keepFrom && msg.content.some((i) => i.image))
        return { ...msg, content: mergeTexts(msg.content.filter((i) => i.text !== undefined || i.image)) };
      return { ...msg, content: flattenText(msg.content) };
    }
    const notes: string[] = [];
    const kept: ContentItem[] = [];
    for (const item of msg.content) {
      if (item.file) notes.push(`[${labels.file}](${noteTarget(item.file, names)})`);
      else if (item.image && !opts.keepImages) notes.push(`![${labels.image}](${noteTarget(item.image, names)})`);
      else if (item.audio)
        notes.push(`![${labels.audio}](${typeof item.audio === 'string' ? noteTarget(item.audio, names) : 'audio'})`);
      else if (item.video)
        notes.push(`![${labels.video}](${typeof item.video === 'string' ? noteTarget(item.video, names) : 'video'})`);
      else kept.push(item);
    }
    const prefix = notes.length ? `${labels.open}${notes.join(' ')}${labels.close}` : '';
    const alreadyNoted = prefix && kept[0]?.text?.startsWith(prefix);
    const items: ContentItem[] = prefix && !alreadyNoted ? [{ text: prefix }, ...kept] : kept;
    const hasImage = items.some((i) => i.image);
    return { ...msg, content: hasImage ? mergeTexts(items) : flattenText(items) };
  });
}

function flattenText(items: ContentItem[]): string {
  return items
    .filter((i) => i.text !== undefined)
    .map((i) => i.text)
    .join('');
}

/** Adjacent text items joined, so the prefix sits in the same text part as the question. */
function mergeTexts(items: ContentItem[]): ContentItem[] {
  const out: ContentItem[] = [];
  for (const item of items) {
    const last = out[out.length - 1];
    if (item.text !== undefined && last?.text !== undefined) out[out.length - 1] = { text: last.text + item.text };
    else out.push(item);
  }
  return out;
}

/** Every file and image reference in the history, de-duplicated in order (what file-aware tools receive); with
 *  `images: false`, the file items only (the documents the Assistant searches). */
export function collectFileRefs(messages: readonly Message[], opts: { images?: boolean } = {}): string[] {
  const images = opts.images ?? true;
  const seen = new Set<string>();
  for (const msg of messages) {
    if (typeof msg.content === 'string') continue;
    for (const item of msg.content) {
      const ref = item.file ?? (images ? item.image : undefined);
      if (ref) seen.add(ref);
    }
  }
  return [...seen];
}

/** Image items of the turn's own message, the last user message: those a model that cannot see is not sent on this
 *  turn. Images of earlier messages were withheld (and said so) on their own turn. */
export function countTurnImages(messages: readonly Message[]): number {
  const last = messages.findLast((m) => m.role === 'user');
  if (!last || typeof last.content === 'string') return 0;
  return last.content.filter((item) => item.image).length;
}
