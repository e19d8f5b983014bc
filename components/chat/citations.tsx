'use client';

import { memo, useId, useState } from 'react';
import type { RetrievalCandidate } from '../../lib/protocol/events';
import { passageLabel } from './retrieval-card';

interface Source {
  label: string;
  passages: RetrievalCandidate[];
}

/** One source per document page, in the order the passages were used. */
export function sourcesOf(passages: readonly RetrievalCandidate[]): Source[] {
  const byLabel = new Map<string, Source>();
  for (const p of passages) {
    const label = passageLabel(p);
    let source = byLabel.get(label);
    if (!source) byLabel.set(label, (source = { label, passages: [] }));
    source.passages.push(p);
  }
  return [...byLabel.values()];
}

function SourceItem({ source }: { source: Source }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const count = source.passages.length;
  return (
    <li>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
        className="rounded-full border border-neutral-300 px-2.5 py-0.5 text-xs text-neutral-800 hover:bg-neutral-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:border-neutral-700 dark:text-neutral-200 dark:hover:bg-neutral-900"
      >
        {source.label}
        {count > 1 && <span className="text-neutral-600 dark:text-neutral-400"> · {count} passages</span>}
      </button>
      <div
        id={panelId}
        hidden={!open}
        className="mt-1 space-y-2 rounded-md border border-neutral-200 bg-neutral-50 p-2 dark:border-neutral-800 dark:bg-neutral-900"
      >
        {open &&
          source.passages.map((p) => (
            <pre key={p.chunkId} className="max-h-64 overflow-auto font-mono text-xs whitespace-pre-wrap break-words">
              {p.text}
            </pre>
          ))}
      </div>
    </li>
  );
}

/** The document and page of the passages the answer drew on; opening one shows its passages. */
export const Citations = memo(function Citations({ passages }: { passages: RetrievalCandidate[] }) {
  if (!passages.length) return null;
  return (
    <section aria-label="Sources" className="mt-3">
      <h3 className="mb-1 text-xs font-semibold tracking-wide text-neutral-700 uppercase dark:text-neutral-300">
        Sources
      </h3>
      <ul className="flex flex-col items-start gap-1">
        {sourcesOf(passages).map((s) => (
          <SourceItem key={s.label} source={s} />
        ))}
      </ul>
    </section>
  );
});
