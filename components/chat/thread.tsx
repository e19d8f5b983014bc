'use client';
import { useTranslations } from 'next-intl';
import { memo, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { decideTool } from '@/app/actions/replay';
import type { ToolDecision } from '@/lib/protocol/events';
import { contentText } from '@/lib/llm/schema';
import { answerText } from '@/lib/chat/view';
import { InspectRunButton } from '../inspector/inspect-run-button';
import { useConnectionName } from '../models/connection-name';
import { useConnectionAddress } from './connection-address';
import { AgentAvatar } from './agent-avatar';
import { AttachedFiles } from './attached-files';
import { CompareRunsButton } from '../runs/compare-runs';
import { useFollowBottom } from './follow-bottom';
import { ReplayRunButton } from '../runs/replay-from-here';
import { reachServer } from './reach-server';
import { ReplayLabel } from './replay-label';
import { RunView } from './run-view';
import { failureText, useCodedText } from './server-text';
import { useChat, type TurnState } from './store';
import { focusComposerForKeyboard } from './composer-draft';
import { ToolDecisions } from './tool-decisions';

/** The open conversation's turns; `empty` is what a conversation without any shows (the welcome page). */
export function Thread({ empty }: { empty?: ReactNode }) {
  const turns = useChat((s) => s.turns);
  const content = useRef<HTMLDivElement>(null);
  useFollowBottom(content, turns.length);

  if (!turns.length) return empty ?? null;
  return (
    <div ref={content} className="mx-auto flex max-w-3xl flex-col gap-6 p-4">
      {turns.map((t, i) => (
        <Turn key={t.turnId} turn={t} isLast={i === turns.length - 1} />
      ))}
    </div>
  );
}

const Turn = memo(function Turn({ turn, isLast }: { turn: TurnState; isLast: boolean }) {
  const t = useTranslations('turn');
  const running = useChat((s) => Boolean(s.runningRunId));
  const runningHere = useChat((s) =>
    s.runningRunId && s.runningRunId === turn.run?.runId ? s.runningRunId : undefined,
  );
  const coded = useCodedText('errors');
  const decide = useCallback(
    async (functionId: string, decision: ToolDecision, childRunId?: string) => {
      if (!runningHere) return t('notGoing');
      const r = await reachServer(() => decideTool(runningHere, functionId, decision, childRunId));
      return r.ok ? undefined : coded(failureText(r));
    },
    [runningHere, t, coded],
  );
  const connectionName = useConnectionName();
  const address = useConnectionAddress(turn.run?.connection);
  const chat = useChat.getState();
  // Retry, Regenerate, Continue and an edit sent go away as the new answer starts: the focus goes to the composer
  // (Escape there stops the answer, Tab reaches Stop), as it does when a dialog's opener is gone; not to the page.
  const anew = (start: () => Promise<unknown>) => {
    focusComposerForKeyboard();
    void start();
  };
  // An Edit the server refused comes back open with what was typed (the draw of the edit had taken this turn away).
  const [reopened] = useState(() => {
    const refused = useChat.getState().refusedEdit;
    return refused?.turnId === turn.turnId ? refused.text : undefined;
  });
  useEffect(() => {
    if (reopened !== undefined) useChat.setState({ refusedEdit: undefined });
  }, [reopened]);
  const [editing, setEditing] = useState(reopened !== undefined);
  const [draft, setDraft] = useState(reopened ?? '');
  const editButton = useRef<HTMLButtonElement>(null);
  /** Leaves the edit without sending; the focus goes back to Edit (the box it was in is gone). */
  const cancelEdit = () => {
    flushSync(() => setEditing(false));
    editButton.current?.focus();
  };
  const text = contentText(turn.content);
  // Joined only once the run is over (the copy button shows then): while streaming it would copy the whole answer
  // on every update.
  const answer = turn.run && turn.run.status !== 'streaming' ? answerText(turn.run) : '';
  const pending = turn.turnId.startsWith('pending-');
  const runId = turn.run?.runId;

  return (
    <>
      <article
        data-role="user"
        aria-label={t('yourMessage')}
        className="ml-auto max-w-[85%] rounded-2xl bg-blue-50 px-4 py-2 text-neutral-900 dark:bg-blue-950 dark:text-neutral-100"
      >
        {editing ? (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              setEditing(false);
              anew(() => chat.editAndResend(turn.turnId, draft));
            }}
            className="flex flex-col gap-2"
          >
            <textarea
              aria-label={t('editMessage')}
              autoFocus
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              onKeyDown={(e) => {
                // Keys that pick or drop an input method's candidate (Chinese, Japanese…) belong to it.
                if (e.nativeEvent.isComposing) return;
                if (e.key === 'Escape') {
                  e.preventDefault();
                  cancelEdit();
                }
                if (e.key === 'Enter' && !e.shiftKey) {
                  e.preventDefault();
                  setEditing(false);
                  anew(() => chat.editAndResend(turn.turnId, draft));
                }
              }}
              // As wide as the thread lets it and as tall as the message (up to 12 lines): all of it in view.
              rows={Math.min(12, Math.max(2, draft.split('\n').length))}
              className="field-sizing-content max-h-[50vh] w-[36rem] max-w-full min-w-[16rem] rounded border border-neutral-300 bg-white p-2 dark:border-neutral-700 dark:bg-neutral-900"
            />
            <div className="flex justify-end gap-2">
              <button
                type="button"
                onClick={cancelEdit}
                className="rounded px-3 py-1 text-sm hover:bg-neutral-200 dark:hover:bg-neutral-800"
              >
                {t('cancel')}
              </button>
              <button
                type="submit"
                className="rounded bg-blue-700 px-3 py-1 text-sm font-medium text-white hover:bg-blue-800"
              >
                {t('saveAndSend')}
              </button>
            </div>
          </form>
        ) : (
          <>
            <p className="whitespace-pre-wrap break-words">{text}</p>
            <AttachedFiles content={turn.content} />
            {!running && !pending && (
              <div className="mt-1 flex justify-end">
                <button
                  ref={editButton}
                  type="button"
                  onClick={() => {
                    setDraft(text);
                    setEditing(true);
                  }}
                  className="rounded px-2 py-0.5 text-xs text-neutral-700 hover:bg-blue-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:text-neutral-300 dark:hover:bg-blue-900"
                >
                  {t('edit')}
                </button>
              </div>
            )}
          </>
        )}
      </article>
      {turn.run && runId && (
        <article
          data-role="assistant"
          aria-label={t('answer')}
          aria-busy={turn.run.status === 'streaming'}
          aria-describedby={turn.run.replay ? `replay-of-${turn.run.runId}` : undefined}
          // Earlier answers off screen skip style, layout and paint: a long conversation costs each frame no more
          // than a short one. `auto` keeps the size an answer had when it was last shown.
          className={isLast ? 'min-w-0' : 'min-w-0 [contain-intrinsic-size:auto_800px] [content-visibility:auto]'}
        >
          {turn.run.toolsFallback && (
            <p className="mb-2 text-xs text-neutral-600 italic dark:text-neutral-400">{t('toolsFallback')}</p>
          )}
          {turn.run.replay && <ReplayLabel id={`replay-of-${turn.run.runId}`} replay={turn.run.replay} />}
          {turn.run.agent && (
            <p data-agent-name className="mb-1 flex items-center gap-2 text-sm font-semibold">
              <AgentAvatar avatar={turn.run.agent.avatar} />
              {turn.run.agent.name}
            </p>
          )}
          <ToolDecisions.Provider value={runningHere ? decide : undefined}>
            <RunView
              run={turn.run}
              address={address}
              onRetry={() => anew(() => chat.retry(turn.turnId))}
              onContinue={
                // A continuation replays the run's iterations: the kinds whose runs can be replayed.
                isLast && !running && (turn.run.kind === 'fncall' || turn.run.kind === 'assistant')
                  ? () => anew(() => chat.continueRun(turn.turnId, runId))
                  : undefined
              }
            />
          </ToolDecisions.Provider>
          {turn.run.status !== 'streaming' && !pending && (
            <div className="mt-2 flex flex-wrap gap-x-2 gap-y-1 text-xs">
              {answer && <CopyButton text={answer} />}
              {/* A failed run has its Retry on the error itself: one way to try again, not two. */}
              {isLast && !running && turn.run.status !== 'error' && (
                <button
                  type="button"
                  onClick={() => anew(() => chat.regenerate(turn.turnId))}
                  className="rounded px-2 py-1 text-neutral-700 hover:bg-neutral-200 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:text-neutral-300 dark:hover:bg-neutral-800"
                >
                  {t('regenerate')}
                </button>
              )}
              <InspectRunButton runId={turn.run.runId} />
              {isLast && !running && turn.run.llmCalls > 0 && (
                <ReplayRunButton runId={turn.run.runId} iterations={turn.run.llmCalls} />
              )}
              {turn.runCount > 1 && !running && <CompareRunsButton turnId={turn.turnId} />}
              {turn.runCount > 1 && <AnswerSwitcher turn={turn} disabled={running} />}
              {turn.run.model && (
                <span data-testid="turn-model" className="px-2 py-1 text-neutral-600 dark:text-neutral-400">
                  {t.rich('modelOnConnection', {
                    model: turn.run.model,
                    connection: turn.run.connection ? connectionName(turn.run.connection) : '',
                    name: (chunks) => <span className="font-mono">{chunks}</span>,
                    on: (chunks) => (turn.run?.connection ? chunks : null),
                  })}
                </span>
              )}
            </div>
          )}
        </article>
      )}
    </>
  );
});

