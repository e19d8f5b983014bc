import { useTranslations } from 'next-intl';
import type { ToolFile } from '../../lib/protocol/events';
import { formatBytes } from './format';
import { useFormatWords } from './use-format-words';

/** Files a tool wrote (code_interpreter): each a download link (raster images are shown on the card: ToolImages). */
export function ToolFiles({ files }: { files: ToolFile[] }) {
  const t = useTranslations('toolResult');
  const f = useFormatWords();
  return (
    <section aria-label={t('filesWritten')}>
      <div className="mb-1 text-xs font-semibold tracking-wide text-neutral-700 uppercase dark:text-neutral-300">
        {t('files')}
      </div>
      <ul className="space-y-2">
        {files.map((file) => (
          <li key={file.url} className="text-xs">
            <a
              href={file.url}
              download={file.name.split('/').pop()}
              className="font-mono text-blue-700 underline hover:text-blue-900 dark:text-blue-300 dark:hover:text-blue-100"
            >
              {file.name}
            </a>{' '}
            <span className="text-neutral-600 dark:text-neutral-400">
              {t('size', { size: formatBytes(file.bytes, f) })}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
