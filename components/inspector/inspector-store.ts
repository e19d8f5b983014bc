'use client';
// Which run the inspector shows: a stored run (loaded in full on demand) or an imported export file (viewed only,
// never stored).
import { create } from 'zustand';
import type { RunExport } from '../../lib/inspect/export';

export type InspectorTarget =
  { kind: 'stored'; runId: string } | { kind: 'imported'; bundle: RunExport; fileName: string };

interface InspectorState {
  target?: InspectorTarget;
  openRun(runId: string): void;
  openImported(bundle: RunExport, fileName: string): void;
  close(): void;
}

export const useInspector = create<InspectorState>()((set) => ({
  openRun: (runId) => set({ target: { kind: 'stored', runId } }),
  openImported: (bundle, fileName) => set({ target: { kind: 'imported', bundle, fileName } }),
  close: () => set({ target: undefined }),
}));
