'use client';
// The page's part of "Simulate a user" (simulate-user.ts): the header's button, the dialog asking for how many turns
// and who the simulated user is, and the line above the composer saying how far it got, with Stop.
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { MAX_SIMULATED_TURNS } from '@/lib/chat/requests';
import { useModalDialog } from '../modal-dialog';
import { useCodedText } from './server-text';
import { useChat } from './store';
import { useSimulation } from './simulate-user';

const BUTTON =
  'rounded border border-neutral-300 px-3 py-1 text-sm hover:bg-neutral-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:border-neutral-700 dark:hover:bg-neutral-800';
const FIELD =
  'w-full rounded border border-neutral-300 bg-white px-2 py-1 text-sm dark:border-neutral-700 dark:bg-neutral-900';

/** The header's "Simulate a user" button and its dialog: shown in a conversation, while nothing runs in it. */
export function SimulateUserButton() {
  const t = useTranslations('simulate');
  const activeId = useChat((s) => s.activeId);
  const running = useChat((s) => Boolean(s.runningRunId));
  const simulating = useSimulation((s) => Boolean(s.conversationId));
  const [open, setOpen] = useState(false);
  if (!activeId) return null;
  return (
    <>
      <button
        type="button"
        disabled={running || simulating}
        onClick={() => setOpen(true)}
        className="shrink-0 rounded-lg px-2 py-1 text-sm whitespace-nowrap hover:bg-neutral-200 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 disabled:opacity-50 dark:hover:bg-neutral-800"
      >
        {t('button')}
      </button>
      <SimulateUserDialog conversationId={activeId} open={open} onClose={() => setOpen(false)} />
    </>
  );
}

function SimulateUserDialog({
  conversationId,
  open,
  onClose,
}: {
  conversationId: string;
  open: boolean;
  onClose: () => void;
}) {
  const t = useTranslations('simulate');
  const dialog = useModalDialog(open);
  const [turns, setTurns] = useState('3');
  const [persona, setPersona] = useState('');
  const count = Math.trunc(Number(turns));
  const valid = Number.isFinite(count) && count >= 1 && count <= MAX_SIMULATED_TURNS;
  return (
    <dialog
      ref={dialog}
      aria-labelledby="simulate-user-title"
      onClose={() => open && onClose()}
      className="m-auto w-[min(28rem,95vw)] rounded-lg border border-neutral-300 bg-white p-4 text-neutral-900 backdrop:bg-black/50 dark:border-neutral-700 dark:bg-neutral-950 dark:text-neutral-100"
    >
      {open && (
        <form
          className="space-y-3 text-sm"
          onSubmit={(e) => {
            e.preventDefault();
            if (!valid) return;
            onClose();
            void useSimulation.getState().start(conversationId, count, persona.trim() || undefined);
          }}
        >
          <h2 id="simulate-user-title" className="text-base font-semibold">
            {t('title')}
          </h2>
          <p className="text-neutral-700 dark:text-neutral-300">{t('help')}</p>
          <label className="flex flex-col gap-1">
            <span className="font-medium">{t('turns', { max: MAX_SIMULATED_TURNS })}</span>
            <input
              type="number"
              min={1}
              max={MAX_SIMULATED_TURNS}
              required
              className={`${FIELD} w-24`}
              value={turns}
              aria-invalid={!valid}
              onChange={(e) => setTurns(e.target.value)}
            />
          </label>
          <label className="flex flex-col gap-1">
            <span className="font-medium">{t('persona')}</span>
            <textarea
              rows={3}
              maxLength={2000}
              className={FIELD}
              placeholder={t('personaPlaceholder')}
              value={persona}
              onChange={(e) => setPersona(e.target.value)}
            />
          </label>
          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" className={BUTTON} onClick={onClose}>
              {t('cancel')}
            </button>
            <button
              type="submit"
              disabled={!valid}
              className="rounded bg-blue-700 px-3 py-1 text-sm font-medium text-white hover:bg-blue-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-500 focus-visible:ring-offset-2 disabled:bg-neutral-400"
            >
              {t('start')}
            </button>
          </div>
        </form>
      )}
    </dialog>
  );
}

/** How far the simulation got (above the composer), with Stop while it runs. */
export function SimulationStatus() {
  const t = useTranslations('simulate');
  const { conversationId, sent, total, end } = useSimulation();
  const activeId = useChat((s) => s.activeId);
  const codedText = useCodedText('errors');
  if (conversationId) {
    return (
      <div className="flex flex-wrap items-center gap-2 border-t border-neutral-200 px-4 py-2 text-sm dark:border-neutral-800">
        <p role="status" className="flex-1">
          {t('progress', { n: Math.min(sent + 1, total), total })}
        </p>
        <button type="button" className={BUTTON} onClick={() => void useSimulation.getState().stop()}>
          {t('stop')}
        </button>
      </div>
    );
  }
  if (!end || !activeId) return null;
  const said =
    end === 'finished'
      ? t('finished', { n: sent })
      : end === 'ended'
        ? t('ended', { n: sent })
        : end === 'stopped'
          ? t('stopped', { n: sent })
          : t('failed', { error: codedText(end.error) });
  return (
    <div className="flex flex-wrap items-center gap-2 border-t border-neutral-200 px-4 py-2 text-sm dark:border-neutral-800">
      <p role="status" className="flex-1">
        {said}
      </p>
      <button type="button" className={BUTTON} onClick={() => useSimulation.getState().dismiss()}>
        {t('dismiss')}
      </button>
    </div>
  );
}
