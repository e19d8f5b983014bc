'use client';
// The trace inspector (README, "Inspecting runs"): a native modal <dialog> named "Run inspector" (focus stays in it,
// Esc closes it, focus goes back to the opener). Only one page of iterations is listed and drawn at a time, and only
// the selected iteration's request is rendered: the request of iteration N holds the whole history before it.
import { useFormatter, useTranslations } from 'next-intl';
import {
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { loadIterationRequest, loadRunForInspection } from '../../app/actions/inspect';
import { AGENT_KIND_NAMES } from '../../lib/protocol/enums';
import type { LlmRequest } from '../../lib/protocol/events';
import { runExportFileName, type RunExport } from '../../lib/inspect/export';
import { fixtureFileName, runToFixture } from '../../lib/inspect/fixture';
import { foldInspection } from '../../lib/inspect/fold';
import type { InspectedRun, Iteration } from '../../lib/inspect/model';
import { useConnectionAddress } from '../chat/connection-address';
import { formatNumber, formatPreciseDuration } from '../chat/format';
import { useRunErrorText } from '../chat/run-error-text';
import { useFormatWords } from '../chat/use-format-words';
import { useModalDialog } from '../modal-dialog';
import { RunCostText, RunTotalCostText } from './cost-view';
import { downloadJson } from './download';
import { useInspector, type InspectorTarget } from './inspector-store';
import { IterationView, type RequestLoader } from './iteration-view';
import { RetrievalView } from './retrieval-view';
import { useRunAddress } from './run-address';
import { BUTTON } from './styles';
import { Waterfall } from './waterfall';
import { waterfallRows } from '../../lib/inspect/timeline';

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

/** `restoreFocus`: where the focus goes on closing when no control opened it (a link, a reload, Forward). */
export function RunInspector({ iterationActions, restoreFocus }: RunInspectorProps & { restoreFocus?: () => void }) {
  const t = useTranslations('inspector');
  const target = useInspector((s) => s.target);
  const dialog = useModalDialog(Boolean(target), { restoreFocus });
  useRunAddress();

  return (
    <dialog
      ref={dialog}
      aria-label={t('title')}
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
  const t = useTranslations('inspector');
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
        <Header title={t('title')} />
        <p role={loading.state === 'error' ? 'alert' : 'status'} className="p-4 text-sm">
          {loading.state === 'error' ? t('loadFailed', { error: loading.error }) : t('loading')}
        </p>
      </div>
    );
  }
  return <InspectorBody bundle={loading.bundle} target={target} iterationActions={iterationActions} />;
}

function Header({
  title,
  titleRef,
  children,
}: {
  title: string;
  titleRef?: RefObject<HTMLHeadingElement | null>;
  children?: ReactNode;
}) {
  const t = useTranslations('inspector');
  return (
    <header className="sticky top-0 z-10 flex flex-wrap items-center gap-2 border-b border-neutral-200 bg-white px-4 py-2 dark:border-neutral-800 dark:bg-neutral-950">
      <h2 ref={titleRef} tabIndex={-1} className="mr-auto text-base font-semibold focus:outline-none">
        {title}
      </h2>
      {children}
      <button type="button" className={BUTTON} onClick={() => useInspector.getState().close()}>
        {t('close')}
      </button>
    </header>
  );
}

