'use client';
// Settings → Models → Local: upload a GGUF file from this computer into the models folder (POST /api/local-models,
// lib/models/upload-http.ts). A button or a drop; a progress bar with bytes, rate and time left (XMLHttpRequest, the
// one browser API that reports an upload's progress); Cancel. The server checks the file by its header and says why
// it refused one; the page then lists the file, ready to use.
import { useTranslations } from 'next-intl';
import { useEffect, useRef, useState, type DragEvent } from 'react';

const BUTTON =
  'rounded border border-neutral-300 px-2 py-1 text-sm hover:bg-neutral-100 disabled:opacity-50 dark:border-neutral-700 dark:hover:bg-neutral-800';

interface Sending {
  name: string;
  sent: number;
  total: number;
  /** Bytes per second since the upload started. */
  rate: number;
  /** All bytes are out: the server is checking the file. */
  checking: boolean;
}

type Outcome = { kind: 'done' | 'failed' | 'cancelled'; name: string; message?: string };

function carriesFiles(e: DragEvent): boolean {
  return [...e.dataTransfer.types].includes('Files');
}

export function ModelUpload({
  maxBytes,
  bytes,
  onUploaded,
}: {
  maxBytes: number;
  bytes: (n: number) => string;
  onUploaded: () => void;
}) {
  const t = useTranslations('models.upload');
  const tm = useTranslations('models');
  const input = useRef<HTMLInputElement>(null);
  const xhr = useRef<XMLHttpRequest>(undefined);
  const [sending, setSending] = useState<Sending>();
  const [outcome, setOutcome] = useState<Outcome>();
  const [over, setOver] = useState(false);

  useEffect(() => () => xhr.current?.abort(), []);

  const send = (file: File) => {
    if (xhr.current) return;
    setOutcome(undefined);
    if (file.size > maxBytes) {
      setOutcome({
        kind: 'failed',
        name: file.name,
        message: t('tooLarge', { name: file.name, size: bytes(file.size), max: bytes(maxBytes) }),
      });
      return;
    }
    const started = performance.now();
    const request = new XMLHttpRequest();
    xhr.current = request;
    setSending({ name: file.name, sent: 0, total: file.size, rate: 0, checking: false });
    request.upload.onprogress = (e) => {
      const seconds = (performance.now() - started) / 1000;
      setSending({
        name: file.name,
        sent: e.loaded,
        total: e.lengthComputable ? e.total : file.size,
        rate: seconds > 0 ? e.loaded / seconds : 0,
        checking: e.loaded >= file.size,
      });
    };
    const end = (o: Outcome) => {
      xhr.current = undefined;
      setSending(undefined);
      setOutcome(o);
      if (o.kind === 'done') onUploaded();
    };
    request.onload = () => {
      if (request.status === 201) return end({ kind: 'done', name: file.name });
      let message = request.statusText;
      try {
        message = (JSON.parse(request.responseText) as { error?: { message?: string } }).error?.message ?? message;
      } catch {
        // not JSON: the status text says it
      }
      end({ kind: 'failed', name: file.name, message });
    };
    request.onerror = () => end({ kind: 'failed', name: file.name, message: t('network') });
    request.onabort = () => end({ kind: 'cancelled', name: file.name });
    request.open('POST', `/api/local-models?name=${encodeURIComponent(file.name)}`);
    request.setRequestHeader('content-type', 'application/octet-stream');
    request.send(file);
  };

  const pick = (files: FileList | null) => {
    const file = files?.[0];
    if (file) send(file);
  };

  const pct = sending && sending.total ? Math.min(100, Math.round((sending.sent / sending.total) * 100)) : 0;
  const secondsLeft =
    sending && sending.rate > 0 ? Math.ceil((sending.total - sending.sent) / sending.rate) : undefined;

  return (
    <div
      aria-label={t('dropZone')}
      role="group"
      className={`space-y-2 rounded border border-dashed p-3 text-sm ${over ? 'border-blue-600 bg-blue-50 dark:bg-blue-950' : 'border-neutral-300 dark:border-neutral-700'}`}
      // A drop here is a model for this folder, not a document for the conversation behind the dialog.
      onDragOver={(e) => {
        if (!carriesFiles(e)) return;
        e.preventDefault();
        e.stopPropagation();
        e.dataTransfer.dropEffect = 'copy';
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        if (!carriesFiles(e)) return;
        e.preventDefault();
        e.stopPropagation();
        setOver(false);
        pick(e.dataTransfer.files);
      }}
    >
      <h4 className="font-medium">{t('title')}</h4>
      <p className="text-xs text-neutral-600 dark:text-neutral-400">{t('help', { max: bytes(maxBytes) })}</p>
      <input
        ref={input}
        type="file"
        accept=".gguf"
        aria-label={t('file')}
        className="hidden"
        onChange={(e) => {
          pick(e.target.files);
          e.target.value = '';
        }}
      />
      {sending ? (
        <div className="space-y-1">
          <progress
            className="w-full"
            aria-label={t('progress', { name: sending.name })}
            max={sending.total}
            value={sending.sent}
          />
          <p className="text-xs text-neutral-600 dark:text-neutral-400">
            {sending.checking
              ? t('checking', { name: sending.name })
              : tm('progressOf', { got: bytes(sending.sent), total: bytes(sending.total), pct })}
            {!sending.checking && sending.rate > 0 && ` · ${tm('rate', { rate: bytes(sending.rate) })}`}
            {!sending.checking && secondsLeft !== undefined && ` · ${tm('left', { s: secondsLeft })}`}
          </p>
          <button type="button" className={BUTTON} onClick={() => xhr.current?.abort()}>
            {t('cancel')}
          </button>
        </div>
      ) : (
        <button type="button" className={BUTTON} onClick={() => input.current?.click()}>
          {t('choose')}
        </button>
      )}
      {outcome?.kind === 'done' && <p role="status">{t('done', { name: outcome.name })}</p>}
      {outcome?.kind === 'cancelled' && <p role="status">{t('cancelled', { name: outcome.name })}</p>}
      {outcome?.kind === 'failed' && (
        <p role="alert" className="text-red-700 dark:text-red-300">
          {outcome.message}
        </p>
      )}
    </div>
  );
}
