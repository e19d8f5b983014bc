'use client';
import { useEffect, useState } from 'react';
import { replaySource } from '@/app/actions/replay';
import type { ReplaySource } from '@/lib/replay/plan';
import { useChat } from '@/components/chat/store';
import type { ReplayRequest } from '@/lib/replay/plan';
import { ACTION_BUTTON, FIELD, Modal, PRIMARY_BUTTON } from './modal';

const PARAMS = [
  { key: 'temperature', label: 'Temperature', step: 0.1 },
  { key: 'top_p', label: 'Top p', step: 0.05 },
  { key: 'max_tokens', label: 'Max tokens', step: 1 },
  { key: 'seed', label: 'Seed', step: 1 },
] as const;

/**
 * "Replay from here": re-runs a stored run from `iteration` as a new run of its turn, optionally with another model,
 * other parameters, or edited results of the tool calls made before that iteration. Self-contained (takes a run id
 * and an iteration) so the run inspector can mount it beside any iteration.
 */
export function ReplayFromHere({
  runId,
  iteration,
  onStarted,
}: {
  runId: string;
  iteration: number;
  onStarted?: () => void;
}) {
  const source = useReplaySource(runId);
  const [model, setModel] = useState('');
  const [params, setParams] = useState<Record<string, number>>({});
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  if (source.error) return <p role="alert">{source.error}</p>;
  if (!source.value) return <p role="status">Loading the run…</p>;
  const results = source.value.toolResults.filter((r) => r.iteration < iteration);
  const key = (r: { iteration: number; functionId: string }) => `${r.iteration}/${r.functionId}`;

  async function submit() {
    const req: ReplayRequest = { fromIteration: iteration };
    if (model.trim()) req.model = model.trim();
    if (Object.keys(params).length) req.generateCfg = params;
    const changed = results.filter((r) => edits[key(r)] !== undefined && edits[key(r)] !== r.content);
    if (changed.length) {
      req.toolResultEdits = changed.map((r) => ({
        iteration: r.iteration,
        functionId: r.functionId,
        content: edits[key(r)]!,
      }));
    }
    setBusy(true);
    const refused = await useChat.getState().replay(runId, req);
    setBusy(false);
    if (refused) setError(refused);
    else onStarted?.();
  }

  return (
    <form
      aria-label="Replay from here"
      className="space-y-3 text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <p>
        Runs iteration {iteration} onward again as a new answer to this message (this run stays; later messages are
        removed). Iterations before it are kept as they were, with your edits.
      </p>
      <label className="flex flex-col gap-1">
        <span className="font-medium">Model</span>
        <input
          className={FIELD}
          value={model}
          placeholder={source.value.model}
          onChange={(e) => setModel(e.target.value)}
        />
      </label>
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        {PARAMS.map((p) => (
          <label key={p.key} className="flex flex-col gap-1">
            <span className="font-medium">{p.label}</span>
            <input
              type="number"
              step={p.step}
              className={FIELD}
              placeholder="as set"
              value={params[p.key] ?? ''}
              onChange={(e) => {
                const next = { ...params };
                if (Number.isFinite(e.target.valueAsNumber)) next[p.key] = e.target.valueAsNumber;
                else delete next[p.key];
                setParams(next);
              }}
            />
          </label>
        ))}
      </div>
      {results.length > 0 && (
        <fieldset className="space-y-2">
          <legend className="font-medium">Tool results before iteration {iteration}</legend>
          {results.map((r) => (
            <label key={key(r)} className="flex flex-col gap-1">
              <span>
                Result of {r.name} (iteration {r.iteration})
              </span>
              <textarea
                className={`${FIELD} font-mono text-xs`}
                rows={Math.min(8, Math.max(2, r.content.split('\n').length))}
                value={edits[key(r)] ?? r.content}
                onChange={(e) => setEdits({ ...edits, [key(r)]: e.target.value })}
              />
            </label>
          ))}
        </fieldset>
      )}
      {error && (
        <p role="alert" className="text-red-800 dark:text-red-200">
          {error}
        </p>
      )}
      <button type="submit" className={PRIMARY_BUTTON} disabled={busy}>
        Replay
      </button>
    </form>
  );
}

function useReplaySource(runId: string): { value?: ReplaySource; error?: string } {
  const [state, setState] = useState<{ value?: ReplaySource; error?: string }>({});
  useEffect(() => {
    let current = true;
    void replaySource(runId).then((r) => {
      if (current) setState(r.ok ? { value: r.value } : { error: r.error });
    });
    return () => {
      current = false;
    };
  }, [runId]);
  return state;
}

/** The turn's "Replay run" button: pick the iteration to start from, then the "Replay from here" form. */
export function ReplayRunButton({ runId, iterations }: { runId: string; iterations: number }) {
  const [open, setOpen] = useState(false);
  const [from, setFrom] = useState(iterations);
  return (
    <>
      <button
        type="button"
        className={ACTION_BUTTON}
        onClick={() => {
          setFrom(iterations);
          setOpen(true);
        }}
      >
        Replay run
      </button>
      {open && (
        <Modal title="Replay run" onClose={() => setOpen(false)}>
          <label className="mb-3 flex items-center gap-2 text-sm">
            <span className="font-medium">From iteration</span>
            <select className={FIELD} value={from} onChange={(e) => setFrom(Number(e.target.value))}>
              {Array.from({ length: iterations }, (_, i) => i + 1).map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </label>
          <ReplayFromHere key={from} runId={runId} iteration={from} onStarted={() => setOpen(false)} />
        </Modal>
      )}
    </>
  );
}
