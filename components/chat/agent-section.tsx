'use client';

import { useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import type { AgentBlock, HandoffBlock } from '../../lib/chat/view';
import { AgentAvatar } from './agent-avatar';
import { formatDuration } from './format';
import { useFormatWords } from './use-format-words';

/** A child run (a Router's helper, a GroupChat's member): who answered, in which round and why, how long it took,
 *  and its own blocks (`children`, drawn by the caller). */
export function AgentSection({ block, children }: { block: AgentBlock; children: ReactNode }) {
  const t = useTranslations('run');
  const f = useFormatWords();
  return (
    <section
      aria-label={t('agentSection', { name: block.name })}
      data-agent={block.name}
      className="my-2 rounded-lg border border-neutral-200 px-3 py-2 dark:border-neutral-700"
    >
      <header className="mb-1 flex flex-wrap items-center gap-2 text-sm text-neutral-600 dark:text-neutral-400">
        <AgentAvatar avatar={block.avatar} />
        <span className="font-semibold text-neutral-900 dark:text-neutral-100">{block.name}</span>
        {block.round !== undefined && <span>{t('round', { round: block.round })}</span>}
        {block.reason && <span>· {t(`reason.${block.reason}`)}</span>}
        <span className="ml-auto tabular-nums">
          {block.endT !== undefined ? formatDuration(block.endT - block.startT, f) : t('agentRunning')}
        </span>
      </header>
      {children}
    </section>
  );
}

/** The turn passed to the user, or ended by the host. */
export function HandoffNote({ block }: { block: HandoffBlock }) {
  const t = useTranslations('run');
  return (
    <p role="note" className="my-2 text-sm text-neutral-600 italic dark:text-neutral-400">
      {block.to ? t('handoffUser') : t('handoffStop')}
    </p>
  );
}
