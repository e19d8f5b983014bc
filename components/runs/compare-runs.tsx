'use client';
import { useEffect, useState } from 'react';
import { compareTurnRuns, listTurnRuns } from '@/app/actions/replay';
import type { RunChoice, RunComparison } from '@/lib/compare/runs';
import { DiffColumns } from './diff-text';
import { ACTION_BUTTON, FIELD, Modal } from './modal';

const SECTION = 'mt-4 mb-1 text-sm font-semibold';

function runLabel(r: RunChoice): string {
  const replay = r.replayOf ? `, replay of run ${r.replayOf.number} from iteration ${r.replayOf.fromIteration}` : '';
  return `Run ${r.number} (${r.status}, ${r.model}${replay})`;
}

/** The "Compare runs" button of a turn with two or more runs, and its dialog. */
export function CompareRunsButton({ turnId }: { turnId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={ACTION_BUTTON} onClick={() => setOpen(true)}>
        Compare runs
      </button>
      {open && (
        <Modal title="Compare runs" onClose={() => setOpen(false)}>
          <CompareRuns turnId={turnId} />
        </Modal>
      )}
    </>
  );
}

/** Pick two runs of a turn; see prompts, tool calls, arguments, results and answers side by side. */
export function CompareRuns({ turnId }: { turnId: string }) {
  const [runs, setRuns] = useState<RunChoice[]>();
  const [pick, setPick] = useState<[string, string]>();
  const [result, setResult] = useState<RunComparison>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    void listTurnRuns(turnId).then((r) => {
      if (!r.ok) return setError(r.error);
      setRuns(r.value);
      if (r.value.length >= 2) setPick([r.value.at(-2)!.id, r.value.at(-1)!.id]);
    });
  }, [turnId]);

  useEffect(() => {
    if (!pick) return;
    let current = true;
    void compareTurnRuns(pick[0], pick[1]).then((r) => {
      if (!current) return;
      if (r.ok) {
        setResult(r.value);
        setError(undefined);
      } else setError(r.error);
    });
    return () => {
      current = false;
    };
  }, [pick]);

  if (error) return <p role="alert">{error}</p>;
  if (!runs || !pick) return <p role="status">Loading the runs…</p>;
  const select = (side: 0 | 1, label: string) => (
    <label className="flex flex-col gap-1 text-sm">
      <span className="font-medium">{label}</span>
      <select
        className={FIELD}
        value={pick[side]}
        onChange={(e) => setPick(side === 0 ? [e.target.value, pick[1]] : [pick[0], e.target.value])}
      >
        {runs.map((r) => (
          <option key={r.id} value={r.id}>
            {runLabel(r)}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <div>
      <div className="grid grid-cols-2 gap-2">
        {select(0, 'First run')}
        {select(1, 'Second run')}
      </div>
      {result && <Comparison c={result} />}
    </div>
  );
}

function Comparison({ c }: { c: RunComparison }) {
  const same =
    !c.answer.changed &&
    c.toolSequence.every((s) => s.op === 'same') &&
    c.toolCalls.every((p) => !p.arguments.changed && !p.result.changed) &&
    c.prompts.every((p) => !p.diff.changed);
  return (
    <div>
      {same && (
        <p className="mt-3 text-sm">These runs sent the same prompts, made the same calls and gave the same answer.</p>
      )}
      <section aria-label="Answers">
        <h3 className={SECTION}>Answer {c.answer.changed ? '(differs)' : '(same)'}</h3>
        <DiffColumns diff={c.answer} what="Answer" />
      </section>
      <section aria-label="Tool calls">
        <h3 className={SECTION}>Tool calls</h3>
        <p className="text-xs">
          Sequence:{' '}
          {c.toolSequence.length === 0
            ? 'none in either run'
            : c.toolSequence.map((s, i) => (
                <span key={i} className="mr-1 font-mono">
                  {s.op === 'del' ? <del>{s.name}</del> : s.op === 'add' ? <ins>{s.name}</ins> : s.name}
                </span>
              ))}
        </p>
        {c.toolCalls.map((p) => (
          <div key={p.index} className="mt-2">
            <h4 className="text-xs font-semibold">
              Call {p.index + 1}: {p.a?.name ?? '—'} / {p.b?.name ?? '—'}
              {(p.arguments.changed || p.result.changed || p.name.changed) && ' (differs)'}
            </h4>
            <div className="text-xs">Arguments</div>
            <DiffColumns diff={p.arguments} what={`Arguments of call ${p.index + 1}`} />
            <div className="text-xs">Result</div>
            <DiffColumns diff={p.result} what={`Result of call ${p.index + 1}`} />
          </div>
        ))}
      </section>
      <section aria-label="Prompts">
        <h3 className={SECTION}>Prompts (the exact request of each iteration)</h3>
        {c.prompts.map((p) => (
          <details key={p.iteration} open={p.diff.changed} className="mt-2">
            <summary className="cursor-pointer text-xs font-semibold">
              Iteration {p.iteration}{' '}
              {!p.a || !p.b ? `(only in the ${p.a ? 'first' : 'second'} run)` : p.diff.changed ? '(differs)' : '(same)'}
            </summary>
            <DiffColumns diff={p.diff} what={`Prompt of iteration ${p.iteration}`} />
          </details>
        ))}
      </section>
    </div>
  );
}
