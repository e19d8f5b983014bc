'use client';
// The stored run open in the inspector is in the page's address (`run=<id>` beside what the page's address already
// holds: `/?c=…&run=…`, `/runs?tool=…&run=…`), so a run can be linked to and a reload keeps it open. Opening one is
// a step of the browser's history: Back closes it, Forward opens it again. Closing it (Escape, Close) goes back to
// the step it was opened from; opened by a link or a reload, its address loses the run instead. The
// server reads the run for the signed-in user only, so another user's run reads as an unknown one.
import { useEffect } from 'react';
import { useInspector, type InspectorTarget } from './inspector-store';

const PARAM = 'run';

/** What this page's step of the history holds when it was added by opening the run `openedRun`. */
interface RunStep {
  openedRun?: string;
}

/** The steps this document added (a reload forgets them): going back to the step before one of them is a move within
 *  the page. To a step from before a reload, Next fetches the page again and draws it anew (the focus lost with the
 *  button that opened the run), so closing a run opened there drops the run from its address instead. */
const addedHere = new Set<string>();

function runInAddress(): string | undefined {
  return new URLSearchParams(window.location.search).get(PARAM) || undefined;
}

/** This page's address with `run` set to `runId`, or without it; its other parameters as they are. */
function addressWith(runId: string | undefined): string {
  const params = new URLSearchParams(window.location.search);
  if (runId) params.set(PARAM, runId);
  else params.delete(PARAM);
  const query = params.toString();
  return query ? `${window.location.pathname}?${query}` : window.location.pathname;
}

function storedRun(target: InspectorTarget | undefined): string | undefined {
  return target?.kind === 'stored' ? target.runId : undefined;
}

/** The address follows the inspector (opened: a step added; closed: that step left), and the inspector follows the
 *  address (on load, Back, Forward). An imported run is not stored: it has no address. */
export function useRunAddress(): void {
  useEffect(() => {
    const followInspector = (target: InspectorTarget | undefined) => {
      const shown = storedRun(target);
      const inAddress = runInAddress();
      if (shown === inAddress) return;
      if (shown) {
        const step: RunStep = { openedRun: shown };
        window.history.pushState(step, '', addressWith(shown));
        addedHere.add(shown);
      } else if (
        inAddress &&
        addedHere.has(inAddress) &&
        (window.history.state as RunStep | null)?.openedRun === inAddress
      ) {
        window.history.back();
      } else {
        window.history.replaceState({}, '', addressWith(undefined));
      }
    };
    const followAddress = () => {
      const inspector = useInspector.getState();
      const run = runInAddress();
      if (run === storedRun(inspector.target)) return;
      if (run) inspector.openRun(run);
      else if (inspector.target?.kind === 'stored') inspector.close();
    };
    const unsubscribe = useInspector.subscribe((s, before) => {
      if (s.target !== before.target) followInspector(s.target);
    });
    window.addEventListener('popstate', followAddress);
    followAddress();
    return () => {
      unsubscribe();
      window.removeEventListener('popstate', followAddress);
    };
  }, []);
}
