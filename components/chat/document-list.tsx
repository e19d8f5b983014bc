'use client';
import { formatSize, useUploads, type UploadItem } from './uploads';

function stateText(item: UploadItem): string {
  switch (item.state) {
    case 'uploading':
      return `uploading ${Math.round(item.progress * 100)}%`;
    case 'parsing':
      return 'parsing…';
    case 'ready':
      return `ready, ${item.pages} ${item.pages === 1 ? 'page' : 'pages'}, ${formatSize(item.size)}`;
    case 'error':
      return `error: ${item.error ?? 'cannot be read'}`;
  }
}

/** The conversation's documents: each a list item with its name and state, and a remove button. */
export function DocumentList() {
  const items = useUploads((s) => s.items);
  const remove = useUploads((s) => s.remove);
  if (!items.length) return null;
  return (
    <ul aria-label="Documents" className="mx-auto mb-2 flex max-w-3xl flex-col gap-1 text-sm">
      {items.map((item) => (
        <li
          key={item.key}
          className={`flex flex-wrap items-center gap-x-2 gap-y-1 rounded-lg border px-3 py-1.5 ${
            item.state === 'error'
              ? 'border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100'
              : 'border-neutral-200 bg-neutral-50 dark:border-neutral-800 dark:bg-neutral-900'
          }`}
        >
          <span className="min-w-0 font-medium break-all">{item.name}</span>
          <span className="min-w-0 flex-1 text-neutral-600 dark:text-neutral-300" aria-live="polite">
            {' — '}
            {stateText(item)}
            {item.notice ? ` (${item.notice})` : ''}
          </span>
          {item.state === 'uploading' && (
            <progress
              aria-label={`Uploading ${item.name}`}
              max={1}
              value={item.progress}
              className="h-2 w-24 accent-blue-700"
            />
          )}
          <button
            type="button"
            aria-label={`Remove ${item.name}`}
            disabled={item.state === 'uploading'}
            onClick={() => void remove(item.key)}
            className="rounded px-2 py-0.5 hover:bg-neutral-200 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 disabled:opacity-50 dark:hover:bg-neutral-800"
          >
            Remove
          </button>
        </li>
      ))}
    </ul>
  );
}
