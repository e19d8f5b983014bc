'use client';
// The documents of the open conversation, as the page shows them: files being uploaded (with progress), being
// parsed, ready, or refused with the reason. Bytes go up with XMLHttpRequest, the one browser API that reports
// upload progress; parse states come from polling GET /api/files while any document is still parsing.
import { create } from 'zustand';
import * as documentActions from '@/app/actions/documents';
import { isImageKind } from '@/lib/documents/image-kind';
import type { StoredDocument } from '@/lib/store/types';
import { uploadedImageUrl } from '@/lib/uploads/image-url';
import type { CodedText } from './server-text';
import { useChat } from './store';
import { oversizeRefusal, uploadLimit } from './upload-limit';

export interface UploadItem {
  key: string;
  name: string;
  size: number;
  state: 'uploading' | 'parsing' | 'ready' | 'error';
  /** 0..1 while uploading. */
  progress: number;
  id?: string;
  /** The reference a message carries it by (once uploaded). */
  ref?: string;
  pages?: number;
  kind?: string;
  /** Where its thumbnail loads from, once it is an accepted image. */
  imageUrl?: string;
  /** Why it cannot be read or was refused: the server's words and code, or the page's own code. */
  error?: CodedText;
  /** Something to know about an upload that went through (its name was cleaned), or a failed removal. */
  notice?: CodedText;
}

interface UploadState {
  conversationId?: string;
  items: UploadItem[];
  uploadFiles(files: readonly File[]): Promise<void>;
  remove(key: string): Promise<void>;
  /** Takes failed uploads off the list (these keys, else all of them): they never go with a message, so a message
   *  sent or another upload started leaves them behind. Failures the server stored are deleted there too. */
  dismissFailed(keys?: readonly string[]): Promise<void>;
  /** Shows the documents of this conversation (none for a new chat). */
  showConversation(id: string | undefined): Promise<void>;
}

let pollTimer: ReturnType<typeof setTimeout> | undefined;
let keySeq = 0;
/** Failed documents deleted (or being deleted) because they were dismissed: a listing does not bring them back. */
const dismissed = new Set<string>();
const POLL_MS = 600;

function fromDocument(doc: StoredDocument, key = doc.id): UploadItem {
  return {
    key,
    id: doc.id,
    ref: doc.ref,
    name: doc.name,
    size: doc.size,
    state: doc.state,
    progress: 1,
    pages: doc.pages,
    kind: doc.kind,
    imageUrl:
      doc.state === 'ready' && isImageKind(doc.kind) ? uploadedImageUrl(doc.conversationId, doc.ref) : undefined,
    error:
      doc.state === 'error'
        ? { message: doc.error, code: doc.errorCode ?? 'unreadable', values: { name: doc.name } }
        : undefined,
  };
}

/** An upload the server refused or that never arrived, said as the server said it or by the page's code. */
class UploadFailure extends Error {
  constructor(readonly text: CodedText) {
    super(text.message ?? text.code);
  }
}

function failureOf(xhr: XMLHttpRequest, name: string): UploadFailure {
  try {
    const body = JSON.parse(xhr.responseText) as { error?: { message?: string; code?: string } };
    if (body.error?.message) return new UploadFailure({ ...body.error, values: { name } });
  } catch {
    // not JSON: fall through
  }
  return new UploadFailure(
    xhr.status
      ? { code: 'upload-http', values: { name, status: xhr.status } }
      : { code: 'upload-connection', values: { name } },
  );
}

function send(
  file: File,
  conversationId: string,
  onProgress: (fraction: number) => void,
): Promise<{ document: StoredDocument; notice?: string; noticeCode?: string }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const query = new URLSearchParams({ name: file.name, conversationId });
    xhr.open('POST', `/api/files?${query}`);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => (xhr.status === 201 ? resolve(JSON.parse(xhr.responseText)) : reject(failureOf(xhr, file.name)));
    xhr.onerror = () => reject(failureOf(xhr, file.name));
    xhr.send(file);
  });
}

/** Resolves once no file of the open conversation is still on its way up (the server waits for parsing itself). */
export function untilUploaded(): Promise<void> {
  const uploading = () => useUploads.getState().items.some((i) => i.state === 'uploading');
  if (!uploading()) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = useUploads.subscribe(() => {
      if (uploading()) return;
      unsubscribe();
      resolve();
    });
  });
}

