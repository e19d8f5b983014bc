'use client';
// The Runs page (README, "Runs"): every run of the user across conversations, newest first, filtered and searched
// by what the address bar says; a row opens the run inspector. Changing a filter adds an entry to the history (Back
// undoes it; an edit of the search words or of a date is one entry, however many keystrokes), and the server renders
// the page for it: a link, a reload or Back shows the same runs with the same filters set.
import { useFormatter, useTranslations } from 'next-intl';
import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import { useEffect, useOptimistic, useRef, useState, useTransition } from 'react';
import type { RunsView as RunsViewData } from '../../app/actions/runs';
import { AGENT_KIND_NAMES } from '../../lib/protocol/enums';
import { rangeBackwards, runQueryToParams } from '../../lib/inspect/runs-address';
import { RUN_OUTCOMES } from '../../lib/protocol/enums';
import type { RunListRow, RunQuery } from '../../lib/store/run-query';
import { formatDuration, formatNumber } from '../chat/format';
import { LanguageSelect } from '../language-select';
import { useFormatWords } from '../chat/use-format-words';
import { useInspector } from '../inspector/inspector-store';
import { RunInspector } from '../inspector/run-inspector';
import { useModels } from '../models/models-store';
import { RunFiguresView } from './run-figures';
import { useCostAmount } from '../inspector/cost-view';

const FIELD =
  'rounded border border-neutral-300 bg-white px-2 py-1 text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:border-neutral-700 dark:bg-neutral-900';
const BUTTON =
  'rounded px-2 py-1 text-sm text-blue-700 hover:bg-neutral-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 disabled:opacity-50 dark:text-blue-300 dark:hover:bg-neutral-800';
const SEARCH_DELAY_MS = 300;

