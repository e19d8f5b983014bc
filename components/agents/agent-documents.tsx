'use client';
// The editor's Documents field: the files a saved agent always has (its knowledge). A file uploaded here goes to the
// agent on the server at once (POST /api/files?agentId=…, checked by content); one of the user's conversation
// uploads can be picked instead. A new agent is saved first, since its documents hang off it.
import { useTranslations } from 'next-intl';
import { useEffect, useId, useState } from 'react';
import { listUploadedDocuments } from '@/app/actions/agents';
import type { AgentDocument, SavedAgent } from '@/lib/store/types';
import type { CodedText } from '../chat/server-text';
import { useUploadErrorText } from '../chat/upload-error-text';
import { oversizeRefusal, uploadLimit } from '../chat/upload-limit';

type Uploaded = AgentDocument & { conversation: string };

/** What became of one file of the last upload: added, or refused with why (the server's words and code). */
interface Outcome {
  name: string;
  error?: CodedText;
}

const ICONS = { DOCUMENT: '📄', REMOVE: '✕' };

/** Sends `file` to the agent: its documents now, or why not. */
async function uploadFile(agentId: string, file: File): Promise<{ agent: SavedAgent } | { error: CodedText }> {
  const query = new URLSearchParams({ name: file.name, agentId });
  const res = await fetch(`/api/files?${query}`, { method: 'POST', body: file }).catch(() => undefined);
  if (!res) return { error: { code: 'upload-connection' } };
  const body = (await res.json().catch(() => ({}))) as {
    agent?: SavedAgent;
    error?: { message?: string; code?: string };
  };
  if (res.status === 201 && body.agent) return { agent: body.agent };
  if (body.error?.message) return { error: { message: body.error.message, code: body.error.code } };
  return { error: { code: 'upload-http', values: { status: res.status } } };
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
  const [outcomes, setOutcomes] = useState<Outcome[]>([]);
  const errorText = useUploadErrorText();
  const pickId = useId();
  useEffect(() => {
    void listUploadedDocuments().then((r) => r.ok && setUploaded(r.value));
  }, []);
  const held = new Set(documents.map((d) => d.hash));
  const pickable = uploaded.filter((u) => !held.has(u.hash));

  const upload = async (files: File[]) => {
    if (!files.length) return;
    setOutcomes([]);
    setBusy(true);
    try {
      const max = await uploadLimit();
      // A file over the limit is refused here, before anything is sent (nor is a new agent saved for it alone).
      const refused = new Map(files.map((file) => [file, oversizeRefusal(file, max)]));
      const sent = files.filter((file) => !refused.get(file));
      const id = sent.length ? await ensureSaved() : undefined;
      if (sent.length && !id) return;
      let latest: AgentDocument[] = documents;
      const done: Outcome[] = [];
      for (const file of files) {
        const error = refused.get(file);
        if (error || !id) {
          done.push({ name: file.name, error });
          continue;
        }
        const answer = await uploadFile(id, file);
        if ('agent' in answer) latest = answer.agent.documents ?? latest;
        done.push({ name: file.name, ...('error' in answer ? { error: answer.error } : {}) });
      }
      setOutcomes(done);
      onChange(latest);
    } finally {
      setBusy(false);
    }
  };
  const failed = outcomes.filter((o) => o.error);

  return (
    <fieldset className="min-w-0 space-y-1 text-sm">
      <legend className="font-medium">{t('documents')}</legend>
      <p className="text-xs text-neutral-600 dark:text-neutral-400">{t('documentsHelp')}</p>
      {/* Every file of the last upload: what was added, and each refusal with its reason. */}
      <div role={failed.length ? 'alert' : 'status'} className="text-xs">
        {outcomes.length > 0 && (
          <ul aria-label={t('uploadOutcomes')} className="space-y-0.5">
            {outcomes.map((o, i) => (
              <li
                key={`${i}-${o.name}`}
                className={
                  o.error ? 'break-words text-red-700 dark:text-red-300' : 'text-neutral-600 dark:text-neutral-400'
                }
              >
                {o.error ? errorText(o.name, o.error) : t('documentAdded', { name: o.name })}
              </li>
            ))}
          </ul>
        )}
      </div>
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
        <label className="cursor-pointer rounded border border-neutral-300 px-2 py-1 focus-within:ring-2 focus-within:ring-blue-600 dark:border-neutral-700">
          {busy ? t('uploading') : t('uploadDocument')}
          {/* Not `disabled` while busy: that would drop a keyboard user's focus onto the page. */}
          <input
            type="file"
            multiple
            aria-disabled={busy}
            className="sr-only"
            onClick={(e) => busy && e.preventDefault()}
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
