import { useTranslations } from 'next-intl';
import type { ToolStatus } from '../../lib/chat/view';

const STYLES: Record<ToolStatus, string> = {
  queued: 'bg-neutral-100 text-neutral-700 dark:bg-neutral-800 dark:text-neutral-300',
  awaiting: 'bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-100',
  running: 'bg-blue-50 text-blue-800 dark:bg-blue-950 dark:text-blue-200',
  done: 'bg-green-50 text-green-800 dark:bg-green-950 dark:text-green-200',
  error: 'bg-red-50 text-red-800 dark:bg-red-950 dark:text-red-200',
  stopped: 'bg-orange-50 text-orange-900 dark:bg-orange-950 dark:text-orange-100',
  interrupted: 'bg-orange-50 text-orange-900 dark:bg-orange-950 dark:text-orange-100',
};

/** The word is the status (queued, running, done, error, stopped, interrupted); colour and the spinner only repeat it. */
export function ToolStatusBadge({ status }: { status: ToolStatus }) {
  const t = useTranslations('toolCard.status');
  return (
    <span
      className={`inline-flex shrink-0 items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ${STYLES[status]}`}
    >
      {status === 'running' && (
        <svg aria-hidden="true" viewBox="0 0 16 16" className="size-3 animate-spin motion-reduce:animate-none">
          <circle cx="8" cy="8" r="6" fill="none" stroke="currentColor" strokeOpacity="0.3" strokeWidth="2" />
          <path d="M14 8a6 6 0 0 0-6-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      )}
      {t(status)}
    </span>
  );
}
