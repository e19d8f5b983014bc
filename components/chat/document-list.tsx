'use client';
import { useMemo } from 'react';
import type { ContentItem } from '@/lib/llm/schema';
import { DocumentChips } from './document-chips';
import { useChat, type TurnState } from './store';
import { useUploads, type UploadItem } from './uploads';

/** The uploads no message of the thread carries yet (those a message carried show on it). */
export function waitingDocuments(items: readonly UploadItem[], turns: readonly TurnState[]): UploadItem[] {
  const carried = carriedRefs(turns);
  return items.filter((i) => !(i.ref && carried.has(i.ref)));
}

/** The references of the files and images the thread's messages carry. */
function carriedRefs(turns: readonly TurnState[]): Set<string> {
  const refs = new Set<string>();
  for (const t of turns) {
    if (typeof t.content === 'string') continue;
    for (const item of t.content as ContentItem[]) {
      const ref = item.file ?? item.image;
      if (ref) refs.add(ref);
    }
  }
  return refs;
}

/** The documents waiting above the composer for the next message: once a message has carried one, it shows on that
 *  message (and stays the conversation's), not here. Failed ones wait only until the next message or upload. */
export function DocumentList() {
  const items = useUploads((s) => s.items);
  const remove = useUploads((s) => s.remove);
  const dismissFailed = useUploads((s) => s.dismissFailed);
  const turns = useChat((s) => s.turns);
  const waiting = useMemo(() => waitingDocuments(items, turns), [items, turns]);
  return (
    <DocumentChips
      items={waiting}
      onRemove={(key) => void remove(key)}
      onClearFailed={(keys) => void dismissFailed(keys)}
    />
  );
}
