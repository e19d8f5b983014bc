'use client';
import type { RetrievalStep } from '../../lib/inspect/model';
import { formatMs } from '../../lib/inspect/timeline';
import { CARD } from './styles';

/** A retrieval step: the query, every candidate chunk with its score and token cost, and which went into the prompt. */
export function RetrievalView({ steps }: { steps: RetrievalStep[] }) {
  if (!steps.length) return null;
  return (
    <section aria-label="Retrieval" className="space-y-2">
      <h4 className="text-sm font-semibold">Retrieval</h4>
      {steps.map((s, i) => (
        <div key={i} className={`${CARD} text-xs`}>
          <p>
            Query <q className="font-mono">{s.query}</q> (
            {s.by === 'tool' ? 'by the retrieval tool' : 'before the call'}, {formatMs(s.durationMs)}):{' '}
            {s.candidates.filter((c) => c.used).length} of {s.candidates.length} chunks used, {s.usedTokens} of{' '}
            {s.budgetTokens} tokens
          </p>
          <div className="mt-1 overflow-x-auto">
            <table className="w-full text-left">
              <thead>
                <tr className="text-neutral-600 dark:text-neutral-400">
                  <th className="pr-2 font-medium">Used</th>
                  <th className="pr-2 font-medium">Score</th>
                  <th className="pr-2 font-medium">Tokens</th>
                  <th className="pr-2 font-medium">Source</th>
                  <th className="font-medium">Text</th>
                </tr>
              </thead>
              <tbody>
                {s.candidates.map((c) => (
                  <tr key={c.chunkId} className={c.used ? '' : 'text-neutral-500 dark:text-neutral-500'}>
                    <td className="pr-2">{c.used ? 'yes' : 'no'}</td>
                    <td className="pr-2 font-mono">{c.score.toFixed(3)}</td>
                    <td className="pr-2 font-mono">{c.tokens}</td>
                    <td className="pr-2">
                      {c.fileName}
                      {c.page !== undefined && `, p. ${c.page}`}
                    </td>
                    <td className="max-w-md truncate" title={c.text}>
                      {c.text}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      ))}
    </section>
  );
}
