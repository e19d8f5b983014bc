'use client';
import { useTranslations } from 'next-intl';
import { useContext, useEffect, useRef, useState } from 'react';
import type { ToolDecision } from '../../lib/protocol/events';
import type { ToolBlock } from '../../lib/chat/view';
import { prettyJson } from './format';
import { ToolDecisions } from './tool-decisions';

const BUTTON =
  'rounded border border-amber-400 bg-white px-3 py-1 text-sm font-medium hover:bg-amber-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 disabled:opacity-50 dark:border-amber-700 dark:bg-neutral-900 dark:hover:bg-amber-900';

function DecisionNote({ decision }: { decision: ToolDecision }) {
  const t = useTranslations('approval.decided');
  const edited = decision.action === 'run' && decision.arguments !== undefined;
  return (
    <p className="border-t border-neutral-200 px-3 py-1 text-xs text-neutral-700 dark:border-neutral-800 dark:text-neutral-300">
      {edited ? t('runEdited') : t(decision.action)}
    </p>
  );
}

/** "Pause before tools": a call waiting for the user. Edit the arguments and run it, skip it, or supply its result. */
export function ToolApproval({ block }: { block: ToolBlock }) {
  const t = useTranslations('approval');
  const decideTool = useContext(ToolDecisions);
  const [args, setArgs] = useState(() => prettyJson(block.arguments) ?? block.arguments);
  const [supplying, setSupplying] = useState(false);
  const [result, setResult] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const awaiting = !block.decision && block.status === 'awaiting' && Boolean(decideTool);
  // The run waits for the user: the card takes the focus (what it says is read out with it, and by its live region).
  const card = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (awaiting) card.current?.focus();
  }, [awaiting]);
  if (block.decision) return <DecisionNote decision={block.decision} />;
  if (block.status !== 'awaiting' || !decideTool) return null;

  async function decide(decision: ToolDecision) {
    setBusy(true);
    const refused = await decideTool!(block.functionId, decision);
    setBusy(false);
    setError(refused);
  }
  const field =
    'w-full rounded border border-neutral-300 bg-white p-2 font-mono text-xs dark:border-neutral-700 dark:bg-neutral-900';
  return (
    <div
      ref={card}
      role="group"
      tabIndex={-1}
      aria-label={t('approve', { name: block.name })}
      className="space-y-2 border-t border-amber-300 bg-amber-50 px-3 py-3 text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:border-amber-800 dark:bg-amber-950"
    >
      <p role="status">{t('paused')}</p>
      <label className="flex flex-col gap-1">
        <span className="font-medium">{t('arguments')}</span>
        <textarea
          className={field}
          rows={Math.min(10, args.split('\n').length + 1)}
          value={args}
          onChange={(e) => setArgs(e.target.value)}
        />
      </label>
      {supplying && (
        <label className="flex flex-col gap-1">
          <span className="font-medium">{t('result')}</span>
          <textarea className={field} rows={3} value={result} onChange={(e) => setResult(e.target.value)} />
        </label>
      )}
      {error && (
        <p role="alert" className="text-red-800 dark:text-red-200">
          {error}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className={BUTTON}
          disabled={busy}
          onClick={() =>
            void decide(
              args === (prettyJson(block.arguments) ?? block.arguments)
                ? { action: 'run' }
                : { action: 'run', arguments: args },
            )
          }
        >
          {t('run')}
        </button>
        <button type="button" className={BUTTON} disabled={busy} onClick={() => void decide({ action: 'skip' })}>
          {t('skip')}
        </button>
        {supplying ? (
          <button
            type="button"
            className={BUTTON}
            disabled={busy}
            onClick={() => void decide({ action: 'supply', content: result })}
          >
            {t('useResult')}
          </button>
        ) : (
          <button type="button" className={BUTTON} onClick={() => setSupplying(true)}>
            {t('supplyResult')}
          </button>
        )}
      </div>
    </div>
  );
}
