import { loadRunsView } from '@/app/actions/runs';
import { RunsView } from '@/components/run-list/runs-view';

export const dynamic = 'force-dynamic';

type Params = Record<string, string | string[] | undefined>;

export default async function RunsPage({ searchParams }: { searchParams: Promise<Params> }) {
  return <RunsView view={await loadRunsView(await searchParams)} />;
}
