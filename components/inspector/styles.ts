// Class names the inspector's parts share (Tailwind, light and dark).
export const BUTTON =
  'rounded-md border border-neutral-300 px-2.5 py-1 text-sm hover:bg-neutral-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 disabled:opacity-50 dark:border-neutral-700 dark:hover:bg-neutral-800';
export const SECTION_TITLE =
  'mb-1 text-xs font-semibold tracking-wide text-neutral-600 uppercase dark:text-neutral-400';
export const PRE =
  'max-h-96 overflow-auto rounded-md bg-neutral-100 p-2 font-mono text-xs leading-relaxed break-words whitespace-pre-wrap dark:bg-neutral-900';
export const CARD = 'rounded-md border border-neutral-200 p-2 dark:border-neutral-800';
