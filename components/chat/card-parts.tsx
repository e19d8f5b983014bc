// The pieces the folding cards of a run share (tool calls, retrieval steps, reasoning): the frame, the header
// button and the chevron that turns when the card opens.

export const CARD_FRAME =
  'my-2 rounded-lg border border-neutral-200 bg-white dark:border-neutral-800 dark:bg-neutral-950';

export const CARD_HEADER =
  'flex w-full flex-wrap items-center gap-x-2 gap-y-1 rounded-lg px-3 py-2 text-left text-sm hover:bg-neutral-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:hover:bg-neutral-900 dark:focus-visible:outline-blue-400';

export const CARD_CHEVRON = 'shrink-0 text-neutral-600 dark:text-neutral-400';

/** A right-pointing triangle, turned down while open. */
export function Chevron({ open, className = '' }: { open: boolean; className?: string }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 16 16"
      className={`size-3.5 transition-transform ${className} ${open ? 'rotate-90' : ''}`}
      fill="currentColor"
    >
      <path d="M6 3.5 10.5 8 6 12.5z" />
    </svg>
  );
}
