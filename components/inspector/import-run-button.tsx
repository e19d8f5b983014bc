'use client';
import { useTranslations } from 'next-intl';
import { useRef } from 'react';
import { parseRunExport } from '../../lib/inspect/export';
import { useChat } from '../chat/store';
import { useInspector } from './inspector-store';

/** Opens a run export file in the inspector, to view only: nothing is stored. A bad file says what is wrong. */
export function ImportRunButton({ onOpened }: { onOpened?: () => void }) {
  const t = useTranslations('inspector');
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        onClick={() => input.current?.click()}
        className="rounded-lg px-3 py-1.5 text-left text-sm text-neutral-700 hover:bg-neutral-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:text-neutral-300 dark:hover:bg-neutral-800"
      >
        {t('importRun')}
      </button>
      <input
        ref={input}
        type="file"
        accept="application/json,.json"
        aria-label={t('importFile')}
        className="hidden"
        onChange={async (e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (!file) return;
          const parsed = await parseRunExport(await file.text());
          if (!parsed.ok) {
            useChat.setState({ notice: { code: 'import-failed', values: { name: file.name, error: parsed.error } } });
            return;
          }
          useInspector.getState().openImported(parsed.value, file.name);
          onOpened?.();
        }}
      />
    </>
  );
}
