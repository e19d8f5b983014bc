// What a run's model is sent for an image item: the app's own URLs of a conversation's images (a tool's image kept by
// hash, /api/images/…, and a file code_interpreter wrote, /api/artifacts/…) are read from disk for the run's owner
// only, checked as uploads are and shrunk to MODEL_IMAGE_MAX_SIDE (lib/documents/image.ts); upload references and
// URLs the model server can fetch itself go on as lib/documents/image-source.ts says. Anything else is not read.
import { readFile, stat } from 'node:fs/promises';
import { uploadedFile } from '../documents/storage';
import { imageForModel, type ImageLimits } from '../documents/image';
import { uploadedImages } from '../documents/image-source';
import { parseConversationImageUrl } from '../documents/image-url';
import { readToolImage } from '../documents/tool-images';
import type { ImageResolver } from '../llm/image-data';
import { resolveInside } from '../sandbox/files';
import type { OwnerScope } from '../store/owner';
import type { ChatStore } from '../store/types';
import { codeWorkDir } from '../../tools/code-interpreter';

const ARTIFACT = /^\/api\/artifacts\/([^/?#]+)\/([^?#]+)$/;

export function modelImages(
  dataDir: string,
  store: Pick<ChatStore, 'ownsUpload' | 'getConversation'>,
  owner: OwnerScope,
  limits: ImageLimits,
): ImageResolver {
  const uploads = uploadedImages(dataDir, (hash) => store.ownsUpload(owner, hash));
  const owns = async (conversationId: string) => Boolean(await store.getConversation(owner, conversationId));

  /** The bytes an app URL names, undefined when it names nothing the owner may read; null when it is no app URL. */
  async function appImage(ref: string): Promise<Uint8Array | undefined | null> {
    const kept = parseConversationImageUrl(ref);
    if (kept) {
      if (!(await owns(kept.conversationId))) return undefined;
      const image = await readToolImage(dataDir, kept.conversationId, kept.hash);
      if (image) return image.bytes;
      if (!(await store.ownsUpload(owner, kept.hash))) return undefined;
      const file = await uploadedFile(dataDir, kept.hash);
      return file === undefined ? undefined : readFile(file).catch(() => undefined);
    }
    const artifact = ARTIFACT.exec(ref);
    if (!artifact) return null;
    let conversationId: string;
    let segments: string[];
    try {
      conversationId = decodeURIComponent(artifact[1]!);
      segments = artifact[2]!.split('/').map(decodeURIComponent);
    } catch {
      return undefined;
    }
    if (!(await owns(conversationId))) return undefined;
    const file = await resolveInside(codeWorkDir(dataDir, conversationId), segments);
    const info = file ? await stat(file).catch(() => undefined) : undefined;
    // Not read at all when it is over the limit: the check would refuse it.
    if (!file || !info?.isFile() || info.size > limits.maxBytes) return undefined;
    return readFile(file).catch(() => undefined);
  }

  return async (ref) => {
    const bytes = await appImage(ref);
    if (bytes === null) return uploads(ref);
    if (!bytes) return undefined;
    try {
      const image = await imageForModel(bytes, 'The image', limits);
      return `data:${image.mime};base64,${Buffer.from(image.bytes).toString('base64')}`;
    } catch {
      return undefined; // the model is told the image is not available (lib/llm/image-data.ts)
    }
  };
}
