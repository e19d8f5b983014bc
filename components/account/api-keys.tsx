'use client';
// The user's API keys: make one with a name and a scope (read, or run; shown once), see each one's scope and when it
// was last used, revoke one (asked first: a program using it is refused at once, and a revoked key stays revoked).
import { useTranslations } from 'next-intl';
import { useState, useSyncExternalStore, type ReactNode } from 'react';
import { useFormStatus } from 'react-dom';
import { createApiKey, listApiKeys, revokeApiKey } from '@/app/actions/account';
import type { ApiKeyView, KeyScope } from '@/lib/auth/api-keys';
import { MAX_KEY_NAME_LENGTH } from '@/lib/auth/api-key-name';
import { failureText, useCodedText } from '../chat/server-text';
import { alertBox, field, muted, noticeBox, primaryButton, smallButton } from './styles';
import { noSubscription, useHydrated } from '../use-hydrated';
import { useSingleFlight } from '../use-single-flight';
import { useConfirm } from '../confirm-dialog';
import { CopyButton } from './copy-button';

export function ApiKeys({ initial }: { initial: ApiKeyView[] }) {
  const t = useTranslations('apiKeys');
  const hydrated = useHydrated();
  const said = useCodedText('errors');
  const when = (time?: number) => (time === undefined ? t('never') : new Date(time).toLocaleString());
  const [keys, setKeys] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  // One key per click (or Enter), however fast: a submit while the last one runs is dropped.
  const [, runCreate] = useSingleFlight();
  const { dialog: confirmDialog, ask } = useConfirm();

  async function refresh() {
    const answer = await listApiKeys();
    if (answer.ok) setKeys(answer.value);
  }

  const create = (form: FormData) =>
    runCreate(async () => {
      setError(null);
      const answer = await createApiKey(String(form.get('name') ?? ''), String(form.get('scope')) as KeyScope);
      if (!answer.ok) return setError(said(failureText(answer)));
      setSecret(answer.value.secret);
      await refresh();
    });

  async function revoke(key: ApiKeyView) {
    const yes = await ask({
      title: t('confirmRevoke', { name: key.name }),
      message: t('confirmRevokeBody'),
      confirm: t('revoke'),
      cancel: t('cancelRevoke'),
    });
    // Cancelled: the dialog has given the focus back to the row's Revoke.
    if (!yes) return;
    setError(null);
    const answer = await revokeApiKey(key.id);
    if (!answer.ok) {
      setError(said(failureText(answer)));
      return refresh();
    }
    await refresh();
    // The row's Revoke went with the key: the keyboard goes on from the list's heading, not the page's body.
    document.getElementById('api-keys')?.focus();
  }

  return (
    <section aria-labelledby="api-keys" className="flex flex-col gap-3">
      <h2 id="api-keys" tabIndex={-1} className="text-lg font-semibold">
        {t('heading')}
      </h2>
      <p className={muted}>{t.rich('intro', { code: (chunks) => <code>{chunks}</code> })}</p>
      <BaseUrl />
      {error && (
        <p role="alert" className={alertBox}>
          {error}
        </p>
      )}
      <form action={create} className="flex flex-wrap items-end gap-2">
        <label className="flex flex-col gap-1 text-sm font-medium">
          {t('name')}
          <input name="name" required maxLength={MAX_KEY_NAME_LENGTH} className={field} />
        </label>
        {/* Labelled by id, not by wrapping: a wrapping label would name the select with its chosen option too. */}
        <div className="flex flex-col gap-1 text-sm font-medium">
          <label htmlFor="api-key-scope">{t('scope')}</label>
          <select id="api-key-scope" name="scope" defaultValue="read" className={field}>
            <option value="read">{t('scopeRead')}</option>
            <option value="run">{t('scopeRun')}</option>
          </select>
        </div>
        <CreateButton disabled={!hydrated}>{t('create')}</CreateButton>
      </form>
      {secret && (
        <div role="status" className={noticeBox}>
          <p>{t('shownOnce')}</p>
          <code data-testid="new-api-key" className="block break-all select-all">
            {secret}
          </code>
          <CopyButton text={secret} label={t('copyKey')} copiedLabel={t('copied')} />
        </div>
      )}
      {keys.length === 0 ? (
        <p className={muted}>{t('none')}</p>
      ) : (
        // On a phone each key is a block of its own, each value under its column's name and Revoke on a line of its
        // own, so nothing is past the screen's edge; wider, a table. The roles keep it a table to screen readers when
        // its parts are drawn as blocks. The box can be focused and scrolled by the keyboard if it ever overflows.
        <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={t('listLabel')}>
          <table role="table" className="w-full text-left text-sm max-sm:block">
            <thead role="rowgroup" className="max-sm:sr-only">
              <tr role="row">
                {[t('columnName'), t('columnKey'), t('columnScope'), t('created'), t('lastUsed'), t('columnState')].map(
                  (heading) => (
                    <th key={heading} role="columnheader" className="py-1 pr-3 align-bottom">
                      {heading}
                    </th>
                  ),
                )}
              </tr>
            </thead>
            <tbody role="rowgroup" className="max-sm:block">
              {keys.map((k) => (
                <tr
                  key={k.id}
                  role="row"
                  className="border-t border-neutral-200 max-sm:block max-sm:py-2 dark:border-neutral-800"
                >
                  {/* A long name wraps, anywhere in one unbroken word too, so the row's Revoke stays in view. */}
                  <td role="cell" className="py-1 pr-3 max-sm:block max-sm:py-0.5 max-sm:font-semibold">
                    <div className="max-w-64 min-w-32 [overflow-wrap:anywhere] max-sm:max-w-none">{k.name}</div>
                  </td>
                  <Cell label={t('columnKey')}>
                    <code>{k.prefix}…</code>
                  </Cell>
                  <Cell label={t('columnScope')}>{t(k.scope)}</Cell>
                  <Cell label={t('created')}>{when(k.createdAt)}</Cell>
                  <Cell label={t('lastUsed')}>{when(k.lastUsedAt)}</Cell>
                  <td role="cell" className="py-1 max-sm:block max-sm:pt-1.5">
                    {k.revokedAt !== undefined ? (
                      t('revoked')
                    ) : (
                      <button
                        type="button"
                        disabled={!hydrated}
                        aria-label={t('revokeLabel', { name: k.name })}
                        onClick={() => void revoke(k)}
                        className={smallButton}
                      >
                        {t('revoke')}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {confirmDialog}
    </section>
  );
}

/** A key's value; on a phone, where the table's head is not shown, under its column's name. */
function Cell({ label, children }: { label: string; children: ReactNode }) {
  const t = useTranslations('apiKeys');
  return (
    <td role="cell" className="py-1 pr-3 max-sm:block max-sm:py-0.5">
      <span className="font-medium whitespace-pre-wrap sm:hidden">{t('fieldLabel', { label })}</span>
      {children}
    </td>
  );
}

/** Create key: unavailable while the form's action runs (its state is the form's, as a form action's updates wait for
 *  the action to end); `aria-disabled` keeps the keyboard's focus where `disabled` would drop it. */
function CreateButton({ disabled, children }: { disabled: boolean; children: string }) {
  const { pending } = useFormStatus();
  return (
    <button type="submit" disabled={disabled} aria-disabled={pending || undefined} className={primaryButton}>
      {children}
    </button>
  );
}

/** The base URL OpenAI clients (the openai SDKs, LangChain…) take with a key: this server's /v1, as the browser
 *  reaches it. */
function BaseUrl() {
  const t = useTranslations('apiKeys');
  const origin = useSyncExternalStore(
    noSubscription,
    () => window.location.origin,
    () => '',
  );
  if (!origin) return null;
  const url = `${origin}/v1`;
  return (
    <p className={`${muted} flex flex-wrap items-center gap-2`}>
      <span>{t.rich('baseUrl', { url, code: (chunks) => <code className="break-all">{chunks}</code> })}</span>
      <CopyButton text={url} label={t('copyBaseUrl')} copiedLabel={t('copied')} />
    </p>
  );
}