export function RunsView({ view }: { view: RunsViewData }) {
  const t = useTranslations('runsPage');
  const router = useRouter();
  const pathname = usePathname();
  const [pending, startTransition] = useTransition();
  const { page, facets } = view;
  // The filters show what was picked at once; the runs follow when the server has answered for it.
  const [query, setQuery] = useOptimistic(view.query);

  // The field being edited: its first change adds a history entry, its next ones (more words, the next digit of a
  // date) replace it, until the focus leaves it or Enter settles it. Any other change adds an entry.
  const editing = useRef<string | undefined>(undefined);
  const go = (next: RunQuery, field?: string) => {
    const qs = runQueryToParams(next).toString();
    const replace = field !== undefined && editing.current === field;
    editing.current = field;
    startTransition(() => {
      setQuery(next);
      const href = qs ? `${pathname}?${qs}` : pathname;
      if (replace) router.replace(href, { scroll: false });
      else router.push(href, { scroll: false });
    });
  };
  const settle = (field: string) => {
    if (editing.current === field) editing.current = undefined;
  };
  // Back or Forward ends an edit too: the next words typed are a change of their own, not a replacement of where
  // the history now stands.
  useEffect(() => {
    const ended = () => (editing.current = undefined);
    window.addEventListener('popstate', ended);
    return () => window.removeEventListener('popstate', ended);
  }, []);
  const { admin } = view;
  useEffect(() => {
    void useModels.getState().initViewer(admin);
  }, [admin]);
  // Arriving here from the chat's link, the focus would be left on the page itself: it starts on the title.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (document.activeElement === document.body) heading.current?.focus();
  }, []);
  /** A filter changed: back to the first page. */
  const set = (patch: Partial<RunQuery>, field?: string) => go({ ...query, ...patch, page: undefined }, field);
  const backwards = rangeBackwards(query);
  /** A search or a filter is set (Clear is offered; an empty list is then no match, not no run yet). */
  const filtered = runQueryToParams({ ...query, page: undefined }).size > 0;

  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-4 p-4">
      <header className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <Link href="/" className={BUTTON}>
          {t('backToChat')}
        </Link>
        <h1 ref={heading} tabIndex={-1} className="min-w-0 flex-1 text-xl font-semibold focus:outline-none">
          {t('title')}
        </h1>
        <LanguageSelect />
      </header>

      <form
        role="search"
        aria-label={t('filters')}
        className="flex flex-wrap items-end gap-3"
        onSubmit={(e) => e.preventDefault()}
      >
        <SearchBox
          initial={query.text ?? ''}
          onSearch={(text) => set({ text: text || undefined }, 'text')}
          onSettle={() => settle('text')}
        />
        <Select
          label={t('outcome')}
          value={query.outcome}
          options={RUN_OUTCOMES.map((o) => [o, t(`outcomes.${o}`)])}
          onChange={(v) => set({ outcome: v as RunQuery['outcome'] })}
        />
        <Select
          label={t('tool')}
          value={query.tool}
          options={withCurrent(facets.tools, query.tool).map((n) => [n, n])}
          onChange={(v) => set({ tool: v })}
        />
        <Select
          label={t('model')}
          value={query.model}
          options={withCurrent(facets.models, query.model).map((n) => [n, n])}
          onChange={(v) => set({ model: v })}
        />
        <Select
          label={t('agent')}
          value={query.savedAgent ? `${SAVED}${query.savedAgent}` : query.agent}
          options={[
            ...withCurrent(facets.agents, query.agent).map((a): [string, string] => [a, AGENT_KIND_NAMES[a]]),
            // The saved agents by name (a kind, or one of the user's agents: one filter).
            ...facets.savedAgents.map((a): [string, string] => [`${SAVED}${a.id}`, t('savedAgent', { name: a.name })]),
          ]}
          onChange={(v) =>
            v?.startsWith(SAVED)
              ? set({ savedAgent: v.slice(SAVED.length), agent: undefined })
              : set({ agent: v as RunQuery['agent'], savedAgent: undefined })
          }
        />
        <div className="flex flex-col gap-1">
          <div className="flex flex-wrap items-end gap-3">
            {(['from', 'to'] as const).map((field) => (
              <label key={field} className="flex flex-col gap-1 text-sm">
                {t(field)}
                <input
                  type="date"
                  className={FIELD}
                  value={query[field] ?? ''}
                  aria-invalid={backwards || undefined}
                  aria-describedby={backwards ? RANGE_PROBLEM : undefined}
                  onChange={(e) => set({ [field]: e.target.value || undefined }, field)}
                  onBlur={() => settle(field)}
                />
              </label>
            ))}
          </div>
          {backwards && (
            <p id={RANGE_PROBLEM} className="text-sm font-medium text-red-700 dark:text-red-400">
              {t('rangeBackwards')}
            </p>
          )}
        </div>
        <label className="flex items-center gap-2 py-1 text-sm">
          <input
            type="checkbox"
            checked={Boolean(query.failedToolsOnly)}
            onChange={(e) => set({ failedToolsOnly: e.target.checked || undefined })}
          />
          {t('failedOnly')}
        </label>
        {filtered && (
          <button type="button" className={BUTTON} onClick={() => go({})}>
            {t('clear')}
          </button>
        )}
      </form>

      {view.ignored.length > 0 && (
        <ul
          aria-label={t('ignoredLabel')}
          className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm break-words text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
        >
          {view.ignored.map(({ name, value }) => (
            <li key={name}>{t(`ignored.${name}`, { value })}</li>
          ))}
        </ul>
      )}

      <p role="status" aria-live="polite" className="text-sm text-neutral-600 dark:text-neutral-400">
        {pending ? t('loading') : t(page.moreThanTotal ? 'countAtLeast' : 'count', { count: page.total })}
      </p>

      <RunTable rows={page.rows} busy={pending} filtered={filtered} />

      {(page.page > 1 || page.hasOlder) && (
        <nav aria-label={t('pages')} className="flex items-center gap-3 text-sm">
          <button
            type="button"
            className={BUTTON}
            disabled={page.page <= 1}
            onClick={() => go({ ...query, page: page.page - 1 })}
          >
            {t('newer')}
          </button>
          <span>
            {page.pageCount ? t('pageOf', { page: page.page, count: page.pageCount }) : t('page', { page: page.page })}
          </span>
          <button
            type="button"
            className={BUTTON}
            disabled={!page.hasOlder}
            onClick={() => go({ ...query, page: page.page + 1 })}
          >
            {t('older')}
          </button>
        </nav>
      )}

      {page.total > 0 && <RunFiguresView figures={view.figures} />}
      <RunInspector restoreFocus={() => heading.current?.focus()} />
    </main>
  );
}

