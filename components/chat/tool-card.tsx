'use client';

import { useTranslations } from 'next-intl';
import { CARD_CHEVRON, CARD_FRAME, CARD_HEADER, Chevron } from './card-parts';
import { memo, useId, useState } from 'react';
import type { ToolBlock } from '../../lib/chat/view';
import { unfinishedType } from '../../lib/protocol/unfinished-calls';
import { codeFence, formatDuration, interpreterCode, prettyJson, resultText, toolCallSummary } from './format';
import { Markdown } from './markdown';
import { RetrievalDetails } from './retrieval-card';
import { ToolFiles } from './tool-files';
import { ToolImages, toolImages, type ToolImage } from './tool-images';
import { ToolApproval } from './tool-approval';
import { ToolResult } from './tool-result';
import { useToolErrorKindText, useToolErrorText } from './tool-error-text';
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

const ERROR_BOX = 'rounded-md border border-red-300 bg-red-50 p-3 dark:border-red-800 dark:bg-red-950';
const ERROR_TITLE = 'mb-1 text-xs font-semibold tracking-wide text-red-800 uppercase dark:text-red-200';
const STOPPED_BOX = 'rounded-md border border-orange-300 bg-orange-50 p-3 dark:border-orange-800 dark:bg-orange-950';
const STOPPED_TITLE = 'mb-1 text-xs font-semibold tracking-wide text-orange-900 uppercase dark:text-orange-100';

function Outcome({ block, images }: { block: ToolBlock; images: ToolImage[] }) {
  const t = useTranslations('toolCard');
  const errorText = useToolErrorText();
  const kindText = useToolErrorKindText();
  // code_interpreter's result is upstream's Markdown (its sections fenced blocks): drawn as an answer is.
  const markdown = block.name === 'code_interpreter';
  // Images are shown above, on the card itself: not a second time here.
  const shown = images.map((i) => i.src);
  const files = block.files?.length ? <ToolFiles files={block.files} /> : null;
  if (block.status === 'error' || block.status === 'stopped' || block.status === 'interrupted') {
    // The run can end before a call starts, or while it runs (a failure, the server's end): then it has no result.
    const returned = block.result !== undefined;
    const cut = block.status !== 'error';
    const unfinished = unfinishedType(block.error?.type);
    // The error the model was given, said by its code in the page's language; a failed tool's own result (its
    // output) is shown as it is, and its code is said on the line below it.
    const ownResult = block.error?.kind === 'failed';
    const said = ownResult ? resultText(block.result ?? '') : errorText(block.error, resultText(block.result ?? ''));
    const errorName = `${block.error?.type} (${kindText(block.error?.kind)})`;
    return (
      <div className="space-y-3">
        <div className={cut ? STOPPED_BOX : ERROR_BOX}>
          <div className={cut ? STOPPED_TITLE : ERROR_TITLE}>
            {block.status === 'stopped'
              ? t('stoppedWhileRunning')
              : block.status === 'interrupted'
                ? t('interruptedWhileRunning')
                : returned
                  ? t('errorReturned')
                  : t('notRun')}
          </div>
          {returned && markdown ? (
            <ToolResult result={block.result ?? ''} markdown shown={shown} />
          ) : (
            <pre
              className={`font-mono text-xs whitespace-pre-wrap break-words ${cut ? 'text-orange-950 dark:text-orange-50' : 'text-red-900 dark:text-red-100'}`}
            >
              {returned ? said : unfinished ? t(`unfinished.${unfinished}`) : block.error?.message}
            </pre>
          )}
          {block.error && returned && !cut && (
            <p className="mt-2 text-xs text-red-800 dark:text-red-200">
              {ownResult ? errorText(block.error, errorName) : errorName}
            </p>
          )}
        </div>
        {files}
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
  const result = Array.isArray(block.result)
    ? block.result.filter((item) => !(item.image && shown.includes(item.image)))
    : block.result;
  return (
    <div>
      <div className={SECTION_TITLE}>{t('result')}</div>
      {block.name === 'web_search' ? (
        <WebSearchResults result={block.result} />
      ) : (
        <ToolResult result={result} markdown={markdown} shown={shown} />
      )}
      {files}
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
  // A failed call's result is its error, with no images; files it wrote before failing (a chart saved, then code
  // that raised) are shown.
  const failed = block.status === 'error' || block.status === 'stopped' || block.status === 'interrupted';
  const images = toolImages(failed ? { files: block.files } : block, (n) => tResult('image', { n }));

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
