import { useTranslations } from 'next-intl';
import type { Segment, SideBySide } from '@/lib/compare/text-diff';

/** One side of a text diff: what differs is marked with <del> (only in the first run) or <ins> (only in the second). */
function Side({ segments, label }: { segments: Segment[]; label: string }) {
  const t = useTranslations('runs');
  return (
    <pre
      aria-label={label}
      className="min-w-0 overflow-x-auto rounded-md bg-neutral-50 p-2 font-mono text-xs whitespace-pre-wrap break-words dark:bg-neutral-900"
    >
      {segments.length === 0 && <span className="text-neutral-500 italic">{t('none')}</span>}
      {segments.map((s, i) =>
        s.op === 'del' ? (
          <del key={i} className="bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100">
            {s.text}
          </del>
        ) : s.op === 'add' ? (
          <ins key={i} className="bg-green-100 text-green-900 no-underline dark:bg-green-950 dark:text-green-100">
            {s.text}
          </ins>
        ) : (
          <span key={i}>{s.text}</span>
        ),
      )}
    </pre>
  );
}

/** Two texts side by side, differences marked. */
export function DiffColumns({ diff, what }: { diff: SideBySide; what: string }) {
  const t = useTranslations('runs');
  return (
    <div className="grid grid-cols-2 gap-2">
      <Side segments={diff.left} label={t('firstSide', { what })} />
      <Side segments={diff.right} label={t('secondSide', { what })} />
    </div>
  );
}
