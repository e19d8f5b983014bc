'use client';
// The trace inspector (README, "Inspecting runs"): a native modal <dialog> named "Run inspector" (focus stays in it,
// Esc closes it, focus goes back to the opener). Only one page of iterations is listed and drawn at a time, and only
// the selected iteration's request is rendered: the request of iteration N holds the whole history before it.
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { loadIterationRequest, loadRunForInspection } from '../../app/actions/inspect';
import { AGENT_KIND_NAMES } from '../../lib/protocol/enums';
import type { LlmRequest } from '../../lib/protocol/events';
import { runExportFileName, type RunExport } from '../../lib/inspect/export';
import { fixtureFileName, runToFixture } from '../../lib/inspect/fixture';
import { foldInspection } from '../../lib/inspect/fold';
import type { InspectedRun, Iteration } from '../../lib/inspect/model';
import { formatMs } from '../../lib/inspect/timeline';
import { useModalDialog } from '../modal-dialog';
import { downloadJson } from './download';
import { useInspector, type InspectorTarget } from './inspector-store';
import { IterationView, type RequestLoader } from './iteration-view';
import { RetrievalView } from './retrieval-view';
import { BUTTON } from './styles';
import { Waterfall } from './waterfall';

export const ITERATIONS_PER_PAGE = 20;

export interface IterationActionContext {
  run: InspectedRun;
  iteration: Iteration;
  bundle: RunExport;
  imported: boolean;
}

export interface RunInspectorProps {
  /** Extra actions shown on the selected iteration (a mount point, e.g. for "Replay from here"). */
  iterationActions?: (ctx: IterationActionContext) => ReactNode;
}

export function RunInspector({ iterationActions }: RunInspectorProps) {
  const target = useInspector((s) => s.target);
  const dialog = useModalDialog(Boolean(target));

  return (
    <dialog
      ref={dialog}
      aria-label="Run inspector"
      onClose={() => useInspector.getState().close()}
      className="m-0 h-dvh max-h-none w-full max-w-none bg-white text-neutral-900 backdrop:bg-black/50 md:m-auto md:h-[90dvh] md:w-[min(64rem,95vw)] md:rounded-lg md:border md:border-neutral-300 dark:bg-neutral-950 dark:text-neutral-100 md:dark:border-neutral-700"
    >
      {target && <Loaded key={targetKey(target)} target={target} iterationActions={iterationActions} />}
    </dialog>
  );
}

function targetKey(t: InspectorTarget): string {
  return t.kind === 'stored' ? `stored:${t.runId}` : `imported:${t.bundle.run.id}:${t.bundle.exportedAt}`;
}

type Loading = { state: 'loading' } | { state: 'error'; error: string } | { state: 'ready'; bundle: RunExport };

