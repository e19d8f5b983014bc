'use client';

import { useTranslations } from 'next-intl';
import { CARD_CHEVRON, CARD_FRAME, CARD_HEADER, Chevron } from './card-parts';
import { memo, useCallback, useId, useState } from 'react';
import type { RetrievalCandidate } from '../../lib/protocol/events';
import type { RetrievalBlock } from '../../lib/chat/view';
import { formatDuration, formatNumber } from './format';
import { useFormatWords } from './use-format-words';

const SECTION_TITLE = 'mb-1 text-xs font-semibold tracking-wide text-neutral-700 uppercase dark:text-neutral-300';

/** "handbook.md, page 3" in the page's language (just the name when the passage has no page). */
export function usePassageLabel(): (c: Pick<RetrievalCandidate, 'fileName' | 'page' | 'lastPage'>) => string {
  const t = useTranslations('retrieval');
  return useCallback(
    (c) =>
      c.page === undefined
        ? c.fileName
        : c.lastPage !== undefined && c.lastPage > c.page
          ? t('passagePages', { file: c.fileName, first: c.page, last: c.lastPage })
          : t('passage', { file: c.fileName, page: c.page }),
    [t],
  );
}

// Scores (BM25's, negative for words in most chunks) and the stemmed search terms are the inspector's: here, what was
// asked and which passages went in.
function Candidate({ c, rank, memory }: { c: RetrievalCandidate; rank: number; memory: boolean }) {
  const t = useTranslations('retrieval');
  const passageLabel = usePassageLabel();
  // Recalled turns (a VirtualMemoryAgent's memory): the page is the turn they come from.
  const label = memory && c.page !== undefined ? t('turn', { n: c.page }) : passageLabel(c);
  const f = useFormatWords();
  return (
    <li
      className={`rounded-md border p-2 ${c.used ? 'border-emerald-300 bg-emerald-50 dark:border-emerald-800 dark:bg-emerald-950' : 'border-neutral-200 dark:border-neutral-800'}`}
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs">
        <span className="font-semibold">#{rank}</span>
        <span className="font-medium break-all">{label}</span>
        <span className="tabular-nums">{t('tokens', { n: formatNumber(c.tokens, f.locale) })}</span>
        {c.pinned && <span>{t('frontPage')}</span>}
        <span
          className={`ml-auto font-semibold ${c.used ? 'text-emerald-800 dark:text-emerald-200' : 'text-neutral-600 dark:text-neutral-400'}`}
        >
          {c.used ? t('inPrompt') : t('leftOut')}
        </span>
      </div>
      <pre className="mt-1 max-h-40 overflow-auto font-mono text-xs whitespace-pre-wrap break-words text-neutral-800 dark:text-neutral-200">
        {c.text}
      </pre>
    </li>
  );
}

/** What a search asked and found: the query, how much went in, each candidate and whether it went into the prompt.
 *  Also the body of the retrieval tool's card. */
export function RetrievalDetails({ block }: { block: RetrievalBlock }) {
  const t = useTranslations('retrieval');
  const f = useFormatWords();
  const memory = block.by === 'memory';
  return (
    <>
      <div>
        <div className={SECTION_TITLE}>{t('query')}</div>
        <p className="text-sm break-words">{block.query || t('none')}</p>
      </div>
      <p className="text-xs text-neutral-700 dark:text-neutral-300">
        {block.mode && <>{t(`mode.${block.mode}`)} </>}
        {t('tokensUsed', {
          used: formatNumber(block.usedTokens, f.locale),
          budget: formatNumber(block.budgetTokens, f.locale),
        })}
      </p>
      {block.errors?.length ? (
        <ul className="rounded-md border border-red-300 bg-red-50 p-2 text-xs text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
          {block.errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      ) : null}
      <div>
        <div className={SECTION_TITLE}>{t('candidates')}</div>
        <ol className="space-y-2">
          {block.candidates.map((c, i) => (
            <Candidate key={c.chunkId} c={c} rank={i + 1} memory={memory} />
          ))}
        </ol>
      </div>
    </>
  );
}

/** A document search step (the Assistant's, before its model call; or a VirtualMemoryAgent's recall of earlier turns):
 *  the query, then each candidate chunk and whether it went into the prompt. */
export const RetrievalCard = memo(function RetrievalCard({
  block,
  defaultOpen = false,
}: {
  block: RetrievalBlock;
  /** Opened from the start (tests render the card once, on the server). */
  defaultOpen?: boolean;
}) {
  const t = useTranslations('retrieval');
  const f = useFormatWords();
  const [open, setOpen] = useState(defaultOpen);
  const panelId = useId();
  const used = block.candidates.filter((c) => c.used).length;
  const files = new Set(block.candidates.map((c) => c.fileName)).size;
  const memory = block.by === 'memory';

  return (
    <div className={CARD_FRAME}>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
        className={CARD_HEADER}
      >
        <Chevron open={open} className={CARD_CHEVRON} />
        <span className="font-semibold">{memory ? t('memoryTitle') : t('title')}</span>
        <span className="min-w-0 flex-1 basis-40 truncate text-xs text-neutral-600 dark:text-neutral-400">
          {block.query ? t('quoted', { query: block.query }) : t('noQuery')} ·{' '}
          {memory
            ? t('memorySummary', { used, total: block.candidates.length })
            : t('summary', { used, total: block.candidates.length, files })}
        </span>
        <span className="ml-auto shrink-0 text-xs text-neutral-600 tabular-nums dark:text-neutral-400">
          {formatDuration(block.durationMs, f)}
        </span>
      </button>
      <div
        id={panelId}
        hidden={!open}
        className="space-y-3 border-t border-neutral-200 px-3 py-3 dark:border-neutral-800"
      >
        {open && <RetrievalDetails block={block} />}
      </div>
    </div>
  );
});
