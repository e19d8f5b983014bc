'use server';
// The Runs page's data: the signed-in owner's runs for a query from the address bar, their figures, and what the
// filters can pick. Wiring only (lib/store/run-query.ts says what the query means).
import { readRunsAddress, type IgnoredFilter } from '@/lib/inspect/runs-address';
import { appContext } from '@/lib/server/context';
import type { RunFacets, RunFigures, RunPage, RunQuery } from '@/lib/store/run-query';
import { guardAction } from './guard';

export interface RunsView {
  /** The filters applied: what the controls show. */
  query: RunQuery;
  /** What the address asked for that cannot be a filter's value, left out (the page says so). */
  ignored: IgnoredFilter[];
  page: RunPage;
  figures: RunFigures;
  facets: RunFacets;
  /** The viewer is the admin (the run inspector says where a run's prices are set, which is the admin's to do for
   *  the server's own connections). */
  admin: boolean;
}

export async function loadRunsView(params: Record<string, string | string[] | undefined>): Promise<RunsView> {
  const me = await guardAction('loadRunsView');
  const owner = me.owner;
  const { store } = await appContext();
  const { query, ignored } = readRunsAddress(params);
  const facetsRead = store.runFacets(owner);
  // A saved agent is one of the owner's: another id (deleted, mistyped, someone else's) is left out and said so.
  if (query.savedAgent && !(await facetsRead).savedAgents.some((a) => a.id === query.savedAgent)) {
    ignored.push({ name: 'savedAgent', value: query.savedAgent.slice(0, 100) });
    delete query.savedAgent;
  }
  const [page, figures, facets] = await Promise.all([
    store.searchRuns(owner, query),
    store.runFigures(owner, query),
    facetsRead,
  ]);
  return { query: { ...query, page: page.page }, ignored, page, figures, facets, admin: me.admin };
}
