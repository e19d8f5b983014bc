'use client';
// Settings → Models → Local: the GGUF files in the models folder (one click to use), a file uploaded from this
// computer (model-upload.tsx), the catalog of small Qwen models and any GGUF URL to download, with a progress bar
// (bytes, rate, time left), Stop and Resume.
import { useTranslations } from 'next-intl';
import { useCallback, useEffect, useRef, useState } from 'react';
import * as actions from '@/app/actions/models';
import type { ActionResult } from '@/lib/chat/page';
import type { DownloadJob, LocalModelsView } from '@/lib/models/local-files';
import { LOCAL_CONNECTION_ID, modelId } from '@/lib/models/ids';
import { FIELD, PRIMARY_BUTTON } from '../runs/modal';
import { formatBytes } from '../chat/format';
import { useFormatWords } from '../chat/use-format-words';
import { useChat } from '../chat/store';
import { useSingleFlight } from '../use-single-flight';
import { ModelUpload } from './model-upload';
import { useModels } from './models-store';

const RECONNECT_MS = 1000;
/** How many times a read of the models folder and its downloads is tried before its error is shown. */
const READ_ATTEMPTS = 3;

const BUTTON =
  'rounded border border-neutral-300 px-2 py-1 text-sm hover:bg-neutral-100 disabled:opacity-50 aria-disabled:cursor-wait aria-disabled:opacity-50 dark:border-neutral-700 dark:hover:bg-neutral-800';

function useBytes() {
  const f = useFormatWords();
  return (n: number) => formatBytes(n, f);
}

function DownloadRow({ job, onChange }: { job: DownloadJob; onChange: () => void }) {
  const t = useTranslations('models');
  const bytes = useBytes();
  // A click waits behind the page's other server actions (Next sends them one at a time): the row says it was taken,
  // drops another click or Enter meanwhile (one request per click), and shows a refusal of the click itself here
  // rather than lose it.
  const [busy, runOnce] = useSingleFlight();
  const [refused, setRefused] = useState<string>();
  const act = (run: () => Promise<ActionResult<unknown>>) => () =>
    void runOnce(async () => {
      setRefused(undefined);
      const r = await run();
      if (!r.ok) setRefused(r.error);
      onChange();
    });
  const p = job.progress;
  const pct = p?.totalBytes ? Math.min(100, Math.round((p.receivedBytes / p.totalBytes) * 100)) : undefined;
  return (
    <li aria-label={t('downloadOf', { name: job.name })} className="space-y-1 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">{job.name}</span>
        <span className="text-xs">{t(`downloadStates.${job.state}`)}</span>
      </div>
      {p && (
        <>
          <progress
            className="w-full"
            aria-label={t('progress', { name: job.name })}
            max={p.totalBytes ?? undefined}
            value={p.totalBytes ? p.receivedBytes : undefined}
          />
          <p className="text-xs text-neutral-600 dark:text-neutral-400">
            {p.totalBytes
              ? t('progressOf', { got: bytes(p.receivedBytes), total: bytes(p.totalBytes), pct: pct ?? 0 })
              : bytes(p.receivedBytes)}
            {job.state === 'running' && ` · ${t('rate', { rate: bytes(p.bytesPerSecond) })}`}
            {job.state === 'running' &&
              p.secondsLeft !== undefined &&
              ` · ${t('left', { s: Math.ceil(p.secondsLeft) })}`}
            {p.resumedFrom !== undefined && ` · ${t('resumedFrom', { at: bytes(p.resumedFrom) })}`}
          </p>
        </>
      )}
      {(refused ?? (job.state === 'failed' && job.error?.message)) && (
        <p role="alert" className="text-xs text-red-700 dark:text-red-300">
          {refused ?? job.error?.message}
        </p>
      )}
      <div className="flex gap-2" aria-busy={busy}>
        {job.state === 'running' ? (
          <button
            type="button"
            className={BUTTON}
            aria-disabled={busy || undefined}
            onClick={act(() => actions.stopDownload(job.name))}
          >
            {t('stop')}
          </button>
        ) : (
          <>
            {job.state !== 'done' && (
              <button
                type="button"
                className={BUTTON}
                aria-disabled={busy || undefined}
                onClick={act(() => actions.startDownload({ url: job.url, allowHost: Boolean(job.blockedHost) }))}
              >
                {job.blockedHost ? t('allowHost', { host: job.blockedHost }) : t('resume')}
              </button>
            )}
            <button
              type="button"
              className={BUTTON}
              aria-disabled={busy || undefined}
              onClick={act(() => actions.dismissDownload(job.name))}
            >
              {t('dismiss')}
            </button>
          </>
        )}
      </div>
    </li>
  );
}

