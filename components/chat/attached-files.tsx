'use client';
import { useTranslations } from 'next-intl';
import type { ContentItem } from '@/lib/llm/schema';

/** The names of the files a user message carried (upload references end in the file's name). */
export function AttachedFiles({ content }: { content: string | ContentItem[] }) {
  const t = useTranslations('turn');
  if (typeof content === 'string') return null;
  const names = content.flatMap((i) => (i.file ? [i.file.split('/').pop() ?? i.file] : []));
  if (!names.length) return null;
  return (
    <ul aria-label={t('attachedFiles')} className="mt-1 flex flex-wrap gap-1 text-xs">
      {names.map((name, i) => (
        <li key={`${i}-${name}`} className="rounded bg-blue-100 px-2 py-0.5 break-all dark:bg-blue-900">
          {name}
        </li>
      ))}
    </ul>
  );
}