/** The option list keeps a value the address asks for even when no run has it (the select shows what is set). */
function withCurrent<T extends string>(list: T[], current: T | undefined): T[] {
  return current && !list.includes(current) ? [...list, current] : list;
}

/** The words searched for: set once typing pauses (`onSearch`), at once with Enter; `onSettle`: this edit is over
 *  (Enter, or the focus left the box), the next words are another. */
function SearchBox({
  initial,
  onSearch,
  onSettle,
}: {
  initial: string;
  onSearch: (text: string) => void;
  onSettle: () => void;
}) {
  const t = useTranslations('runsPage');
  const [text, setText] = useState(initial);
  // The address changed under the box (Clear filters, Back, Forward): show its words. The words just searched for
  // come back as `initial` at once (the page's query is optimistic): the box keeps what is typed, spaces and all.
  const [seen, setSeen] = useState(initial);
  if (seen !== initial) {
    setSeen(initial);
    if (initial !== text.trim()) setText(initial);
  }
  const latest = useRef(onSearch);
  useEffect(() => {
    latest.current = onSearch;
  });
  useEffect(() => {
    if (text.trim() === initial.trim()) return;
    const timer = setTimeout(() => latest.current(text.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, initial]);
  return (
    <label className="flex min-w-60 flex-1 flex-col gap-1 text-sm">
      {t('search')}
      <input
        type="search"
        className={FIELD}
        value={text}
        placeholder={t('searchPlaceholder')}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key !== 'Enter') return;
          if (text.trim() !== initial.trim()) onSearch(text.trim());
          onSettle();
        }}
        onBlur={onSettle}
      />
    </label>
  );
}

/** The From / To dates' message when From is after To. */
const RANGE_PROBLEM = 'runs-range-backwards';

/** The Agent filter's value for a saved agent: this, then its id. */
const SAVED = 'saved:';

function Select({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string | undefined;
  options: [string, string][];
  onChange: (value: string | undefined) => void;
}) {
  const t = useTranslations('runsPage');
  return (
    // No wider than the screen, however long a model's or an agent's name: the closed select cuts it.
    <label className="flex max-w-full min-w-0 flex-col gap-1 text-sm">
      {label}
      <select
        className={`${FIELD} max-w-full sm:max-w-64`}
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value || undefined)}
      >
        <option value="">{t('any')}</option>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

