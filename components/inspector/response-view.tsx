'use client';
import { useMemo } from 'react';
import type { Iteration } from '../../lib/inspect/model';
import { FORMAT_NAMES, parseSegments, type SegmentKind } from '../../lib/inspect/parse-view';
import { PRE, SECTION_TITLE } from './styles';

const MARK: Record<SegmentKind, string> = {
  text: '',
  think: 'bg-neutral-200 text-neutral-700 dark:bg-neutral-800 dark:text-neutral-300',
  call: 'bg-emerald-100 text-emerald-950 outline outline-1 outline-emerald-500 dark:bg-emerald-950 dark:text-emerald-100',
  thought: 'bg-amber-50 dark:bg-amber-950',
  answer: 'bg-blue-100 dark:bg-blue-950',
  observation: 'bg-neutral-200 dark:bg-neutral-800',
};
const SR: Record<SegmentKind, string> = {
  text: '',
  think: 'think block',
  call: 'tool call',
  thought: 'thought',
  answer: 'final answer',
  observation: 'observation',
};

/** The model's raw output for one call, with what the function-call format extracted marked in it. */
export function ResponseView({ iteration }: { iteration: Iteration }) {
  const r = iteration.response;
  const segments = useMemo(() => parseSegments(r.content, iteration.format), [r.content, iteration.format]);
  return (
    <section aria-label="Response" className="space-y-3">
      <h4 className="text-sm font-semibold">Raw response</h4>
      <p className="text-xs text-neutral-700 dark:text-neutral-300">
        Tool calls read from: <strong>{FORMAT_NAMES[iteration.format]}</strong>
        {iteration.finishReason && (
          <>
            {' '}
            · finish reason <span className="font-mono">{iteration.finishReason}</span>
          </>
        )}
        {r.differsFromShown && ' · the raw text differs from what the chat showed'}
      </p>
      {r.separateReasoning && (
        <div>
          <h5 className={SECTION_TITLE}>Reasoning (sent apart as reasoning_content)</h5>
          <pre className={PRE}>{r.separateReasoning}</pre>
        </div>
      )}
      <div>
        <h5 className={SECTION_TITLE}>Content, with the parsed parts marked</h5>
        {r.content ? (
          <pre className={PRE} tabIndex={0} aria-label="Raw content">
            {segments.map((s, i) =>
              s.kind === 'text' ? (
                <span key={i}>{s.text}</span>
              ) : (
                <mark key={i} className={`rounded-sm ${MARK[s.kind]}`}>
                  <span className="sr-only">[{SR[s.kind]}: </span>
                  {s.text}
                  <span className="sr-only">]</span>
                </mark>
              ),
            )}
          </pre>
        ) : (
          <p className="text-xs text-neutral-600 italic dark:text-neutral-400">(no text content)</p>
        )}
      </div>
      {r.toolCalls.length > 0 && (
        <div>
          <h5 className={SECTION_TITLE}>Native tool_calls</h5>
          <ul className="space-y-1 text-xs">
            {r.toolCalls.map((c) => (
              <li key={c.id}>
                <span className="font-mono font-semibold">{c.name}</span>{' '}
                <span className="font-mono text-neutral-600 dark:text-neutral-400">({c.id})</span>
                <pre className={PRE}>{c.arguments}</pre>
              </li>
            ))}
          </ul>
        </div>
      )}
      {iteration.parseErrors.length > 0 && (
        <div className="rounded-md border border-red-300 bg-red-50 p-2 text-xs text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
          <h5 className="font-semibold">What failed to parse</h5>
          <ul className="list-disc pl-5">
            {iteration.parseErrors.map((e, i) => (
              <li key={i}>{e}</li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
