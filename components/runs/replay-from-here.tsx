'use client';
import { useTranslations } from 'next-intl';
import { useEffect, useId, useRef, useState } from 'react';
import { replaySource } from '@/app/actions/replay';
import { failureText, useCodedText, type CodedText } from '@/components/chat/server-text';
import type { ReplaySource } from '@/lib/replay/plan';
import { useChat } from '@/components/chat/store';
import type { ReplayRequest } from '@/lib/replay/plan';
import { generationInputBounds, generationProblems } from '@/lib/protocol/generation-settings';
import { useGenerationProblemText } from '@/components/chat/generation-problems';
import { ACTION_BUTTON, FIELD, Modal, PRIMARY_BUTTON } from './modal';

// Their min, max and step are the shared schema's (a seed is any whole number).
const PARAMS = [
  { key: 'temperature', ...generationInputBounds('temperature') },
  { key: 'top_p', ...generationInputBounds('top_p') },
  { key: 'max_tokens', ...generationInputBounds('max_tokens') },
  { key: 'seed', step: 1 },
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
  const t = useTranslations('runs');
  const tSettings = useTranslations('settings');
  const coded = useCodedText('errors');
  const source = useReplaySource(runId);
  const [model, setModel] = useState('');
  const [params, setParams] = useState<Record<string, number>>({});
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [error, setError] = useState<string>();
  // The parameters the error is about (out of their ranges): marked invalid, and the focus goes to the first.
  const [bad, setBad] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const { say } = useGenerationProblemText();
  const errorId = useId();
  const form = useRef<HTMLFormElement>(null);
  if (source.error) return <p role="alert">{coded(source.error)}</p>;
  if (!source.value) return <p role="status">{t('loadingRun')}</p>;
  const results = source.value.toolResults.filter((r) => r.iteration < iteration);
  const key = (r: { iteration: number; functionId: string }) => `${r.iteration}/${r.functionId}`;

  async function submit() {
    // Every value out of its range, said at once in the page's words (the server would name only the first).
    const problems = generationProblems(params);
    setBad(problems.map((p) => p.key));
    if (problems.length) {
      setError(problems.map(say).join(' '));
      form.current?.querySelector<HTMLInputElement>(`input[name="${problems[0]!.key}"]`)?.focus();
      return;
    }
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
    if (useChat.getState().runningRunId) return setError(t('waitForRun'));
    setBusy(true);
    const refused = await useChat.getState().replay(runId, req);
    setBusy(false);
    if (refused) setError(coded(refused));
    else onStarted?.();
  }

  return (
    <form
      ref={form}
      // The checks are the page's own, so that every bad value is said, in the page's language.
      noValidate
      aria-label={t('replayFromHere')}
      className="space-y-3 text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <p>{t('replayExplain', { n: iteration })}</p>
      <label className="flex flex-col gap-1">
        <span className="font-medium">{t('model')}</span>
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
            <span className="font-medium">{p.key === 'seed' ? t('seed') : tSettings(p.key)}</span>
            <input
              type="number"
              name={p.key}
              min={'min' in p ? p.min : undefined}
              max={'max' in p ? p.max : undefined}
              step={p.step}
              className={FIELD}
              placeholder={t('asSet')}
              value={params[p.key] ?? ''}
              aria-invalid={bad.includes(p.key) || undefined}
              aria-describedby={bad.includes(p.key) ? errorId : undefined}
              onChange={(e) => {
                if (bad.includes(p.key)) setBad(bad.filter((k) => k !== p.key));
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
          <legend className="font-medium">{t('toolResultsBefore', { n: iteration })}</legend>
          {results.map((r) => (
            <label key={key(r)} className="flex flex-col gap-1">
              <span>{t('resultOf', { name: r.name, n: r.iteration })}</span>
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
        <p id={errorId} role="alert" className="text-red-800 dark:text-red-200">
          {error}
        </p>
      )}
      <button type="submit" className={PRIMARY_BUTTON} disabled={busy}>
        {t('replay')}
      </button>
    </form>
  );
}

function useReplaySource(runId: string): { value?: ReplaySource; error?: CodedText } {
  const [state, setState] = useState<{ value?: ReplaySource; error?: CodedText }>({});
  useEffect(() => {
    let current = true;
    void replaySource(runId).then((r) => {
      if (current) setState(r.ok ? { value: r.value } : { error: failureText(r) });
    });
    return () => {
      current = false;
    };
  }, [runId]);
  return state;
}

/** The turn's "Replay run" button: pick the iteration to start from, then the "Replay from here" form. */
export function ReplayRunButton({ runId, iterations }: { runId: string; iterations: number }) {
  const t = useTranslations('runs');
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
        {t('replayRun')}
      </button>
      {open && (
        <Modal title={t('replayRun')} onClose={() => setOpen(false)}>
          <label className="mb-3 flex items-center gap-2 text-sm">
            <span className="font-medium">{t('fromIteration')}</span>
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
