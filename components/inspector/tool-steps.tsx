'use client';
import type { ToolStep } from '../../lib/inspect/model';
import { formatMs } from '../../lib/inspect/timeline';
import { ToolResult } from '../chat/tool-result';
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
  if (!tools.length) return null;
  return (
    <section aria-label="Tool calls" className="space-y-2">
      <h4 className="text-sm font-semibold">Tool calls</h4>
      {tools.map((t, i) => {
        const invalid = t.error?.kind === 'invalid-arguments';
        return (
          <div key={`${t.functionId}-${i}`} className={CARD}>
            <div className="mb-1 flex flex-wrap items-baseline gap-2 text-xs">
              <span className="font-mono font-semibold">{t.name}</span>
              <span
                className={
                  t.ok === false
                    ? 'text-red-700 dark:text-red-300'
                    : t.ok
                      ? 'text-emerald-700 dark:text-emerald-300'
                      : 'text-neutral-600'
                }
              >
                {t.ok === undefined ? 'no result' : t.ok ? 'ok' : `failed (${t.error?.kind ?? 'error'})`}
              </span>
              {t.durationMs !== undefined && <span>{formatMs(t.durationMs)}</span>}
              <span className="font-mono text-neutral-600 dark:text-neutral-400">id {t.functionId}</span>
            </div>
            <div className="grid gap-2 md:grid-cols-2">
              <div className="min-w-0">
                <h5 className={SECTION_TITLE}>Arguments the model sent</h5>
                <pre className={PRE}>{t.arguments ? prettyArgs(t.arguments) : '(none recorded)'}</pre>
              </div>
              <div className="min-w-0">
                {invalid ? (
                  <div className="rounded-md border border-red-300 bg-red-50 p-2 text-xs text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
                    <h5 className="font-semibold">Validation error</h5>
                    <p className="break-words whitespace-pre-wrap">{t.error!.message}</p>
                  </div>
                ) : (
                  t.error && (
                    <p className="mb-1 text-xs text-red-800 dark:text-red-200">
                      {t.error.type}: {t.error.message}
                    </p>
                  )
                )}
                <h5 className={`${SECTION_TITLE} mt-1`}>Result given to the model</h5>
                {t.content !== undefined ? <ToolResult result={t.content} /> : <p className="text-xs">(none)</p>}
              </div>
            </div>
          </div>
        );
      })}
    </section>
  );
}
