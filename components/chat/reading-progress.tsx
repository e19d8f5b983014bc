'use client';

import { useTranslations } from 'next-intl';
import type { ReadingProgress as Progress } from '../../lib/chat/view';

/** Documents being read chunk by chunk (ParallelDocQA): a bar per document still being read, named after it. */
export function ReadingProgress({ progress }: { progress: readonly Progress[] }) {
  const t = useTranslations('run');
  const reading = progress.filter((p) => p.done < p.total);
  if (!reading.length) return null;
  return (
    <div className="my-2 space-y-2">
      {reading.map((p) => {
        const count = t('chunkOf', { done: p.done, total: p.total });
        return (
          <div key={p.document} className="text-sm">
            <p className="flex min-w-0 flex-wrap gap-x-2 text-neutral-700 dark:text-neutral-300">
              <span className="min-w-0 truncate">{t('readingDocument', { name: p.document })}</span>
              <span className="tabular-nums">{count}</span>
            </p>
            <progress
              aria-label={p.document}
              aria-valuetext={count}
              max={p.total}
              value={p.done}
              className="h-1.5 w-full accent-blue-700"
            />
          </div>
        );
      })}
    </div>
  );
}