/** The child runs of the run shown (who answered, in which round, when and how long), each opened in place. */
function ChildRunList({ run, onOpen }: { run: InspectedRun; onOpen: (index: number) => void }) {
  const t = useTranslations('inspector');
  const r = useTranslations('run');
  const f = useFormatWords();
  if (!run.children?.length) return null;
  return (
    <section aria-label={t('childRuns')}>
      <h3 className="mb-1 text-sm font-semibold">{t('childRuns')}</h3>
      <ul className="space-y-1 text-sm">
        {run.children.map((c, i) => (
          <li key={c.run.runId} className="flex flex-wrap items-center gap-2">
            <button type="button" className={BUTTON} onClick={() => onOpen(i)}>
              {t('openChild', { agent: c.agent })}
            </button>
            {c.round !== undefined && <span>{r('round', { round: c.round })}</span>}
            {c.reason && <span>· {r(`reason.${c.reason}`)}</span>}
            <span className="text-neutral-600 tabular-nums dark:text-neutral-400">
              {t('childTiming', {
                start: formatPreciseDuration(c.startT, f),
                duration: formatPreciseDuration(c.run.durationMs, f),
                calls: c.run.llmCalls,
              })}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Why the run stopped, in the page's language (lib/inspect's explanation is the English of the same); an error as the
 *  turn says it (run-error-text.ts). */
function useStopText(): (run: InspectedRun, address?: string) => string {
  const t = useTranslations('inspector.stop');
  const errorText = useRunErrorText();
  return ({ stop, maxLlmCalls, connection }, address) => {
    switch (stop.reason) {
      case 'max-iterations':
        return t('max-iterations', { limit: maxLlmCalls ?? 'N' });
      case 'error':
        return stop.error?.message
          ? t('error', { message: errorText(stop.error, { connection, address }) })
          : t('errorUnknown');
      default:
        return t(stop.reason);
    }
  };
}

/** A run as the page names it elsewhere (the Runs page, the agent picker): by its kind, not the message author's name
 *  it ran under ("assistant"). */
function kindName(run: InspectedRun): string {
  return run.kind ? AGENT_KIND_NAMES[run.kind] : run.agent;
}

async function unwrap<T>(result: Promise<{ ok: true; value: T } | { ok: false; error: string }>): Promise<T> {
  const r = await result;
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

/** A stored run is opened without its requests (see lib/inspect/load.ts); an imported file holds them all. */
export function InspectorBody({
  bundle,
  target,
  iterationActions,
}: {
  bundle: RunExport;
  target: InspectorTarget;
} & RunInspectorProps) {
  const t = useTranslations('inspector');
  const c = useTranslations('cost');
  const f = useFormatWords();
  const format = useFormatter();
  const stopText = useStopText();
  const imported = target.kind === 'imported' ? target.fileName : undefined;
  const storedId = target.kind === 'stored' ? target.runId : undefined;
  const root = useMemo(() => foldInspection(bundle.events, { status: bundle.run.status }), [bundle]);
  // Which run is shown: the run itself, or a child run (a Router's helper, a GroupChat's member) at any depth.
  const [path, setPath] = useState<number[]>([]);
  const trail = useMemo(() => {
    const runs: InspectedRun[] = [root];
    for (const i of path) runs.push(runs[runs.length - 1]!.children![i]!.run);
    return runs;
  }, [root, path]);
  const run = trail[trail.length - 1]!;
  const address = useConnectionAddress(run.connection);
  const childRunId = path.length ? run.runId : undefined;
  const [problem, setProblem] = useState<string>();
  const requests = useRef(new Map<string, Promise<LlmRequest | null>>());
  const loadRequest = useCallback<RequestLoader>(
    (n) => {
      const key = `${childRunId ?? ''}:${n}`;
      let pending = requests.current.get(key);
      if (!pending && storedId) {
        pending = unwrap(loadIterationRequest(storedId, n, childRunId));
        pending.catch(() => requests.current.delete(key));
        requests.current.set(key, pending);
      }
      return pending ?? Promise.resolve(null);
    },
    [storedId, childRunId],
  );
  // Each change of view puts the focus on its heading (the child run's, or the inspector's title back at the run), so
  // a screen reader says which run is shown; the button pressed is gone with the view it was in.
  const titleRef = useRef<HTMLHeadingElement>(null);
  const childHeading = useRef<HTMLHeadingElement>(null);
  const focusView = useRef(false);
  const openPath = (next: number[]) => {
    focusView.current = true;
    setPath(next);
    setSelected(0);
  };
  useEffect(() => {
    if (!focusView.current) return;
    focusView.current = false;
    (path.length ? childHeading : titleRef).current?.focus();
  }, [path]);
  const exportRun = async () => {
    setProblem(undefined);
    try {
      const full = storedId ? await unwrap(loadRunForInspection(storedId, true)) : bundle;
      downloadJson(runExportFileName(full), full);
    } catch (e) {
      setProblem(t('exportFailed', { error: e instanceof Error ? e.message : String(e) }));
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

  // The loading view the focus was in is gone: it goes to the selected iteration (or the first button here), not to
  // the page behind the dialog.
  const body = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (document.activeElement !== document.body) return;
    (tabs.current.get(selected) ?? body.current?.querySelector<HTMLElement>('button'))?.focus();
    // Once, when the run is shown.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

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

  const title = bundle.run.userMessage
    ? t('titleWithMessage', { message: bundle.run.userMessage.slice(0, 80) })
    : t('title');
  const n = (value: number) => formatNumber(value, f.locale);
  // A parent's run-end counts its child runs' calls with its own: the split is said, as its iterations are its own.
  const ownToolCalls = run.iterations.reduce((sum, it) => sum + it.tools.length, 0);
  const callsText = (total: number, own: number) =>
    run.children?.length && total > own
      ? t('callsWithChildren', { total: n(total), own: n(own), children: n(total - own) })
      : n(total);
  // A child run made by its parent with no kind of its own (a ParallelDocQA reader) is named as its parent names it;
  // one of a kind (a GroupChat's member) by its name and kind.
  const agentName = !run.kind
    ? path.length
      ? run.agent
      : t('unknown')
    : path.length === 0
      ? AGENT_KIND_NAMES[run.kind]
      : run.kind === 'agent'
        ? run.agent
        : t('agentNamed', { name: run.agent, kind: AGENT_KIND_NAMES[run.kind] });
  // The browser's own time zone: the dialog is only ever drawn in the browser.
  const exportedAt = new Date(bundle.exportedAt);
  const exported = Number.isNaN(exportedAt.getTime())
    ? bundle.exportedAt
    : format.dateTime(exportedAt, {
        dateStyle: 'medium',
        timeStyle: 'medium',
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      });
  return (
    <div ref={body} className="flex h-full flex-col">
      <Header title={title} titleRef={titleRef}>
        <button type="button" className={BUTTON} onClick={() => void exportRun()}>
          {t('exportRun')}
        </button>
        <button
          type="button"
          className={BUTTON}
          onClick={() => {
            const fixture = runToFixture(bundle.events);
            downloadJson(fixtureFileName(fixture), fixture);
          }}
        >
          {t('saveFixture')}
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
            {t('imported', { file: imported, date: exported })}
          </p>
        )}
        {path.length > 0 && (
          <>
            <nav aria-label={t('childTrail')} className="flex flex-wrap items-center gap-2 text-sm">
              {trail.slice(0, -1).map((r, depth) => (
                <button key={r.runId} type="button" className={BUTTON} onClick={() => openPath(path.slice(0, depth))}>
                  {depth === 0 ? t('backToRun', { agent: kindName(r) }) : r.agent}
                </button>
              ))}
            </nav>
            <h3 ref={childHeading} tabIndex={-1} className="text-sm font-semibold break-words focus:outline-none">
              {t('childOf', { agent: run.agent })}
            </h3>
          </>
        )}
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr_auto_1fr]">
          <dt className="font-semibold">{t('stopped')}</dt>
          <dd className="sm:col-span-3">{stopText(run, address)}</dd>
          <dt className="font-semibold">{t('duration')}</dt>
          <dd>{formatPreciseDuration(run.durationMs, f)}</dd>
          <dt className="font-semibold">{t('tokens')}</dt>
          <dd>
            {t('tokensValue', {
              total: n(run.usage.totalTokens),
              prompt: n(run.usage.promptTokens),
              completion: n(run.usage.completionTokens),
            })}
          </dd>
          <dt className="font-semibold">{c('title')}</dt>
          <dd>
            <RunCostText cost={run.cost} pricing={run.pricing} connection={run.connection} />
          </dd>
          {run.totalCost && (
            <>
              <dt className="font-semibold">{c('totalTitle')}</dt>
              <dd>
                <RunTotalCostText cost={run.totalCost} />
              </dd>
            </>
          )}
          <dt className="font-semibold">{t('modelCalls')}</dt>
          <dd>{callsText(run.llmCalls, count)}</dd>
          <dt className="font-semibold">{t('toolCalls')}</dt>
          <dd>{callsText(run.toolCalls, ownToolCalls)}</dd>
          <dt className="font-semibold">{t('model')}</dt>
          <dd className="font-mono break-all">{run.model || t('unknown')}</dd>
          <dt className="font-semibold">{t('agent')}</dt>
          <dd className="break-words">
            {run.fncallMode ? t('agentWithMode', { agent: agentName, mode: run.fncallMode }) : agentName}
          </dd>
        </dl>

        <ChildRunList run={run} onOpen={(i) => openPath([...path, i])} />
        <RetrievalView steps={run.retrievals} />
        {count === 0 && run.children?.length ? (
          <Waterfall
            rows={waterfallRows(run, shown)}
            totalMs={run.durationMs}
            onSelect={(n) => setSelected(n - 1)}
            onOpenChild={(p) => openPath([...path, ...p])}
          />
        ) : null}
        {count === 0 ? (
          <p className="text-sm">{t(run.children?.length ? 'noOwnModelCall' : 'noModelCall')}</p>
        ) : (
          <>
            <Waterfall
              rows={waterfallRows(run, shown)}
              totalMs={run.durationMs}
              onSelect={(n) => setSelected(n - 1)}
              onOpenChild={(p) => openPath([...path, ...p])}
            />
            <div className="flex flex-wrap items-center gap-2">
              {pages > 1 && (
                <button
                  type="button"
                  className={BUTTON}
                  disabled={page === 0}
                  onClick={() => setSelected((page - 1) * ITERATIONS_PER_PAGE)}
                >
                  {t('earlier')}
                </button>
              )}
              <div role="tablist" aria-label={t('iterations')} className="flex flex-wrap gap-1" onKeyDown={onTabKey}>
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
                      {t('iteration', { n: it.n })}
                      <span aria-hidden="true" className="ml-1">
                        {it.tools.length > 0 && <>· {it.tools.map((tool) => tool.name).join(', ')}</>}
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
                    {t('later')}
                  </button>
                  <span className="text-xs text-neutral-600 dark:text-neutral-400">
                    {t('range', {
                      from: page * ITERATIONS_PER_PAGE + 1,
                      to: Math.min(count, (page + 1) * ITERATIONS_PER_PAGE),
                      count,
                    })}
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
                  actions={
                    path.length === 0
                      ? iterationActions?.({ run, iteration: current, bundle, imported: Boolean(imported) })
                      : undefined
                  }
                />
              </div>
            )}
          </>
        )}
      </div>
    </div>
  );
}
