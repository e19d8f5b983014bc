'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useMemo, useState } from 'react';
import { answerSources } from '../../lib/chat/sources';
import { toolTagsInNativeAnswer, type RunView as RunViewData } from '../../lib/chat/view';
import { BlockView } from './block-view';
import { NoticeButton, OpenModelsButton } from './notice-button';
import { Citations } from './citations';
import { ReadingProgress } from './reading-progress';
import { retryNotice, stopNotice } from './format';
import { useRunErrorText } from './run-error-text';
import { useFormatWords } from './use-format-words';

export interface RunViewProps {
  /**
   * The run to show. Blocks are memoized by identity: whoever updates the run must replace a changed block with a
   * new object (applyEvent mutates in place and returns the changed ids for exactly this).
   */
  run: RunViewData;
  onRetry?: () => void;
  /** Offered on a run that stopped at the model-call limit: it goes on where it stopped. */
  onContinue?: () => void;
  /** The address of the run's connection, when this viewer may see it (useConnectionAddress): a server that could
   *  not be reached is named by it. */
  address?: string;
}

/** An assistant turn as it happened: reasoning, tool cards and the answer, then why it stopped if it was not answered. */
export function RunView({ run, onRetry, onContinue, address }: RunViewProps) {
  const t = useTranslations('run');
  const f = useFormatWords();
  const streaming = run.status === 'streaming';
  const errorText = useRunErrorText();
  const notice = stopNotice(run, f);
  const answered = run.blocks.some((b) => b.kind === 'text');
  /** Why it failed, in the page's language where the server gave a code for it. */
  const failure = () =>
    run.error?.code ? errorText(run.error, { connection: run.connection, address }) : notice?.text;
  // Which pages the answer drew on is read from the whole answer: the Sources come once it is complete.
  const passages = useMemo(() => (answered && !streaming ? answerSources(run) : []), [run, answered, streaming]);
  return (
    <div className="min-w-0">
      {run.imagesWithheld !== undefined && (
        <p role="note" className="mb-2 text-sm text-amber-800 dark:text-amber-200">
          {t('imagesWithheld', { count: run.imagesWithheld })}
        </p>
      )}
      {run.toolImagesWithheld !== undefined && (
        <p role="note" className="mb-2 text-sm text-amber-800 dark:text-amber-200">
          {t('toolImagesWithheld', { count: run.toolImagesWithheld })}
        </p>
      )}
      {run.blocks.map((block) => (
        <BlockView key={block.id} block={block} streaming={streaming} />
      ))}
      {streaming && run.progress && <ReadingProgress progress={run.progress} />}
      {answered && <Citations passages={passages} />}
      {toolTagsInNativeAnswer(run) && (
        <p
          role="note"
          className="mt-2 flex flex-wrap items-center gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
        >
          <span className="min-w-0 flex-1">{t('toolTagsHint', { tag: '<tool_call>' })}</span>
          <OpenModelsButton tone="amber">{t('openModels')}</OpenModelsButton>
        </p>
      )}
      {streaming && run.blocks.length === 0 && !run.retrying && (
        <div role="status" className="flex items-center gap-2 py-1 text-sm text-neutral-600 dark:text-neutral-400">
          <span
            aria-hidden="true"
            className="inline-block h-4 w-2 animate-pulse bg-current motion-reduce:animate-none"
          />
          <span className="sr-only">{t('waiting')}</span>
        </div>
      )}
      {run.retrying && <RetryNotice key={run.retrying.attempt} retrying={run.retrying} />}
      {notice?.kind === 'info' && (
        <p className="mt-2 flex flex-wrap items-center gap-2 text-sm text-neutral-600 dark:text-neutral-400">
          <span className="italic">{notice.text}</span>
          {run.status === 'max-iterations' && onContinue && (
            <button
              type="button"
              onClick={onContinue}
              className="rounded-md border border-neutral-400 px-3 py-1 text-sm font-medium text-neutral-900 not-italic hover:bg-neutral-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:border-neutral-600 dark:text-neutral-100 dark:hover:bg-neutral-800"
            >
              {t('continue')}
            </button>
          )}
        </p>
      )}
      {notice?.kind === 'error' && (
        <div
          role="alert"
          className="mt-2 flex flex-wrap items-center gap-2 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
        >
          <span className="min-w-0 flex-1 break-words">{failure()}</span>
          {run.error?.code === 'model-unreachable' && address && (
            <OpenModelsButton tone="red">{t('openModels')}</OpenModelsButton>
          )}
          {onRetry && (
            <NoticeButton tone="red" onClick={onRetry}>
              {t('retry')}
            </NoticeButton>
          )}
        </div>
      )}
    </div>
  );
}

/** The model server is being asked again: why, and a countdown to the next attempt. */
function RetryNotice({ retrying }: { retrying: NonNullable<RunViewData['retrying']> }) {
  const f = useFormatWords();
  const [since] = useState(() => Date.now());
  const [now, setNow] = useState(since);
  useEffect(() => {
    const timer = setInterval(() => {
      const at = Date.now();
      setNow(at);
      if (at - since >= retrying.delayMs) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [since, retrying.delayMs]);
  return (
    <div
      role="status"
      className="my-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      {retryNotice(retrying, retrying.delayMs - (now - since), f)}
      {retrying.message && (
        <span className="mt-0.5 block text-xs text-amber-800 dark:text-amber-200">{retrying.message}</span>
      )}
    </div>
  );
}