function Loaded({ target, iterationActions }: { target: InspectorTarget } & RunInspectorProps) {
  const [loading, setLoading] = useState<Loading>(
    target.kind === 'imported' ? { state: 'ready', bundle: target.bundle } : { state: 'loading' },
  );
  useEffect(() => {
    if (target.kind !== 'stored') return;
    let live = true;
    loadRunForInspection(target.runId).then(
      (r) => live && setLoading(r.ok ? { state: 'ready', bundle: r.value } : { state: 'error', error: r.error }),
      (e: unknown) => live && setLoading({ state: 'error', error: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
  }, [target]);

  if (loading.state !== 'ready') {
    return (
      <div className="flex h-full flex-col">
        <Header title="Run inspector" />
        <p role={loading.state === 'error' ? 'alert' : 'status'} className="p-4 text-sm">
          {loading.state === 'error' ? `Could not load the run: ${loading.error}` : 'Loading the run…'}
        </p>
      </div>
    );
  }
  return <InspectorBody bundle={loading.bundle} target={target} iterationActions={iterationActions} />;
}

function Header({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <header className="sticky top-0 z-10 flex flex-wrap items-center gap-2 border-b border-neutral-200 bg-white px-4 py-2 dark:border-neutral-800 dark:bg-neutral-950">
      <h2 className="mr-auto text-base font-semibold">{title}</h2>
      {children}
      <button type="button" className={BUTTON} onClick={() => useInspector.getState().close()}>
        Close
      </button>
    </header>
  );
}

async function unwrap<T>(result: Promise<{ ok: true; value: T } | { ok: false; error: string }>): Promise<T> {
  const r = await result;
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

/** A stored run is opened without its requests (see lib/inspect/load.ts); an imported file holds them all. */
function InspectorBody({
  bundle,
  target,
  iterationActions,
}: {
  bundle: RunExport;
  target: InspectorTarget;
} & RunInspectorProps) {
  const imported = target.kind === 'imported' ? target.fileName : undefined;
  const storedId = target.kind === 'stored' ? target.runId : undefined;
  const run = useMemo(() => foldInspection(bundle.events), [bundle]);
  const [problem, setProblem] = useState<string>();
  const requests = useRef(new Map<number, Promise<LlmRequest | null>>());
  const loadRequest = useCallback<RequestLoader>(
    (n) => {
      let pending = requests.current.get(n);
      if (!pending && storedId) {
        pending = unwrap(loadIterationRequest(storedId, n));
        pending.catch(() => requests.current.delete(n));
        requests.current.set(n, pending);
      }
      return pending ?? Promise.resolve(null);
    },
    [storedId],
  );
  const exportRun = async () => {
    setProblem(undefined);
    try {
      const full = storedId ? await unwrap(loadRunForInspection(storedId, true)) : bundle;
      downloadJson(runExportFileName(full), full);
    } catch (e) {
      setProblem(`Could not export the run: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  const [selected, setSelected] = useState(0);
  const tabs = useRef(new Map<number, HTMLButtonElement>());
  const focusNext = useRef(false);
  const count = run.iterations.length;
  const page = Math.floor(selected / ITERATIONS_PER_PAGE);
  const pages = Math.max(1, Math.ceil(count / ITERATIONS_PER_PAGE));
  const shown = run.iterations.slice(page * ITERATIONS_PER_PAGE, (page + 1) * ITERATIONS_PER_PAGE);
  const current = run.iterations[selected];

  useEffect(() => {
    if (!focusNext.current) return;
    focusNext.current = false;
    tabs.current.get(selected)?.focus();
  }, [selected]);

  const onTabKey = (e: KeyboardEvent) => {
    const to =
      e.key === 'ArrowRight' || e.key === 'ArrowDown'
        ? selected + 1
        : e.key === 'ArrowLeft' || e.key === 'ArrowUp'
          ? selected - 1
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? count - 1
              : undefined;
    if (to === undefined || to < 0 || to >= count) return;
    e.preventDefault();
    focusNext.current = true;
    setSelected(to);
  };

  const title = bundle.run.userMessage ? `Run inspector: “${bundle.run.userMessage.slice(0, 80)}”` : 'Run inspector';
  return (
    <div className="flex h-full flex-col">
      <Header title={title}>
        <button type="button" className={BUTTON} onClick={() => void exportRun()}>
          Export run
        </button>
        <button
          type="button"
          className={BUTTON}
          onClick={() => {
            const fixture = runToFixture(bundle.events);
            downloadJson(fixtureFileName(fixture), fixture);
          }}
        >
          Save as fixture
        </button>
      </Header>
      <div className="min-h-0 flex-1 space-y-4 overflow-y-auto p-4">
        {problem && (
          <p
            role="alert"
            className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-900 dark:bg-red-950 dark:text-red-100"
          >
            {problem}
          </p>
        )}
        {imported && (
          <p
            role="note"
            className="rounded-md bg-blue-50 px-3 py-2 text-sm text-blue-950 dark:bg-blue-950 dark:text-blue-100"
          >
            Imported from {imported} (exported {bundle.exportedAt}); viewed only, not stored.
          </p>
        )}
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr_auto_1fr]">
          <dt className="font-semibold">Stopped</dt>
          <dd className="sm:col-span-3">{run.stop.explanation}</dd>
          <dt className="font-semibold">Duration</dt>
          <dd>{formatMs(run.durationMs)}</dd>
          <dt className="font-semibold">Tokens</dt>
          <dd>
            {run.usage.totalTokens} ({run.usage.promptTokens} in, {run.usage.completionTokens} out)
          </dd>
          <dt className="font-semibold">Model calls</dt>
          <dd>{run.llmCalls}</dd>
          <dt className="font-semibold">Tool calls</dt>
          <dd>{run.toolCalls}</dd>
          <dt className="font-semibold">Model</dt>
          <dd className="font-mono break-all">{run.model || '?'}</dd>
          <dt className="font-semibold">Agent</dt>
          <dd>
            {run.kind ? AGENT_KIND_NAMES[run.kind] : '?'}
            {run.fncallMode ? ` (${run.fncallMode} tool calls)` : ''}
          </dd>
        </dl>

        <RetrievalView steps={run.retrievals} />
        {count === 0 ? (
          <p className="text-sm">This run made no model call.</p>
        ) : (
          <>
            <Waterfall iterations={shown} totalMs={run.durationMs} onSelect={(n) => setSelected(n - 1)} />
            <div className="flex flex-wrap items-center gap-2">
              {pages > 1 && (
                <button
                  type="button"
                  className={BUTTON}
                  disabled={page === 0}
                  onClick={() => setSelected((page - 1) * ITERATIONS_PER_PAGE)}
                >
                  Earlier iterations
                </button>
              )}
              <div role="tablist" aria-label="Iterations" className="flex flex-wrap gap-1" onKeyDown={onTabKey}>
                {shown.map((it) => {
                  const index = it.n - 1;
                  const on = index === selected;
                  return (
                    <button
                      key={it.n}
                      ref={(el) => {
                        if (el) tabs.current.set(index, el);
                        else tabs.current.delete(index);
                      }}
                      type="button"
                      role="tab"
                      id={`inspector-tab-${it.n}`}
                      aria-selected={on}
                      aria-controls="inspector-iteration"
                      tabIndex={on ? 0 : -1}
                      onClick={() => setSelected(index)}
                      className={`rounded-md border px-2 py-1 text-xs focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 ${
                        on
                          ? 'border-blue-700 bg-blue-700 text-white dark:border-blue-300 dark:bg-blue-800'
                          : 'border-neutral-300 hover:bg-neutral-100 dark:border-neutral-700 dark:hover:bg-neutral-800'
                      }`}
                    >
                      Iteration {it.n}
                      <span aria-hidden="true" className="ml-1">
                        {it.tools.length ? `· ${it.tools.map((t) => t.name).join(', ')}` : ''}
                      </span>
                    </button>
                  );
                })}
              </div>
              {pages > 1 && (
                <>
                  <button
                    type="button"
                    className={BUTTON}
                    disabled={page >= pages - 1}
                    onClick={() => setSelected((page + 1) * ITERATIONS_PER_PAGE)}
                  >
                    Later iterations
                  </button>
                  <span className="text-xs text-neutral-600 dark:text-neutral-400">
                    {page * ITERATIONS_PER_PAGE + 1}–{Math.min(count, (page + 1) * ITERATIONS_PER_PAGE)} of {count}
                  </span>
                </>
              )}
            </div>
            {current && (
              <div
                role="tabpanel"
                id="inspector-iteration"
                aria-labelledby={`inspector-tab-${current.n}`}
                className="min-w-0"
              >
                <IterationView
                  key={current.n}
                  iteration={current}
                  loadRequest={storedId ? loadRequest : undefined}
                  actions={iterationActions?.({ run, iteration: current, bundle, imported: Boolean(imported) })}
                />
              </div>
            )}
          </>
        )}
      </div>
    </div>
  );
}
