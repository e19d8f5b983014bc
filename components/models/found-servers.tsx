'use client';
// "Found on this machine": the model servers answering on this machine's usual loopback ports (Ollama, LM Studio,
// llama.cpp, vLLM, SGLang), each one click from being used.
import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import * as actions from '@/app/actions/models';
import type { FoundServerView } from '@/lib/models/service';
import { PRIMARY_BUTTON } from '../runs/modal';
import { useModels } from './models-store';

const BUTTON =
  'rounded border border-neutral-300 px-2 py-1 text-sm hover:bg-neutral-100 disabled:opacity-50 dark:border-neutral-700 dark:hover:bg-neutral-800';

/** Makes (or reuses) the connection to a found server and picks its first model for the conversation. */
export async function connectFound(server: FoundServerView): Promise<string | undefined> {
  const r = await actions.useFoundServer(server.port);
  if (!r.ok) return r.error;
  const models = useModels.getState();
  await models.refresh({ servers: true });
  if (r.value.modelId) models.pick(r.value.modelId);
  await models.scan();
  return undefined;
}

export function FoundServers({ compact = false }: { compact?: boolean }) {
  const t = useTranslations('models');
  const found = useModels((s) => s.found);
  const scanning = useModels((s) => s.scanning);
  // The scan is the admin's: this machine's servers are the server's network (lib/models/service.ts).
  const admin = useModels((s) => s.admin);
  const [error, setError] = useState<string>();
  // Each time the empty page or the Models dialog opens: a server started since shows up (the server reuses a scan
  // of the last few seconds).
  useEffect(() => {
    if (admin) void useModels.getState().scan();
  }, [admin]);
  if (!admin || (compact && !found?.some((f) => !f.connectedAs))) return null;
  return (
    <section aria-labelledby="models-found" className="space-y-2">
      <h3 id="models-found" className="font-semibold">
        {t('found')}
      </h3>
      {found?.length === 0 && !scanning && <p className="text-sm">{t('foundNone')}</p>}
      <ul className="space-y-1">
        {found?.map((f) => (
          <li key={f.port} aria-label={f.name} className="flex flex-wrap items-center gap-2 text-sm">
            <span className="font-medium">{f.name}</span>
            <span className="text-xs text-neutral-600 dark:text-neutral-400">
              {t('foundModels', { n: f.models.length })}
              {f.models.length > 0 && `: ${f.models.slice(0, 3).join(', ')}`}
            </span>
            {f.connectedAs ? (
              <span className="text-xs">{t('connected')}</span>
            ) : (
              <button
                type="button"
                className={PRIMARY_BUTTON}
                onClick={async () => setError(await connectFound(f))}
                aria-label={t('useFound', { name: f.name })}
              >
                {t('use')}
              </button>
            )}
          </li>
        ))}
      </ul>
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
      {!compact && (
        <button
          type="button"
          className={BUTTON}
          disabled={scanning}
          onClick={() => void useModels.getState().scan(true)}
        >
          {scanning ? t('scanning') : t('scanAgain')}
        </button>
      )}
    </section>
  );
}
