'use client';
import { useTranslations } from 'next-intl';
import { JsonFileButton } from '../json-file-button';
import { parseRunExport } from '../../lib/inspect/export';
import { useChat } from '../chat/store';
import { useInspector } from './inspector-store';

/** Opens a run export file in the inspector, to view only: nothing is stored. A bad file says what is wrong. */
export function ImportRunButton({ onOpened }: { onOpened?: () => void }) {
  const t = useTranslations('inspector');
  return (
    <JsonFileButton
      className="rounded-lg px-3 py-1.5 text-left text-sm text-neutral-700 hover:bg-neutral-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:text-neutral-300 dark:hover:bg-neutral-800"
      inputLabel={t('importFile')}
      onFile={async (text, name) => {
        const parsed = await parseRunExport(text);
        if (!parsed.ok) {
          useChat.setState({ notice: { code: 'import-failed', values: { name, error: parsed.error } } });
          return;
        }
        useInspector.getState().openImported(parsed.value, name);
        onOpened?.();
      }}
    >
      {t('importRun')}
    </JsonFileButton>
  );
}
