'use client';

import { useTranslations } from 'next-intl';
import { CARD_CHEVRON, CARD_FRAME, CARD_HEADER, Chevron } from './card-parts';
import { memo, useId, useState } from 'react';
import type { ToolBlock } from '../../lib/chat/view';
import { codeFence, formatDuration, interpreterCode, prettyJson, resultText, toolCallSummary } from './format';
import { Markdown } from './markdown';
import { RetrievalDetails } from './retrieval-card';
import { ToolFiles } from './tool-files';
import { ToolImages, toolImages, type ToolImage } from './tool-images';
import { ToolApproval } from './tool-approval';
import { ToolResult } from './tool-result';
import { ToolStatusBadge } from './tool-status-badge';
import { useFormatWords } from './use-format-words';
import { WebSearchResults } from './web-search-results';

export interface ToolCardProps {
  block: ToolBlock;
  /** Start expanded (the card is folded by default). */
  defaultOpen?: boolean;
}

const SECTION_TITLE = 'mb-1 text-xs font-semibold tracking-wide text-neutral-700 uppercase dark:text-neutral-300';

function Arguments({ block }: { block: ToolBlock }) {
  const t = useTranslations('toolCard');
  if (block.name === 'code_interpreter') {
    return (
      <div>
        <div className={SECTION_TITLE}>{t('code')}</div>
        <Markdown text={codeFence(interpreterCode(block.arguments), 'python')} />
      </div>
    );
  }
  const pretty = prettyJson(block.arguments);
  return (
    <div>
      <div className={SECTION_TITLE}>{t('arguments')}</div>
      {pretty !== undefined ? (
        <Markdown text={codeFence(pretty, 'json')} />
      ) : (
        <pre className="overflow-x-auto rounded-md bg-neutral-50 p-3 font-mono text-xs whitespace-pre-wrap break-words dark:bg-neutral-900">
          {block.arguments || t('none')}
        </pre>
      )}
    </div>
  );
}

function Outcome({ block, images }: { block: ToolBlock; images: ToolImage[] }) {
  const t = useTranslations('toolCard');
  if (block.status === 'error') {
    // The run can end before a call finishes: then nothing was returned to the model.
    const returned = block.result !== undefined;
    return (
      <div className="rounded-md border border-red-300 bg-red-50 p-3 dark:border-red-800 dark:bg-red-950">
        <div className="mb-1 text-xs font-semibold tracking-wide text-red-800 uppercase dark:text-red-200">
          {returned ? t('errorReturned') : t('notRun')}
        </div>
        <pre className="font-mono text-xs whitespace-pre-wrap break-words text-red-900 dark:text-red-100">
          {returned ? resultText(block.result ?? '') : block.error?.message}
        </pre>
        {block.error && returned && (
          <p className="mt-2 text-xs text-red-800 dark:text-red-200">
            {block.error.type} ({block.error.kind})
          </p>
        )}
      </div>
    );
  }
  if (block.result === undefined) {
    return (
      <p className="text-xs text-neutral-600 dark:text-neutral-400">
        {block.status === 'queued' ? t('waitingForEarlier') : t('running')}
      </p>
    );
  }
  // The retrieval tool's result is the passages its search found: shown as that search.
  if (block.retrieval) return <RetrievalDetails block={block.retrieval} />;
  // Images are shown above, on the card itself: not a second time here.
  const shown = new Set(images.map((i) => i.src));
  const result = Array.isArray(block.result)
    ? block.result.filter((item) => !(item.image && shown.has(item.image)))
    : block.result;
  return (
    <div>
      <div className={SECTION_TITLE}>{t('result')}</div>
      {block.name === 'web_search' ? (
        <WebSearchResults result={block.result} />
      ) : (
        <ToolResult result={result} console={block.name === 'code_interpreter'} />
      )}
      {block.files?.length ? <ToolFiles files={block.files} /> : null}
    </div>
  );
}

/** One tool call: a header button (name, argument summary, status, duration) that opens its arguments and result. */
export const ToolCard = memo(function ToolCard({ block, defaultOpen = false }: ToolCardProps) {
  const [open, setOpen] = useState(defaultOpen);
  const panelId = useId();
  const f = useFormatWords();
  const tResult = useTranslations('toolResult');
  const summary = toolCallSummary(block.name, block.arguments);
  const images = block.status === 'error' ? [] : toolImages(block, (n) => tResult('image', { n }));

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
        <span className="font-mono font-semibold break-all">{block.name}</span>
        {summary && (
          <span className="min-w-0 flex-1 basis-40 truncate font-mono text-xs text-neutral-600 dark:text-neutral-400">
            {summary}
          </span>
        )}
        <span className="ml-auto flex shrink-0 items-center gap-2">
          <ToolStatusBadge status={block.status} />
          {block.durationMs !== undefined && (
            <span className="text-xs text-neutral-600 tabular-nums dark:text-neutral-400">
              {formatDuration(block.durationMs, f)}
            </span>
          )}
        </span>
      </button>
      {images.length > 0 && <ToolImages images={images} />}
      <div
        id={panelId}
        hidden={!open}
        className="space-y-3 border-t border-neutral-200 px-3 py-3 dark:border-neutral-800"
      >
        {open && (
          <>
            <Arguments block={block} />
            <Outcome block={block} images={images} />
          </>
        )}
      </div>
      <ToolApproval block={block} />
    </div>
  );
});
