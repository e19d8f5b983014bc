// The images of a conversation, as tools that look at them find them (image_zoom_in, image_search): every image item
// of the messages in order, each once (upstream's extract_images_from_messages), and the bytes of one of them, read
// only where the run may read: an upload of the run's owner, an image kept for the run's own conversation (a tool's,
// or an upload shown by that URL), a file code wrote in that conversation, a data URL, or a web URL through the
// server's fetch guard. Anything else (a path on the server, another conversation's image) is refused.
import { readFile, stat } from 'node:fs/promises';
import { parseConversationImageUrl } from '../lib/documents/image-url';
import { readToolImage } from '../lib/documents/tool-images';
import type { Message } from '../lib/llm/schema';
import { safeFetch } from '../lib/net/safe-fetch';
import type { ToolContext } from './base-tool';
import { codeWorkDir } from './code-interpreter';
import { settingsOf } from './settings';
import { resolveLocalFile } from './file-access';

/** Every image item of the messages (user uploads and tools' results alike), in order, each once. */
export function imagesInMessages(messages: readonly Message[]): string[] {
  const seen: string[] = [];
  for (const m of messages) {
    if (typeof m.content === 'string') continue;
    for (const item of m.content) if (item.image && !seen.includes(item.image)) seen.push(item.image);
  }
  return seen;
}

const ARTIFACT = /^\/api\/artifacts\/([^/?#]+)\/([^?#]+)$/;
const DATA_IMAGE = /^data:image\/[a-z0-9.+-]+;base64,/i;

/** The bytes of the image `ref` names (as imagesInMessages lists it), or a readable Error saying why not. */
export async function readConversationImage(ref: string, ctx: ToolContext): Promise<Uint8Array> {
  const { images, webFetch, dataDir, allowLocalPaths } = settingsOf(ctx);
  const notHere = new Error('this image is no longer available to this conversation');
  const data = DATA_IMAGE.exec(ref);
  if (data) return Buffer.from(ref.slice(data[0].length), 'base64');
  if (/^https?:\/\//i.test(ref)) {
    const res = await safeFetch(ref, {
      ...webFetch,
      maxBytes: images.maxBytes,
      oversize: 'error',
      signal: ctx.signal,
    });
    if (res.status < 200 || res.status >= 300) throw new Error(`the image's address answered HTTP ${res.status}`);
    return res.body;
  }
  const kept = parseConversationImageUrl(ref);
  if (kept) {
    if (kept.conversationId !== ctx.conversationId) throw notHere;
    const image = await readToolImage(dataDir, kept.conversationId, kept.hash);
    if (image) return image.bytes;
    // The same URL shows an upload of the conversation: the owner's upload with that hash.
    const file = await resolveLocalFile(
      `files/${kept.hash}/image`,
      { dataDir, allowAnyPath: false },
      ctx.uploadAccess,
    ).catch(() => undefined);
    if (!file) throw notHere;
    return readFile(file.path);
  }
  const artifact = ARTIFACT.exec(ref);
  if (artifact) {
    let conversationId: string;
    let segments: string[];
    try {
      conversationId = decodeURIComponent(artifact[1]!);
      segments = artifact[2]!.split('/').map(decodeURIComponent);
    } catch {
      throw notHere;
    }
    if (conversationId !== ctx.conversationId) throw notHere;
    // Loaded when used: importing the agent core loads nothing of the sandbox (test/integration/agent-imports).
    const { resolveInside } = await import('../lib/sandbox/files');
    const file = await resolveInside(codeWorkDir(dataDir, conversationId), segments);
    const info = file ? await stat(file).catch(() => undefined) : undefined;
    if (!file || !info?.isFile()) throw notHere;
    if (info.size > images.maxBytes) throw new Error('the image is larger than the image size limit');
    return readFile(file);
  }
  // An upload reference (files/<sha256>/<name>): the owner's only; a path on the server only for a process that
  // opted in (the CLI, whose messages are its own user's).
  const file = await resolveLocalFile(ref, { dataDir, allowAnyPath: allowLocalPaths }, ctx.uploadAccess);
  return readFile(file.path);
}
