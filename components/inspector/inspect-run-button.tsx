'use client';
import { useTranslations } from 'next-intl';
import { useInspector } from './inspector-store';

/** Opens the trace inspector on a finished run (the turn's "Inspect run" button). */
export function InspectRunButton({ runId }: { runId: string }) {
  const t = useTranslations('inspector');
  return (
    <button
      type="button"
      onClick={() => useInspector.getState().openRun(runId)}
      className="rounded px-2 py-1 text-neutral-700 hover:bg-neutral-200 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:text-neutral-300 dark:hover:bg-neutral-800"
    >
      {t('inspectRun')}
    </button>
  );
}
