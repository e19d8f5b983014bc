'use client';
import { useEffect, type RefObject } from 'react';
import { focusComposer } from './composer-draft';
import { conversationInAddress, stepOf } from './conversation-address';
import { useChat } from './store';

const ROW = 'button[data-conversation]';

/**
 * Back and Forward open the conversation the address names (`/`: a new chat, with the agent it was opened with; one
 * deleted since: the notice and a new chat, as its address opened by hand does). The focus moves with them: from a
 * row of the list to the row of the conversation opened, so that the list's selection and the focus stay together;
 * from the thread (whose content is replaced) or from nowhere, to the composer; anywhere else, it stays.
 */
export function useHistorySteps(thread: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const moved = (event: PopStateEvent) => {
      const id = conversationInAddress(window.location.search);
      const chat = useChat.getState();
      const focused = document.activeElement;
      const onRow = focused instanceof HTMLElement && focused.matches(ROW);
      const lost = !focused || focused === document.body || Boolean(thread.current?.contains(focused));
      if (!id) {
        // Already a new chat: the step left was this one's run in the inspector (run-address.ts).
        if (!chat.activeId && !chat.opening) return;
        chat.newChat(stepOf(event.state).newChatAgent);
        if (onRow || lost) focusComposer();
        return;
      }
      if ((chat.opening ?? chat.activeId) === id) {
        // Back to the one shown from one that could not be opened: the address names what is shown again.
        if (chat.unreached) useChat.setState({ unreached: undefined });
        return;
      }
      if (lost) focusComposer();
      void chat.open(id, { newChatIfGone: true }).then(() => {
        // Only while the focus is still on the list (not moved meanwhile by the user).
        if (!(document.activeElement instanceof HTMLElement && document.activeElement.matches(ROW))) return;
        const shown = useChat.getState().activeId;
        if (shown === id) document.querySelector<HTMLElement>(`${ROW}[data-conversation="${CSS.escape(id)}"]`)?.focus();
        else if (shown === undefined) focusComposer();
      });
    };
    window.addEventListener('popstate', moved);
    return () => window.removeEventListener('popstate', moved);
  }, [thread]);
}
