'use client';
import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { compareTurnRuns, listTurnRuns } from '@/app/actions/replay';
import type { RunChoice, RunComparison } from '@/lib/compare/runs';
import type en from '@/lib/i18n/messages/en.json';
import { DiffColumns } from './diff-text';
import { failureText, useCodedText } from '../chat/server-text';
import { ACTION_BUTTON, FIELD, Modal } from './modal';

const SECTION = 'mt-4 mb-1 text-sm font-semibold';

type RunStatusKey = keyof (typeof en)['runs']['status'];

/** "Run 2 (answered, qwen3-8b)", "…, replay of run 1 from iteration 2)". */
function useRunLabel(): (r: RunChoice) => string {
  const t = useTranslations('runs');
  return (r) => {
    const status = r.status in STATUS_KEYS ? t(`status.${r.status as RunStatusKey}`) : r.status;
    return r.replayOf
      ? t('runLabelReplay', {
          n: r.number,
          status,
          model: r.model,
          of: r.replayOf.number,
          from: r.replayOf.fromIteration,
        })
      : t('runLabel', { n: r.number, status, model: r.model });
  };
}
const STATUS_KEYS: Record<RunStatusKey, true> = {
  running: true,
  answered: true,
  'max-iterations': true,
  aborted: true,
  error: true,
  interrupted: true,
};

/** The "Compare runs" button of a turn with two or more runs, and its dialog. */
export function CompareRunsButton({ turnId }: { turnId: string }) {
  const t = useTranslations('runs');
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={ACTION_BUTTON} onClick={() => setOpen(true)}>
        {t('compareRuns')}
      </button>
      {open && (
        <Modal title={t('compareRuns')} onClose={() => setOpen(false)}>
          <CompareRuns turnId={turnId} />
        </Modal>
      )}
    </>
  );
}

/** Pick two runs of a turn; see prompts, tool calls, arguments, results and answers side by side. */
export function CompareRuns({ turnId }: { turnId: string }) {
  const t = useTranslations('runs');
  const coded = useCodedText('errors');
  const runLabel = useRunLabel();
  const [runs, setRuns] = useState<RunChoice[]>();
  const [pick, setPick] = useState<[string, string]>();
  const [result, setResult] = useState<RunComparison>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    void listTurnRuns(turnId).then((r) => {
      if (!r.ok) return setError(coded(failureText(r)));
      setRuns(r.value);
      if (r.value.length >= 2) setPick([r.value.at(-2)!.id, r.value.at(-1)!.id]);
    });
  }, [turnId, coded]);

  useEffect(() => {
    if (!pick) return;
    let current = true;
    void compareTurnRuns(pick[0], pick[1]).then((r) => {
      if (!current) return;
      if (r.ok) {
        setResult(r.value);
        setError(undefined);
      } else setError(coded(failureText(r)));
    });
    return () => {
      current = false;
    };
  }, [pick, coded]);

  if (error) return <p role="alert">{error}</p>;
  if (!runs || !pick) return <p role="status">{t('loadingRuns')}</p>;
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
        {select(0, t('firstRun'))}
        {select(1, t('secondRun'))}
      </div>
      {result && <Comparison c={result} />}
    </div>
  );
}

function Comparison({ c }: { c: RunComparison }) {
  const t = useTranslations('runs');
  const differs = (changed: boolean) => (changed ? t('differsTag') : t('sameTag'));
  // A child run's call is named with its agent.
  const callName = (call?: { name: string; agent?: string }) =>
    !call ? '—' : call.agent ? t('childCall', { agent: call.agent, name: call.name }) : call.name;
  const same =
    !c.answer.changed &&
    c.toolSequence.every((s) => s.op === 'same') &&
    c.toolCalls.every((p) => !p.arguments.changed && !p.result.changed) &&
    c.prompts.every((p) => !p.diff.changed);
  return (
    <div>
      {same && <p className="mt-3 text-sm">{t('same')}</p>}
      <section aria-label={t('answers')}>
        <h3 className={SECTION}>
          {t('answer')} {differs(c.answer.changed)}
        </h3>
        <DiffColumns diff={c.answer} what={t('answer')} />
      </section>
      <section aria-label={t('toolCalls')}>
        <h3 className={SECTION}>{t('toolCalls')}</h3>
        <p className="text-xs">
          {t('sequence')}{' '}
          {c.toolSequence.length === 0
            ? t('noneInEither')
            : c.toolSequence.map((s, i) => (
                <span key={i} className="mr-1 font-mono">
                  {s.op === 'del' ? <del>{s.name}</del> : s.op === 'add' ? <ins>{s.name}</ins> : s.name}
                </span>
              ))}
        </p>
        {c.toolCalls.map((p) => (
          <div key={p.index} className="mt-2">
            <h4 className="text-xs font-semibold">
              {t('call', { n: p.index + 1, a: callName(p.a), b: callName(p.b) })}
              {(p.arguments.changed || p.result.changed || p.name.changed) && <> {t('differsTag')}</>}
            </h4>
            <div className="text-xs">{t('arguments')}</div>
            <DiffColumns diff={p.arguments} what={t('argumentsOfCall', { n: p.index + 1 })} />
            <div className="text-xs">{t('result')}</div>
            <DiffColumns diff={p.result} what={t('resultOfCall', { n: p.index + 1 })} />
          </div>
        ))}
      </section>
      <section aria-label={t('prompts')}>
        <h3 className={SECTION}>{t('promptsTitle')}</h3>
        {c.prompts.map((p) => (
          <details key={`${p.agent ?? ''}#${p.iteration}`} open={p.diff.changed} className="mt-2">
            <summary className="cursor-pointer text-xs font-semibold">
              {p.agent ? t('childIteration', { agent: p.agent, n: p.iteration }) : t('iteration', { n: p.iteration })}{' '}
              {!p.a || !p.b ? (p.a ? t('onlyInFirst') : t('onlyInSecond')) : differs(p.diff.changed)}
            </summary>
            <DiffColumns
              diff={p.diff}
              what={
                p.agent ? t('childPromptOf', { agent: p.agent, n: p.iteration }) : t('promptOf', { n: p.iteration })
              }
            />
          </details>
        ))}
      </section>
    </div>
  );
}
