'use client';

import { useTranslations } from 'next-intl';
import { useId, useState, type ReactNode } from 'react';
import { sectionState, type AgentBlock, type HandoffBlock } from '../../lib/chat/view';
import { AgentAvatar } from './agent-avatar';
import { CARD_CHEVRON, CARD_FRAME, CARD_HEADER, Chevron } from './card-parts';
import { formatDuration } from './format';
import { useFormatWords } from './use-format-words';

/** A child run (a Router's helper, a GroupChat's member): who answered, in which round and why, how long it took,
 *  and its own blocks (`children`, drawn by the caller). A step aside (ParallelDocQA's readers, a keyword strategy)
 *  is folded behind a button that opens it. */
export function AgentSection({ block, children }: { block: AgentBlock; children: ReactNode }) {
  if (block.aside) return <AsideSection block={block}>{children}</AsideSection>;
  return <AnswerSection block={block}>{children}</AnswerSection>;
}

function AnswerSection({ block, children }: { block: AgentBlock; children: ReactNode }) {
  const t = useTranslations('run');
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
          <SectionTime block={block} running={t('agentRunning')} />
        </span>
      </header>
      {children}
    </section>
  );
}

function AsideSection({ block, children }: { block: AgentBlock; children: ReactNode }) {
  const t = useTranslations('run');
  const [open, setOpen] = useState(false);
  const panel = useId();
  return (
    <section aria-label={t('asideSection', { name: block.name })} data-agent={block.name} className={CARD_FRAME}>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panel}
        onClick={() => setOpen(!open)}
        className={CARD_HEADER}
      >
        <Chevron open={open} className={CARD_CHEVRON} />
        <span className="min-w-0 flex-1 break-words text-neutral-800 dark:text-neutral-200">{block.name}</span>
        <span className="shrink-0 text-neutral-600 tabular-nums dark:text-neutral-400">
          <SectionTime block={block} running={t('asideRunning')} />
        </span>
      </button>
      <div id={panel} hidden={!open} className="px-3 pb-2">
        {open && children}
      </div>
    </section>
  );
}

/** While the section goes, `running`; once over (its run's status says so), how long it took, or how it ended when
 *  its end is unknown (its server was lost, or its parent's end cut it). */
function SectionTime({ block, running }: { block: AgentBlock; running: string }) {
  const t = useTranslations('run');
  const f = useFormatWords();
  const state = sectionState(block);
  if (state.going) return running;
  return state.durationMs !== undefined ? formatDuration(state.durationMs, f) : t(`sectionEnded.${state.outcome}`);
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
