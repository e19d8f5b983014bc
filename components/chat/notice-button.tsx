import type { ReactNode } from 'react';
import { useModels } from '../models/models-store';

const BASE =
  'shrink-0 rounded-md border px-3 py-1 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600';

const TONES = {
  amber: 'border-amber-400 hover:bg-amber-100 dark:border-amber-700 dark:hover:bg-amber-900',
  red: 'border-red-400 bg-white text-red-900 hover:bg-red-100 dark:border-red-700 dark:bg-red-900 dark:text-red-50 dark:hover:bg-red-800 dark:focus-visible:outline-blue-400',
} as const;

/** A button inside a run's notice (a hint, an error), in the notice's colours. */
export function NoticeButton({
  tone,
  onClick,
  children,
}: {
  tone: keyof typeof TONES;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button type="button" onClick={onClick} className={`${BASE} ${TONES[tone]}`}>
      {children}
    </button>
  );
}

const openConnections = () => useModels.getState().openDialog('connections');

/** Opens the Models dialog at its connections, where a connection's address or tool format is changed. */
export function OpenModelsButton({ tone, children }: { tone: keyof typeof TONES; children: ReactNode }) {
  return (
    <NoticeButton tone={tone} onClick={openConnections}>
      {children}
    </NoticeButton>
  );
}
