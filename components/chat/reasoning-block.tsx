'use client';

import { Chevron } from './card-parts';
import { memo, useId, useState } from 'react';
import type { ReasoningBlock as ReasoningBlockData } from '../../lib/chat/view';
import { reasoningLabel } from './format';
import { useFormatWords } from './use-format-words';

export interface ReasoningBlockProps {
  block: ReasoningBlockData;
  /** Whether the run is still streaming; a block the run left unfinished stops saying "Thinking…". */
  streaming: boolean;
}

/** Model thinking or a ReAct Thought: open while it streams, folded once it ended; the user can open it again. */
export const ReasoningBlock = memo(function ReasoningBlock({ block, streaming }: ReasoningBlockProps) {
  const live = streaming && block.endT === undefined;
  // Until the user clicks, the block follows the stream (open while live); after that, their choice holds.
  const [userOpen, setUserOpen] = useState<boolean | undefined>(undefined);
  const open = userOpen ?? live;
  const panelId = useId();
  const f = useFormatWords();
  const label = reasoningLabel(block.label, block.startT, block.endT, live, f);

  return (
    <div className="my-2">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setUserOpen(!open)}
        className="inline-flex items-center gap-1.5 rounded px-1 py-0.5 text-sm font-medium text-neutral-600 hover:text-neutral-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:text-neutral-400 dark:hover:text-neutral-100 dark:focus-visible:outline-blue-400"
      >
        <Chevron open={open} />
        {label}
        {live && (
          <span aria-hidden="true" className="ml-1 inline-block size-1.5 animate-pulse rounded-full bg-current" />
        )}
      </button>
      <div
        id={panelId}
        hidden={!open}
        className="mt-1 border-l-2 border-neutral-300 pl-3 text-sm whitespace-pre-wrap break-words text-neutral-600 dark:border-neutral-700 dark:text-neutral-400"
      >
        {open ? block.text : null}
      </div>
    </div>
  );
});