export const useUploads = create<UploadState>()((set, get) => {
  const patch = (key: string, change: Partial<UploadItem>) =>
    set((s) => ({ items: s.items.map((i) => (i.key === key ? { ...i, ...change } : i)) }));

  async function refresh(): Promise<void> {
    const id = get().conversationId;
    if (!id) return;
    try {
      const res = await fetch(`/api/files?conversationId=${encodeURIComponent(id)}`, { cache: 'no-store' });
      if (!res.ok || get().conversationId !== id) return;
      const { documents } = (await res.json()) as { documents: StoredDocument[] };
      set((s) => {
        const byId = new Map(documents.map((d) => [d.id, d]));
        // Server records win; files still uploading or refused before upload stay as they are.
        const items = s.items
          .filter((i) => !i.id || byId.has(i.id))
          .map((i) => (i.id ? { ...fromDocument(byId.get(i.id)!, i.key), notice: i.notice } : i));
        for (const d of documents)
          if (!dismissed.has(d.id) && !items.some((i) => i.id === d.id)) items.push(fromDocument(d));
        return { items };
      });
    } catch {
      // The server is unreachable for a moment: the next poll tries again.
    } finally {
      schedulePoll();
    }
  }

  function schedulePoll(): void {
    if (pollTimer) clearTimeout(pollTimer);
    pollTimer = undefined;
    if (get().items.some((i) => i.state === 'parsing')) pollTimer = setTimeout(() => void refresh(), POLL_MS);
  }

  /** The conversation files go to; a new chat gets one now, with the settings picked for it. */
  async function conversationForUpload(): Promise<string> {
    const chat = useChat.getState();
    // The conversation being opened is the one shown for uploads (the composer's), as for a message.
    const existing = chat.opening ?? chat.activeId ?? get().conversationId;
    if (existing) return existing;
    const id = await documentActions.startConversation(chat.settings);
    set({ conversationId: id });
    useChat.setState({ activeId: id, fromNewChat: id });
    await useChat.getState().refreshConversations();
    return id;
  }

  return {
    items: [],

    async uploadFiles(files) {
      if (!files.length) return;
      // The failures of earlier uploads have been read by now: the new files' states replace them.
      void get().dismissFailed();
      const max = await uploadLimit();
      const added = files.map((file): UploadItem => {
        const refused = oversizeRefusal(file, max);
        return {
          key: `local-${++keySeq}`,
          name: file.name,
          size: file.size,
          state: refused ? 'error' : 'uploading',
          progress: 0,
          error: refused,
        };
      });
      set((s) => ({ items: [...s.items, ...added] }));
      if (added.every((i) => i.state === 'error')) return;
      let conversationId: string;
      try {
        conversationId = await conversationForUpload();
      } catch (e) {
        const error = { code: 'start-conversation', values: { error: e instanceof Error ? e.message : String(e) } };
        for (const item of added) if (item.state === 'uploading') patch(item.key, { state: 'error', error });
        return;
      }
      await Promise.all(
        files.map(async (file, i) => {
          const item = added[i]!;
          if (item.state === 'error') return;
          try {
            const sent = await send(file, conversationId, (progress) => patch(item.key, { progress }));
            const { document, notice, noticeCode } = sent;
            // Numbered because the conversation has a file of that name: the chip shows the new name, the note why.
            const code = noticeCode === 'duplicate-name' ? noticeCode : 'renamed';
            patch(item.key, {
              ...fromDocument(document, item.key),
              notice: notice ? { message: notice, code, values: { original: file.name } } : undefined,
            });
          } catch (e) {
            const error = e instanceof UploadFailure ? e.text : { message: e instanceof Error ? e.message : String(e) };
            patch(item.key, { state: 'error', error });
          }
          schedulePoll();
        }),
      );
    },

    async remove(key) {
      const item = get().items.find((i) => i.key === key);
      if (!item) return;
      if (item.id) {
        const res = await fetch(`/api/files/${encodeURIComponent(item.id)}`, { method: 'DELETE' });
        if (!res.ok && res.status !== 404) {
          patch(key, { notice: { code: 'remove-http', values: { name: item.name, status: res.status } } });
          return;
        }
      }
      set((s) => ({ items: s.items.filter((i) => i.key !== key) }));
    },

    async dismissFailed(keys) {
      const failed = get().items.filter((i) => i.state === 'error' && (!keys || keys.includes(i.key)));
      if (!failed.length) return;
      const stored = failed.flatMap((i) => (i.id ? [i.id] : []));
      for (const id of stored) dismissed.add(id);
      set((s) => ({ items: s.items.filter((i) => !failed.includes(i)) }));
      await Promise.all(
        stored.map(async (id) => {
          // Kept out of listings once deleted (a listing sent before may still name it); one the server kept shows
          // again with the conversation, to be dismissed again.
          const res = await fetch(`/api/files/${encodeURIComponent(id)}`, { method: 'DELETE' }).catch(() => undefined);
          if (!res || (!res.ok && res.status !== 404)) dismissed.delete(id);
        }),
      );
    },

    async showConversation(id) {
      if (id === get().conversationId) return;
      set({ conversationId: id, items: [] });
      await refresh();
    },
  };
});
