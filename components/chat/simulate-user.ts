'use client';
// "Simulate a user": the page plays a simulated user (HumanSimulator on the server) for a number of turns. Each turn
// it asks the server for the simulated user's next line and sends it as any message is sent, so the conversation
// alternates between the simulated user and the agent, as if someone typed. It stops after the turns asked for, when
// the simulated user says the conversation is over, when asked to, or when the user leaves the conversation.
import { create } from 'zustand';
import { simulateUserTurn } from '@/app/actions/chat';
import { reachServer } from './reach-server';
import { failureText, type CodedText } from './server-text';
import { useChat } from './store';

/** `error`: why it could not go on (the server's refusal, or no answer from it), said in the page's language. */
export type SimulationEnd = 'finished' | 'ended' | 'stopped' | { error: CodedText };

interface SimulationState {
  /** The conversation being played, while a simulation runs. */
  conversationId?: string;
  /** Messages the simulated user has sent so far, and how many were asked for. */
  sent: number;
  total: number;
  /** How the last simulation ended (cleared when the user dismisses it or starts another). */
  end?: SimulationEnd;
  start(conversationId: string, turns: number, persona?: string): Promise<void>;
  stop(): Promise<void>;
  dismiss(): void;
}

export const useSimulation = create<SimulationState>()((set, get) => ({
  sent: 0,
  total: 0,
  async start(conversationId, turns, persona) {
    if (get().conversationId) return;
    set({ conversationId, sent: 0, total: turns, end: undefined });
    const still = () => get().conversationId === conversationId && useChat.getState().activeId === conversationId;
    let end: SimulationEnd = 'finished';
    for (let i = 0; i < turns; i++) {
      if (!still()) {
        end = 'stopped';
        break;
      }
      const next = await reachServer(() => simulateUserTurn(conversationId, persona ? { persona } : {}));
      if (!still()) {
        end = 'stopped';
        break;
      }
      if (!next.ok) {
        end = { error: failureText(next) };
        break;
      }
      if ('stop' in next.value) {
        end = 'ended';
        break;
      }
      await useChat.getState().send(next.value.message);
      set((s) => ({ sent: s.sent + 1 }));
    }
    if (get().conversationId === conversationId) set({ conversationId: undefined, end });
  },
  async stop() {
    if (!get().conversationId) return;
    set({ conversationId: undefined, end: 'stopped' });
    await useChat.getState().stop();
  },
  dismiss() {
    set({ end: undefined });
  },
}));
