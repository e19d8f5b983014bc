'use client';
import { useTranslations } from 'next-intl';
import type { ContentItem } from '@/lib/llm/schema';
import { uploadedImageUrl } from '@/lib/uploads/image-url';
import { useChat } from './store';
import { ToolImages, type ToolImage } from './tool-images';

/** What a user message carried: the names of its files (upload references end in the file's name), and its images
 *  as thumbnails that open full size. */
export function AttachedFiles({ content }: { content: string | ContentItem[] }) {
  const t = useTranslations('turn');
  const conversationId = useChat((s) => s.activeId);
  if (typeof content === 'string') return null;
  const nameOf = (ref: string) => ref.split('/').pop() ?? ref;
  const names = content.flatMap((i) => (i.file ? [nameOf(i.file)] : []));
  const images: ToolImage[] = content.flatMap((i) => {
    const src = i.image && conversationId ? uploadedImageUrl(conversationId, i.image) : undefined;
    return src && i.image ? [{ src, name: nameOf(i.image), fileName: nameOf(i.image) }] : [];
  });
  return (
    <>
      {images.length > 0 && <ToolImages images={images} label={t('attachedImages')} thumbnails />}
      {names.length > 0 && (
        <ul aria-label={t('attachedFiles')} className="mt-1 flex flex-wrap gap-1 text-xs">
          {names.map((name, i) => (
            <li key={`${i}-${name}`} className="rounded bg-blue-100 px-2 py-0.5 break-all dark:bg-blue-900">
              {name}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
