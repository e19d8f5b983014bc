// Classes the account pages share (forms, buttons, notices), so they look alike.
export const field = 'rounded border border-neutral-300 bg-white px-3 py-2 dark:border-neutral-700 dark:bg-neutral-900';
export const primaryButton =
  'rounded bg-neutral-900 px-3 py-2 text-white hover:bg-neutral-700 disabled:opacity-50 aria-disabled:cursor-wait aria-disabled:opacity-50 dark:bg-neutral-100 dark:text-neutral-900 dark:hover:bg-neutral-300';
export const smallButton =
  'rounded border border-neutral-300 px-2 py-1 text-sm hover:bg-neutral-100 disabled:opacity-50 dark:border-neutral-700 dark:hover:bg-neutral-800';
export const alertBox =
  'rounded border border-red-300 bg-red-50 p-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200';
export const noticeBox =
  'rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100';
export const link = 'text-blue-700 underline dark:text-blue-400';
export const muted = 'text-sm text-neutral-600 dark:text-neutral-400';
