'use client';
// Images a tool produced (a code_interpreter chart, a PNG it saved, an MCP image result), shown on its card even
// when the card is folded, and the images a user's message carries (as thumbnails): each opens full size in a
// dialog, with a download link.
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import type { ToolBlock } from '../../lib/chat/view';
import { Modal } from '../runs/modal';

const INLINE_IMAGE = /^image\/(png|jpeg|gif|webp)$/;
const DATA_IMAGE = /^data:image\/(png|jpeg|gif|webp);base64,/;

export interface ToolImage {
  src: string;
  /** What it is called (the file name, or "Image N returned by the tool"). */
  name: string;
  /** The name a download gets. */
  fileName: string;
}

/** The block's raster images: files it wrote, and image items of its result that are inline data or ours
 *  (`returnedName` names those, by their place in the result: the page's "Image N returned by the tool"). */
export function toolImages(
  block: Pick<ToolBlock, 'files' | 'result'>,
  returnedName: (n: number) => string,
): ToolImage[] {
  const files = (block.files ?? [])
    .filter((f) => INLINE_IMAGE.test(f.mime))
    .map((f) => ({ src: f.url, name: f.name, fileName: f.name.split('/').pop() ?? f.name }));
  const items = Array.isArray(block.result) ? block.result : [];
  // A file the tool wrote is also an image item of its result when tool images go to the model: shown once.
  const fileUrls = new Set(files.map((f) => f.src));
  const returned = items.flatMap((item, i) => {
    const src = item.image;
    if (typeof src !== 'string' || fileUrls.has(src) || !(DATA_IMAGE.test(src) || /^\/(?!\/)/.test(src))) return [];
    const ext = DATA_IMAGE.exec(src)?.[1]?.replace('jpeg', 'jpg') ?? 'png';
    return [{ src, name: returnedName(i + 1), fileName: `image-${i + 1}.${ext}` }];
  });
  return [...files, ...returned];
}

/** `label` names the group (default "Images"); `thumbnails` shows them small (a user's message). */
export function ToolImages({
  images,
  label,
  thumbnails = false,
}: {
  images: ToolImage[];
  label?: string;
  thumbnails?: boolean;
}) {
  const t = useTranslations('toolResult');
  const [open, setOpen] = useState<ToolImage | null>(null);
  return (
    <section aria-label={label ?? t('images')} className={`flex flex-wrap gap-2 ${thumbnails ? 'mt-1' : 'px-3 pb-3'}`}>
      {images.map((img) => (
        <button
          key={img.src}
          type="button"
          aria-label={t('openImage', { name: img.name })}
          onClick={() => setOpen(img)}
          className="rounded border border-neutral-200 bg-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:border-neutral-700"
        >
          {/* eslint-disable-next-line @next/next/no-img-element -- served from the conversation's work directory */}
          <img
            src={img.src}
            alt={img.name}
            className={`block h-auto w-auto max-w-full rounded ${thumbnails ? 'max-h-32' : 'max-h-72'}`}
          />
        </button>
      ))}
      {open && (
        <Modal title={open.name} onClose={() => setOpen(null)}>
          <div className="overflow-auto">
            {/* eslint-disable-next-line @next/next/no-img-element -- the same image, at its own size */}
            <img src={open.src} alt={open.name} className="max-w-none" />
          </div>
          <a
            href={open.src}
            download={open.fileName}
            className="mt-3 inline-block text-sm text-blue-700 underline hover:text-blue-900 dark:text-blue-300 dark:hover:text-blue-100"
          >
            {t('downloadImage', { name: open.fileName })}
          </a>
        </Modal>
      )}
    </section>
  );
}
