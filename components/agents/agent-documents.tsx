'use client';
// The editor's Documents field: the files a saved agent always has (its knowledge). A file uploaded here goes to the
// agent on the server at once (POST /api/files?agentId=…, checked by content); one of the user's conversation
// uploads can be picked instead. A new agent is saved first, since its documents hang off it.
import { useTranslations } from 'next-intl';
import { useEffect, useId, useState } from 'react';
import { listUploadedDocuments } from '@/app/actions/agents';
import type { AgentDocument, SavedAgent } from '@/lib/store/types';

type Uploaded = AgentDocument & { conversation: string };

const ICONS = { DOCUMENT: '📄', REMOVE: '✕' };

async function uploadFile(agentId: string, file: File): Promise<SavedAgent> {
  const query = new URLSearchParams({ name: file.name, agentId });
  const res = await fetch(`/api/files?${query}`, { method: 'POST', body: file });
  const body = (await res.json().catch(() => ({}))) as { agent?: SavedAgent; error?: { message?: string } };
  if (res.status !== 201 || !body.agent) throw new Error(body.error?.message ?? `HTTP ${res.status}`);
  return body.agent;
}

export function AgentDocuments({
  documents,
  onChange,
  ensureSaved,
}: {
  documents: AgentDocument[];
  onChange: (documents: AgentDocument[]) => void;
  /** The agent's id, saving it first when it is new; undefined when it could not be saved (the form says why). */
  ensureSaved: () => Promise<string | undefined>;
}) {
  const t = useTranslations('agents');
  const [uploaded, setUploaded] = useState<Uploaded[]>([]);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const pickId = useId();
  useEffect(() => {
    void listUploadedDocuments().then((r) => r.ok && setUploaded(r.value));
  }, []);
  const held = new Set(documents.map((d) => d.hash));
  const pickable = uploaded.filter((u) => !held.has(u.hash));

  const upload = async (files: File[]) => {
    if (!files.length) return;
    setProblem(undefined);
    setBusy(true);
    try {
      const id = await ensureSaved();
      if (!id) return;
      let latest: AgentDocument[] = documents;
      for (const file of files) {
        try {
          latest = (await uploadFile(id, file)).documents ?? latest;
        } catch (e) {
          setProblem(t('documentFailed', { name: file.name, error: e instanceof Error ? e.message : String(e) }));
        }
      }
      onChange(latest);
    } finally {
      setBusy(false);
    }
  };

  return (
    <fieldset className="min-w-0 space-y-1 text-sm">
      <legend className="font-medium">{t('documents')}</legend>
      <p className="text-xs text-neutral-600 dark:text-neutral-400">{t('documentsHelp')}</p>
      {problem && (
        <p role="alert" className="text-xs text-red-700 dark:text-red-300">
          {problem}
        </p>
      )}
      <ul aria-label={t('documents')} className="space-y-1">
        {documents.map((d) => (
          <li key={d.hash} className="flex items-center gap-2">
            <span className="truncate">
              {ICONS.DOCUMENT} {d.name}
            </span>
            <button
              type="button"
              aria-label={t('removeDocument', { name: d.name })}
              className="rounded px-1 text-neutral-600 hover:bg-neutral-100 dark:text-neutral-400 dark:hover:bg-neutral-800"
              onClick={() => onChange(documents.filter((x) => x.hash !== d.hash))}
            >
              {ICONS.REMOVE}
            </button>
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap items-center gap-3">
        <label className="cursor-pointer rounded border border-neutral-300 px-2 py-1 dark:border-neutral-700">
          {busy ? t('uploading') : t('uploadDocument')}
          <input
            type="file"
            multiple
            disabled={busy}
            className="sr-only"
            onChange={(e) => {
              // Taken before the input is cleared (clearing empties its FileList).
              void upload(Array.from(e.target.files ?? []));
              e.target.value = '';
            }}
          />
        </label>
        {pickable.length > 0 && (
          <>
            <label htmlFor={pickId} className="sr-only">
              {t('pickDocument')}
            </label>
            <select
              id={pickId}
              value=""
              // A long file or conversation name must not widen the editor past a phone's screen.
              className="min-w-0 max-w-full rounded border border-neutral-300 bg-white px-2 py-1 dark:border-neutral-700 dark:bg-neutral-900"
              onChange={(e) => {
                const doc = pickable.find((u) => u.hash === e.target.value);
                if (doc) onChange([...documents, { hash: doc.hash, name: doc.name, size: doc.size }]);
              }}
            >
              <option value="">{t('pickDocument')}</option>
              {pickable.map((u) => (
                <option key={u.hash} value={u.hash}>
                  {t('pickedFrom', { name: u.name, conversation: u.conversation })}
                </option>
              ))}
            </select>
          </>
        )}
      </div>
    </fieldset>
  );
}
