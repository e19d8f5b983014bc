'use client';
// Settings → Models: connections, servers found on this machine, and the built-in local model's files.
import { useTranslations } from 'next-intl';
import { useEffect } from 'react';
import { focusComposer } from '../chat/composer-draft';
import { Modal } from '../runs/modal';
import { Connections } from './connections';
import { FoundServers } from './found-servers';
import { LocalModels } from './local-models';
import { useModels, useModelsConfigured, type ModelsSection } from './models-store';

const TAB = 'rounded px-3 py-1 text-sm aria-selected:bg-neutral-200 dark:aria-selected:bg-neutral-800';

export function ModelsDialog() {
  const t = useTranslations('models');
  const section = useModels((s) => s.dialog);
  useEffect(() => {
    if (section) void useModels.getState().refresh();
  }, [section]);
  if (!section) return null;
  const tab = (s: ModelsSection, label: string) => (
    <button
      type="button"
      role="tab"
      aria-selected={section === s}
      className={TAB}
      onClick={() => useModels.getState().openDialog(s)}
    >
      {label}
    </button>
  );
  return (
    <Modal title={t('title')} onClose={() => useModels.getState().closeDialog()} restoreFocus={afterModels}>
      <div role="tablist" aria-label={t('title')} className="mb-3 flex gap-2">
        {tab('connections', t('servers'))}
        {tab('local', t('local'))}
      </div>
      <div role="tabpanel" className="space-y-6">
        {section === 'connections' ? (
          <>
            <FoundServers />
            <Connections />
          </>
        ) : (
          <LocalModels />
        )}
      </div>
    </Modal>
  );
}

/** Where the focus goes when the dialog's opener is gone (the no-model notice, once a model is connected): the
 *  composer, or the picker while the composer cannot be used. */
function afterModels() {
  if (!focusComposer()) document.querySelector<HTMLElement>('[role="combobox"][aria-haspopup="listbox"]')?.focus();
}

/** What the page says while no model can be picked: the two ways in (and a found server, one click away). */
export function NoModelYet({ initial }: { initial: boolean }) {
  const t = useTranslations('models');
  const configured = useModelsConfigured(initial);
  if (configured) return null;
  return (
    <div
      role="status"
      className="space-y-2 border-b border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      <p>
        <strong>{t('noneYet')}</strong> {t('noneYetHelp')}
      </p>
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className="rounded bg-blue-700 px-3 py-1 font-medium text-white hover:bg-blue-800"
          onClick={() => useModels.getState().openDialog('connections')}
        >
          {t('connectServer')}
        </button>
        <button
          type="button"
          className="rounded border border-amber-400 px-3 py-1 font-medium hover:bg-amber-100 dark:border-amber-700 dark:hover:bg-amber-900"
          onClick={() => useModels.getState().openDialog('local')}
        >
          {t('useLocalModel')}
        </button>
      </div>
      <FoundServers compact />
    </div>
  );
}