/** `filtered`: a search or filter is set (with none, an empty list means no run yet). */
function RunTable({ rows, busy, filtered }: { rows: RunListRow[]; busy: boolean; filtered: boolean }) {
  const t = useTranslations('runsPage');
  const c = useTranslations('cost');
  const amount = useCostAmount();
  const format = useFormatter();
  const words = useFormatWords();
  if (!rows.length) return <p className="text-sm">{t(filtered ? 'none' : 'noneYet')}</p>;
  // On a phone each run is a block of its own, its values two by two, each under its column's name (the head is not
  // drawn), and Inspect on the screen; wider, a table. The roles keep it a table to screen readers either way.
  const cell = 'px-2 py-1 align-top max-sm:block max-sm:px-0 max-sm:py-0.5 max-sm:text-left';
  const number = `${cell} text-right whitespace-nowrap max-sm:whitespace-normal`;
  const label = (text: string) => (
    <span className="font-medium whitespace-pre-wrap sm:hidden">{t('fieldLabel', { label: text })}</span>
  );
  return (
    // `relative`: the hidden column name is placed in this box, not beside the page.
    <div className="relative overflow-x-auto">
      <table role="table" aria-label={t('title')} aria-busy={busy} className="w-full text-left text-sm max-sm:block">
        <thead
          role="rowgroup"
          className="border-b border-neutral-300 text-xs text-neutral-600 max-sm:sr-only dark:border-neutral-700 dark:text-neutral-400"
        >
          <tr role="row">
            <th role="columnheader" className={cell}>
              {t('started')}
            </th>
            <th role="columnheader" className={cell}>
              {t('conversation')}
            </th>
            <th role="columnheader" className={cell}>
              {t('agent')}
            </th>
            <th role="columnheader" className={cell}>
              {t('model')}
            </th>
            <th role="columnheader" className={cell}>
              {t('outcome')}
            </th>
            <th role="columnheader" className={`${cell} text-right`}>
              {t('modelCalls')}
            </th>
            <th role="columnheader" className={`${cell} text-right`}>
              {t('toolCalls')}
            </th>
            <th role="columnheader" className={`${cell} text-right`}>
              {t('tokens')}
            </th>
            <th role="columnheader" className={`${cell} text-right`}>
              {c('runs')}
            </th>
            <th role="columnheader" className={`${cell} text-right`}>
              {t('duration')}
            </th>
            <th role="columnheader" className={cell}>
              <span className="sr-only">{t('open')}</span>
            </th>
          </tr>
        </thead>
        <tbody role="rowgroup" className="max-sm:block">
          {rows.map((r) => (
            <tr
              key={r.runId}
              role="row"
              data-run-id={r.runId}
              className="cursor-pointer border-b border-neutral-200 hover:bg-neutral-50 max-sm:grid max-sm:grid-cols-2 max-sm:gap-x-3 max-sm:py-2 dark:border-neutral-800 dark:hover:bg-neutral-900"
              onClick={(e) => {
                if ((e.target as HTMLElement).closest('a, button')) return;
                useInspector.getState().openRun(r.runId);
              }}
            >
              <td role="cell" className={`${cell} whitespace-nowrap max-sm:col-span-2 max-sm:order-2`}>
                {format.dateTime(new Date(r.startedAt), { dateStyle: 'short', timeStyle: 'medium' })}
              </td>
              <td
                role="cell"
                className={`${cell} max-sm:order-1 max-sm:col-span-2 max-sm:font-medium max-sm:break-words`}
              >
                <Link
                  href={`/?c=${encodeURIComponent(r.conversationId)}`}
                  className="text-blue-700 hover:underline dark:text-blue-300"
                >
                  {r.conversationTitle}
                </Link>
              </td>
              <td role="cell" className={`${cell} max-sm:order-3 max-sm:break-words`}>
                {label(t('agent'))}
                {r.savedAgent ? r.savedAgent.name : r.agent ? AGENT_KIND_NAMES[r.agent] : t('unknown')}
              </td>
              <td role="cell" className={`${cell} max-sm:order-3 max-sm:break-all`}>
                {label(t('model'))}
                {r.model ?? t('unknown')}
              </td>
              <td role="cell" className={`${cell} max-sm:order-3 max-sm:col-span-2`}>
                {label(t('outcome'))}
                <span className={r.outcome === 'answered' ? '' : 'font-medium text-red-700 dark:text-red-400'}>
                  {t(`outcomes.${r.outcome}`)}
                </span>
              </td>
              <td role="cell" className={`${number} max-sm:order-3`}>
                {label(t('modelCalls'))}
                {formatNumber(r.llmCalls, words.locale)}
              </td>
              <td role="cell" className={`${number} max-sm:order-3`}>
                {label(t('toolCalls'))}
                {formatNumber(r.toolCalls, words.locale)}
                {r.failedToolCalls > 0 && (
                  <span className="ml-1 font-medium text-red-700 dark:text-red-400">
                    {t('failedCount', { count: r.failedToolCalls })}
                  </span>
                )}
              </td>
              <td role="cell" className={`${number} max-sm:order-3`}>
                {label(t('tokens'))}
                {t('tokensValue', {
                  prompt: formatNumber(r.promptTokens, words.locale),
                  completion: formatNumber(r.completionTokens, words.locale),
                })}
              </td>
              <td role="cell" className={`${number} max-sm:order-3`}>
                {label(c('runs'))}
                {r.cost === undefined ? c('runsNoPrice') : amount(r.cost)}
              </td>
              <td role="cell" className={`${number} max-sm:order-3`}>
                {label(t('duration'))}
                {formatDuration(r.durationMs, words)}
              </td>
              <td role="cell" className={`${cell} max-sm:order-4 max-sm:col-span-2`}>
                <button
                  type="button"
                  className={`${BUTTON} max-sm:-ml-2`}
                  aria-label={t('inspect', { title: r.conversationTitle })}
                  onClick={() => useInspector.getState().openRun(r.runId)}
                >
                  {t('open')}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
