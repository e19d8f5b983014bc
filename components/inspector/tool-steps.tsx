'use client';
import { useTranslations } from 'next-intl';
import type { ToolStep } from '../../lib/inspect/model';
import { formatPreciseDuration } from '../chat/format';
import { useToolErrorKindText, useToolErrorText } from '../chat/tool-error-text';
import { ToolResult } from '../chat/tool-result';
import { useFormatWords } from '../chat/use-format-words';
import { CARD, PRE, SECTION_TITLE } from './styles';

function prettyArgs(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

/** Each tool the iteration ran: the arguments exactly as the model wrote them beside the result or the error. */
export function ToolSteps({ tools }: { tools: ToolStep[] }) {
  const t = useTranslations('inspector');
  const kindText = useToolErrorKindText();
  // A call the run's end left without a result reads as its card in the chat does.
  const card = useTranslations('toolCard');
  const f = useFormatWords();
  const errorText = useToolErrorText();
  if (!tools.length) return null;
  return (
    <section aria-label={t('toolCalls')} className="space-y-2">
      <h3 className="text-sm font-semibold">{t('toolCalls')}</h3>
      {tools.map((step, i) => {
        const invalid = step.error?.kind === 'invalid-arguments';
        return (
          <div key={`${step.functionId}-${i}`} className={CARD}>
            <div className="mb-1 flex flex-wrap items-baseline gap-2 text-xs">
              <span className="font-mono font-semibold">{step.name}</span>
              <span
                className={
                  step.ok === false || step.unfinished?.kind === 'not-run'
                    ? 'text-red-700 dark:text-red-300'
                    : step.ok
                      ? 'text-emerald-700 dark:text-emerald-300'
                      : step.unfinished
                        ? 'text-orange-800 dark:text-orange-200'
                        : 'text-neutral-600'
                }
              >
                {step.unfinished
                  ? step.unfinished.kind === 'interrupted'
                    ? card('status.interrupted')
                    : card('notRun')
                  : step.ok === undefined
                    ? t('noResult')
                    : step.ok
                      ? t('ok')
                      : t('failed', { kind: kindText(step.error?.kind) })}
              </span>
              {step.durationMs !== undefined && <span>{formatPreciseDuration(step.durationMs, f)}</span>}
              <span className="font-mono text-neutral-600 dark:text-neutral-400">
                {t('callId', { id: step.functionId })}
              </span>
            </div>
            <div className="grid gap-2 md:grid-cols-2">
              <div className="min-w-0">
                <h4 className={SECTION_TITLE}>{t('argumentsSent')}</h4>
                <pre className={PRE}>{step.arguments ? prettyArgs(step.arguments) : t('noneRecorded')}</pre>
              </div>
              <div className="min-w-0">
                {invalid ? (
                  <div className="rounded-md border border-red-300 bg-red-50 p-2 text-xs text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
                    <h4 className="font-semibold">{t('validationError')}</h4>
                    <p className="break-words whitespace-pre-wrap">{errorText(step.error, step.error!.message)}</p>
                  </div>
                ) : (
                  step.error && (
                    <p className="mb-1 text-xs text-red-800 dark:text-red-200">
                      {errorText(step.error, `${step.error.type}: ${step.error.message}`)}
                    </p>
                  )
                )}
                <h4 className={`${SECTION_TITLE} mt-1`}>{t('resultGiven')}</h4>
                {step.content !== undefined ? (
                  <ToolResult result={step.content} />
                ) : (
                  <p className="text-xs">{t('none')}</p>
                )}
                {step.unfinished && (
                  <p className="mt-1 text-xs text-orange-900 dark:text-orange-100">
                    {card(`unfinished.${step.unfinished.type}`)}
                  </p>
                )}
              </div>
            </div>
          </div>
        );
      })}
    </section>
  );
}