/** ‹ 2 / 3 ›: the turn's answers (regenerated, replayed), each one reachable; the conversation goes on from the
 *  latest. */
export function AnswerSwitcher({ turn, disabled }: { turn: TurnState; disabled: boolean }) {
  const t = useTranslations('turn');
  const n = turn.shown ?? turn.runCount;
  const show = (to: number) => void useChat.getState().showAnswer(turn.turnId, to);
  const arrow =
    'rounded px-1.5 py-1 text-neutral-700 hover:bg-neutral-200 disabled:opacity-40 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:text-neutral-300 dark:hover:bg-neutral-800';
  return (
    <span role="group" aria-label={t('answerOf', { n, count: turn.runCount })} className="flex items-center">
      <button
        type="button"
        aria-label={t('previousAnswer')}
        disabled={disabled || n <= 1}
        onClick={() => show(n - 1)}
        className={arrow}
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="h-3.5 w-3.5" fill="currentColor">
          <path d="M12.7 4.3a1 1 0 0 1 0 1.4L8.4 10l4.3 4.3a1 1 0 0 1-1.4 1.4l-5-5a1 1 0 0 1 0-1.4l5-5a1 1 0 0 1 1.4 0Z" />
        </svg>
      </button>
      <span className="px-1 text-neutral-600 tabular-nums dark:text-neutral-400">
        {t('answerShort', { n, count: turn.runCount })}
      </span>
      <button
        type="button"
        aria-label={t('nextAnswer')}
        disabled={disabled || n >= turn.runCount}
        onClick={() => show(n + 1)}
        className={arrow}
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="h-3.5 w-3.5" fill="currentColor">
          <path d="M7.3 15.7a1 1 0 0 1 0-1.4l4.3-4.3-4.3-4.3a1 1 0 0 1 1.4-1.4l5 5a1 1 0 0 1 0 1.4l-5 5a1 1 0 0 1-1.4 0Z" />
        </svg>
      </button>
      {n < turn.runCount && (
        <span className="px-2 py-1 text-neutral-600 italic dark:text-neutral-400">
          {t('earlierAnswer', { count: turn.runCount })}
        </span>
      )}
    </span>
  );
}

function CopyButton({ text }: { text: string }) {
  const t = useTranslations('turn');
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        });
      }}
      className="rounded px-2 py-1 text-neutral-700 hover:bg-neutral-200 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:text-neutral-300 dark:hover:bg-neutral-800"
    >
      {copied ? t('copied') : t('copyAnswer')}
    </button>
  );
}