/** A read of the local models the server never answered (down, restarting): a failure like a refusal. */
function unansweredRead(e: unknown): ActionResult<LocalModelsView> {
  return { ok: false, status: 0, error: e instanceof Error ? e.message : String(e) };
}

export function LocalModels() {
  const t = useTranslations('models');
  const bytes = useBytes();
  const admin = useModels((s) => s.admin);
  const chosen = useChat((s) => s.settings?.model);
  const [view, setView] = useState<LocalModelsView>();
  const [error, setError] = useState<string>();
  const [url, setUrl] = useState('');

  // Reads overlap (the one when a download ends, and the one after a click): only the latest read is shown, so an older
  // answer ("failed") never lands after a newer one ("running") and leaves the page out of date.
  // The picker's list is read again only when the files changed (a download or an upload ended): each read is two
  // more server actions, and a click waits behind every one of them.
  const reads = useRef(0);
  const files = useRef<string>(undefined);
  const show = useCallback(async (mine: number, r: ActionResult<LocalModelsView>, tellPicker: boolean) => {
    if (mine !== reads.current) return;
    if (!r.ok) return setError(r.error);
    setView(r.value);
    const now = r.value.models.map((m) => `${m.name}:${m.sizeBytes}:${Boolean(m.summary)}`).join('\n');
    const changed = files.current !== now;
    files.current = now;
    if (tellPicker && changed) await useModels.getState().refresh();
  }, []);
  // A read that fails (the server action refused or its request lost) is tried again a moment later: left alone, the
  // rows would keep what the last good read said (a download's "failed" after its retry had finished) for good.
  const reload = useCallback(async () => {
    const mine = ++reads.current;
    for (let attempt = 1; ; attempt++) {
      const r = await actions.localModels().catch(unansweredRead);
      if (r.ok || attempt === READ_ATTEMPTS || mine !== reads.current) return show(mine, r, true);
      await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
    }
  }, [show]);

  useEffect(() => {
    if (!admin) return; // the GGUF files are the admin's (lib/server/access-rules.ts): nothing to read
    const mine = ++reads.current;
    void actions
      .localModels()
      .catch(unansweredRead)
      .then((r) => show(mine, r, false));
  }, [admin, show]);

  // While a download runs, its progress streams in (GET /api/local-models/downloads, Server-Sent Events); the list
  // is read again once it ends. A stream that breaks is opened again a second later.
  const running = (view?.downloads ?? [])
    .filter((d) => d.state === 'running')
    .map((d) => d.name)
    .join('\n');
  const [reconnects, setReconnects] = useState(0);
  useEffect(() => {
    if (!running) return;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const sources = running.split('\n').map((name) => {
      const source = new EventSource(`/api/local-models/downloads?name=${encodeURIComponent(name)}`);
      source.onmessage = (e: MessageEvent<string>) => {
        const job = JSON.parse(e.data) as DownloadJob;
        setView((v) => v && { ...v, downloads: v.downloads.map((d) => (d.name === job.name ? job : d)) });
        if (job.state !== 'running') {
          source.close();
          void reload();
        }
      };
      source.onerror = () => {
        source.close();
        void reload();
        retry ??= setTimeout(() => setReconnects((n) => n + 1), RECONNECT_MS);
      };
      return source;
    });
    return () => {
      clearTimeout(retry);
      for (const s of sources) s.close();
    };
  }, [running, reconnects, reload]);

  // One download per click (or Enter in the URL field), however fast: a start while the last one is sent is dropped.
  const [starting, runStart] = useSingleFlight();
  const start = (input: { catalogId?: string; url?: string }) =>
    runStart(async () => {
      setError(undefined);
      const r = await actions.startDownload(input);
      if (!r.ok) setError(r.error);
      await reload();
    });

  if (!admin) return <p className="text-sm">{t('localAdminOnly')}</p>;
  if (!view) return error ? <p role="alert">{error}</p> : <p className="text-sm">{t('loading')}</p>;
  const have = new Set(view.models.map((m) => m.name));
  return (
    <section aria-labelledby="models-local" className="space-y-3">
      <h3 id="models-local" className="font-semibold">
        {t('local')}
      </h3>
      <p className="text-xs text-neutral-600 dark:text-neutral-400">
        {t.rich('localDir', { dir: view.dir, code: (chunks) => <code>{chunks}</code> })}
      </p>
      {view.models.length === 0 && <p className="text-sm">{t('localNone')}</p>}
      <ul className="space-y-1">
        {view.models.map((m) => {
          const id = modelId(LOCAL_CONNECTION_ID, m.name);
          return (
            <li key={m.name} aria-label={m.name} className="flex flex-wrap items-center gap-2 text-sm">
              <span className="font-medium">{m.name}</span>
              <span className="text-xs text-neutral-600 dark:text-neutral-400">
                {bytes(m.sizeBytes)}
                {m.summary &&
                  ` · ${m.summary.architecture}${m.summary.quantization ? ` · ${m.summary.quantization}` : ''}`}
              </span>
              {m.summary ? (
                chosen === id ? (
                  <span className="text-xs">{t('inUse')}</span>
                ) : (
                  <button
                    type="button"
                    className={PRIMARY_BUTTON}
                    aria-label={t('useLocal', { name: m.name })}
                    onClick={() => useModels.getState().pick(id)}
                  >
                    {t('use')}
                  </button>
                )
              ) : (
                <span className="text-xs text-red-700 dark:text-red-300">{m.problem}</span>
              )}
            </li>
          );
        })}
      </ul>
      <ModelUpload maxBytes={view.uploadMaxBytes} bytes={bytes} onUploaded={() => void reload()} />
      {view.downloads.length > 0 && (
        <ul className="space-y-2">
          {view.downloads.map((d) => (
            <DownloadRow key={d.name} job={d} onChange={() => void reload()} />
          ))}
        </ul>
      )}
      {view.partial.map((p) => (
        <p key={p.name} className="flex flex-wrap items-center gap-2 text-sm">
          {t('partial', { name: p.name, got: bytes(p.receivedBytes) })}
          {p.url && (
            <button
              type="button"
              className={BUTTON}
              aria-disabled={starting || undefined}
              onClick={() => void start({ url: p.url })}
            >
              {t('resume')}
            </button>
          )}
        </p>
      ))}
      <h4 className="font-medium">{t('catalog')}</h4>
      <ul className="space-y-1">
        {view.catalog.map((c) => (
          <li key={c.id} aria-label={c.name} className="flex flex-wrap items-center gap-2 text-sm">
            <span>{c.name}</span>
            <span className="text-xs text-neutral-600 dark:text-neutral-400">
              {c.parameters} · {c.quantization} · {bytes(c.sizeBytes)}
            </span>
            {!have.has(`${c.id}.gguf`) && (
              <button
                type="button"
                className={BUTTON}
                aria-disabled={starting || undefined}
                onClick={() => void start({ catalogId: c.id })}
              >
                {t('download')}
              </button>
            )}
          </li>
        ))}
      </ul>
      <form
        className="flex flex-wrap gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          void start({ url });
        }}
      >
        <input
          className={`${FIELD} min-w-0 flex-1 text-sm`}
          aria-label={t('ggufUrl')}
          placeholder={t('ggufUrl')}
          value={url}
          onChange={(e) => setUrl(e.target.value)}
        />
        <button type="submit" className={BUTTON} aria-disabled={starting || undefined}>
          {t('download')}
        </button>
      </form>
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </section>
  );
}
