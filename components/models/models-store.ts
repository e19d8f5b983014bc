'use client';
// What the page knows of the models: the picker's groups, the connections (never a key: "key set"), the servers
// found on this machine, and whether Settings → Models is open. One store, so that adding a connection in the
// dialog shows its models in the picker at once and the composer is enabled without a reload.
import { create } from 'zustand';
import * as actions from '@/app/actions/models';
import type { ConnectionView, FoundServerView, ModelGroup } from '@/lib/models/service';
import { useChat } from '../chat/store';

export type ModelsSection = 'connections' | 'local';

interface ModelsState {
  /** undefined until the first listing came back. */
  groups?: ModelGroup[];
  connections: ConnectionView[];
  found?: FoundServerView[];
  scanning: boolean;
  /** A model can be picked (from the page's first load, then from the listings). */
  configured: boolean;
  /** init() ran: until then the page goes by what the server rendered it with. */
  initialized: boolean;
  admin: boolean;
  dialog?: ModelsSection;
  init(info: { configured: boolean; admin: boolean }): void;
  /** A page without the model picker (the Runs page): who is looking, and the connections, which the run inspector
   *  needs to say where a run's prices are set. */
  initViewer(admin: boolean): Promise<void>;
  refresh(opts?: { servers?: boolean }): Promise<void>;
  scan(again?: boolean): Promise<void>;
  openDialog(section?: ModelsSection): void;
  closeDialog(): void;
  /** The open conversation (or the new chat) uses this model from its next message on. */
  pick(id: string): void;
  /** Picks the first model of a connection when the conversation has none yet (a first connection, a found server). */
  pickFirstOf(connectionId: string): void;
}

export const useModels = create<ModelsState>()((set, get) => ({
  connections: [],
  scanning: false,
  configured: false,
  initialized: false,
  admin: false,

  init({ configured, admin }) {
    set({ configured, admin, initialized: true });
  },

  async initViewer(admin) {
    set({ admin });
    const connections = await actions.listConnections();
    if (connections.ok) set({ connections: connections.value });
  },

  async refresh(opts = {}) {
    // Read in the background too (as the page opens): unanswered (the server down for a moment), the lists stay.
    const listed = await Promise.all([actions.listModels(Boolean(opts.servers)), actions.listConnections()]).catch(
      () => undefined,
    );
    if (!listed) return;
    const [groups, connections] = listed;
    set((s) => {
      const nextGroups = groups.ok ? groups.value : s.groups;
      const nextConnections = connections.ok ? connections.value : s.connections;
      const anyModel = Boolean(nextGroups?.some((g) => g.models.length));
      return {
        groups: nextGroups,
        connections: nextConnections,
        configured: anyModel || nextConnections.length > 0 || (s.configured && !nextGroups),
      };
    });
  },

  async scan(again = false) {
    set({ scanning: true });
    // Unanswered (the server down for a moment): what was found stays, and Scan again can be pressed.
    const r = await actions.scanServers(again).catch(() => undefined);
    set((s) => ({ scanning: false, found: r?.ok ? r.value : s.found }));
  },

  openDialog(section = 'connections') {
    set({ dialog: section });
  },

  closeDialog() {
    set({ dialog: undefined });
  },

  pick(id) {
    void useChat.getState().updateSettings({ model: id });
  },

  pickFirstOf(connectionId) {
    if (useChat.getState().settings?.model) return;
    const first = get().groups?.find((g) => g.connectionId === connectionId)?.models[0];
    if (first) get().pick(first.id);
  },
}));

/** Can a model be picked? What the server rendered the page with (`initial`) until the store has its own answer, so
 *  the first paint neither flashes the no-model notice nor disables the composer. */
export function useModelsConfigured(initial: boolean): boolean {
  return useModels((s) => (s.initialized ? s.configured : initial));
}
