'use client';
import { useTranslations } from 'next-intl';
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { LlmRequest } from '../../lib/protocol/events';
import type { Iteration } from '../../lib/inspect/model';
import { formatNumber, formatPreciseDuration } from '../chat/format';
import { useRunErrorText } from '../chat/run-error-text';
import { useFormatWords } from '../chat/use-format-words';
import { CallCostText, ContextGaugeView } from './cost-view';
import { RequestView } from './request-view';
import { RawStreamView } from './raw-stream-view';
import { ResponseView } from './response-view';
import { RetrievalView } from './retrieval-view';
import { ToolSteps } from './tool-steps';
import { CARD, PRE, SECTION_TITLE } from './styles';

export type RequestLoader = (iteration: number) => Promise<LlmRequest | null>;

type RequestState =
  { state: 'loading' } | { state: 'ready'; request: LlmRequest | null } | { state: 'error'; error: string };

/** The iteration's request: in the events (an imported file), or fetched on demand (a stored run). */
function useRequest(it: Iteration, load?: RequestLoader): RequestState {
  const [fetched, setFetched] = useState<RequestState>({ state: 'loading' });
  useEffect(() => {
    if (it.request || !load) return;
    let live = true;
    load(it.n).then(
      (request) => live && setFetched({ state: 'ready', request }),
      (e: unknown) => live && setFetched({ state: 'error', error: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
  }, [it, load]);
  if (it.request) return { state: 'ready', request: it.request };
  if (!load) return { state: 'ready', request: null };
  return fetched;
}

/** One model call in full: timing and tokens, truncation, retrieval, the request, the raw response, the tools. */
export function IterationView({
  iteration: it,
  actions,
  loadRequest,
}: {
  iteration: Iteration;
  actions?: ReactNode;
  loadRequest?: RequestLoader;
}) {
  const t = useTranslations('inspector');
  const f = useFormatWords();
  const errorText = useRunErrorText();
  const ms = (value: number) => formatPreciseDuration(value, f);
  const n = (value: number) => formatNumber(value, f.locale);
  const request = useRequest(it, loadRequest);
  const root = useRef<HTMLDivElement>(null);
  // A stored run's request arrives after the view is shown, above the response: what the keyboard focused below it
  // (the raw content, a tool call) would be pushed off screen, so it is kept in view.
  useLayoutEffect(() => {
    const focused = document.activeElement;
    if (focused instanceof HTMLElement && focused !== root.current && root.current?.contains(focused))
      focused.scrollIntoView?.({ block: 'nearest' });
  }, [request.state]);
  return (
    <div ref={root} className="space-y-4">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-neutral-700 dark:text-neutral-300">
        <span>{t('startedAt', { t: ms(it.startT) })}</span>
        {it.ttftMs !== undefined && <span>{t('firstToken', { t: ms(it.ttftMs) })}</span>}
        {it.durationMs !== undefined && <span>{t('callTook', { t: ms(it.durationMs) })}</span>}
        {it.usage ? (
          <span>{t('callTokens', { prompt: n(it.usage.promptTokens), completion: n(it.usage.completionTokens) })}</span>
        ) : (
          <span>{t('tokensUnknown')}</span>
        )}
        <CallCostText cost={it.cost} />
        <ContextGaugeView gauge={it.context} known={Boolean(it.usage)} />
        {actions && <span className="ml-auto flex gap-2">{actions}</span>}
      </div>
      {it.retries.length > 0 && (
        <div className={`${CARD} text-xs`}>
          <h3 className={SECTION_TITLE}>{t('retries')}</h3>
          <ul>
            {it.retries.map((r) => (
              <li key={r.attempt}>
                {t('retry', {
                  attempt: r.attempt,
                  // A coded error in the turn's words (its status inside); an uncoded one as it came, after its status.
                  error: r.error.code
                    ? errorText(r.error)
                    : r.error.status
                      ? `HTTP ${r.error.status}: ${r.error.message}`
                      : r.error.message,
                  delay: ms(r.delayMs),
                })}
              </li>
            ))}
          </ul>
        </div>
      )}
      {it.truncation && (
        <section aria-label={t('truncation')} className={`${CARD} text-xs`}>
          <h3 className="text-sm font-semibold">{t('truncated')}</h3>
          <p>{t('truncatedBody', { kept: n(it.truncation.inputTokens), budget: n(it.truncation.budget) })}</p>
          {it.truncation.notes.length > 0 && (
            <ul className="list-disc pl-5">
              {it.truncation.notes.map((n, i) => (
                <li key={i}>{n}</li>
              ))}
            </ul>
          )}
        </section>
      )}
      <RetrievalView steps={it.retrievals} />
      {request.state === 'ready' && request.request ? (
        <RequestView request={request.request} />
      ) : (
        <p
          role={request.state === 'error' ? 'alert' : undefined}
          className="text-xs text-neutral-600 italic dark:text-neutral-400"
        >
          {request.state === 'loading'
            ? t('loadingRequest')
            : request.state === 'error'
              ? t('requestFailed', { error: request.error })
              : t('requestMissing')}
        </p>
      )}
      <ResponseView iteration={it} />
      {it.rawStream && <RawStreamView stream={it.rawStream} />}
      <ToolSteps tools={it.tools} />
      {it.reactSteps.length > 0 && (
        <section aria-label={t('reactSteps')} className="space-y-1 text-xs">
          <h3 className="text-sm font-semibold">{t('reactStepsTitle')}</h3>
          {it.reactSteps.map((s, i) => (
            <dl key={i} className={`${CARD} grid grid-cols-[auto_1fr] gap-x-3`}>
              {(['thought', 'action', 'actionInput', 'observation', 'finalAnswer'] as const).map(
                (k) =>
                  s[k] !== undefined &&
                  (k !== 'thought' || s[k] !== '') && (
                    <div key={k} className="contents">
                      <dt className="font-semibold">{t(`react.${k}`)}</dt>
                      <dd>
                        <pre className={PRE}>{s[k]}</pre>
                      </dd>
                    </div>
                  ),
              )}
            </dl>
          ))}
        </section>
      )}
    </div>
  );
}
