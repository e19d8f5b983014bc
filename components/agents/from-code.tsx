'use client';
import { useTranslations } from 'next-intl';

/** The mark's icon: code brackets. */
const ICON = '</>';

/** The note on an agent or a tool that a plugin file brings: it is changed in the file, not on the page. */
export function FromCode({ file }: { file: string }) {
  const t = useTranslations('agents');
  return (
    <span
      title={t('fromCodeTitle', { file })}
      data-from-code={file}
      className="shrink-0 rounded bg-neutral-200 px-1.5 py-0.5 text-xs text-neutral-800 dark:bg-neutral-800 dark:text-neutral-200"
    >
      <span aria-hidden="true">{ICON} </span>
      {t('fromCode')}
    </span>
  );
}
