'use server';
// The Runs page's data: the signed-in owner's runs for a query from the address bar, their figures, and what the
// filters can pick. Wiring only (lib/store/run-query.ts says what the query means).
import { runQueryFromParams } from '@/lib/inspect/runs-address';
import { appContext } from '@/lib/server/context';
import type { RunFacets, RunFigures, RunPage, RunQuery } from '@/lib/store/run-query';
import { guardAction } from './guard';

export interface RunsView {
  query: RunQuery;
  page: RunPage;
  figures: RunFigures;
  facets: RunFacets;
}

export async function loadRunsView(params: Record<string, string | string[] | undefined>): Promise<RunsView> {
  const me = await guardAction('loadRunsView');
  const owner = me.owner;
  const { store } = await appContext();
  const query = runQueryFromParams(params);
  const [page, figures, facets] = await Promise.all([
    store.searchRuns(owner, query),
    store.runFigures(owner, query),
    store.runFacets(owner),
  ]);
  return { query: { ...query, page: page.page }, page, figures, facets };
}
