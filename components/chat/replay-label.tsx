'use client';
// The line that says an answer is a replay (Replay from here) or a continuation of another run of its message, and
// of which one and from which step: taken from what the run recorded when it started (its run-start's `replay`).
import { useTranslations } from 'next-intl';
import type { RunView } from '@/lib/chat/view';

/** Only its glyph: the text beside it says what it is. */
const REPLAY_ICON = '↻';

export function ReplayLabel({ id, replay }: { id: string; replay: NonNullable<RunView['replay']> }) {
  const t = useTranslations('turn');
  const { ofRun, fromIteration: from, continued } = replay;
  const text = continued
    ? ofRun
      ? t('continuationOfRun', { of: ofRun, from })
      : t('continuation', { from })
    : ofRun
      ? t('replayOfRun', { of: ofRun, from })
      : t('replayFromStep', { from });
  return (
    <p id={id} data-replay-label className="mb-1 text-xs text-neutral-600 dark:text-neutral-400">
      <span aria-hidden="true" className="mr-1">
        {REPLAY_ICON}
      </span>
      {text}
    </p>
  );
}
